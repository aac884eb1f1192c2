package area

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
)

// ParseGeoJSON reads a GeoJSON Polygon or MultiPolygon object (other
// members, such as bbox, are ignored; a position's third number, an
// altitude, too) and checks it: every position a number pair in range,
// every ring closed with at least 4 positions and not crossing or
// touching itself or another ring of its polygon, every hole inside its
// outer ring and outside the others, at most MaxPositions positions, each
// polygon at most MaxExtentKm across and MaxAreaKm2 in all. Errors are
// *Error, naming the member, ring and position.
func ParseGeoJSON(b []byte) (Set, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil || obj == nil {
		return Set{}, &Error{Msg: `must be a GeoJSON Polygon or MultiPolygon object, e.g. {"type":"Polygon","coordinates":[[[lon,lat],...]]}`}
	}
	var typ string
	raw, ok := obj["type"]
	if !ok {
		return Set{}, &Error{Path: "type", Msg: `is required: "Polygon" or "MultiPolygon"`}
	}
	if err := json.Unmarshal(raw, &typ); err != nil {
		return Set{}, &Error{Path: "type", Msg: `must be the string "Polygon" or "MultiPolygon"`}
	}
	if typ != "Polygon" && typ != "MultiPolygon" {
		return Set{}, errorf("type", `is %q: want "Polygon" or "MultiPolygon" (a geometry, not a Feature; names are case-sensitive)`, typ)
	}
	raw, ok = obj["coordinates"]
	if !ok || isNull(raw) {
		return Set{}, &Error{Path: "coordinates", Msg: "is required: " + coordinatesWant(typ)}
	}
	d := decoder{multi: typ == "MultiPolygon"}
	var polys []polygon
	if d.multi {
		items, err := array(raw, "coordinates", coordinatesWant(typ))
		if err != nil {
			return Set{}, err
		}
		if len(items) == 0 {
			return Set{}, &Error{Path: "coordinates", Msg: "is empty: a MultiPolygon needs at least one polygon"}
		}
		for p, item := range items {
			poly, err := d.polygon(item, p)
			if err != nil {
				return Set{}, err
			}
			polys = append(polys, poly)
		}
	} else {
		poly, err := d.polygon(raw, 0)
		if err != nil {
			return Set{}, err
		}
		polys = []polygon{poly}
	}
	return d.set(polys)
}

func coordinatesWant(typ string) string {
	if typ == "MultiPolygon" {
		return "an array of polygons, each an array of rings, each an array of [lon, lat] positions"
	}
	return "an array of rings (the outer ring, then holes), each an array of [lon, lat] positions"
}

func isNull(raw json.RawMessage) bool {
	return len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// array decodes raw as a JSON array.
func array(raw json.RawMessage, path, want string) ([]json.RawMessage, *Error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, &Error{Path: path, Msg: "must be " + want}
	}
	return items, nil
}

// decoder reads one object's coordinates, counting its positions.
type decoder struct {
	multi     bool
	positions int
}

// polyPath returns the path of polygon p: "coordinates" or
// "coordinates[p]".
func (d *decoder) polyPath(p int) string {
	if d.multi {
		return fmt.Sprintf("coordinates[%d]", p)
	}
	return "coordinates"
}

func (d *decoder) ringPath(p, r int) string { return fmt.Sprintf("%s[%d]", d.polyPath(p), r) }

// polygon reads polygon p: its rings, each checked on its own.
func (d *decoder) polygon(raw json.RawMessage, p int) (polygon, *Error) {
	path := d.polyPath(p)
	rings, err := array(raw, path, "an array of rings (the outer ring, then holes), each an array of [lon, lat] positions")
	if err != nil {
		return nil, err
	}
	if len(rings) == 0 {
		return nil, &Error{Path: path, Msg: "is empty: a polygon needs an outer ring"}
	}
	checked := make([]checkedRing, 0, len(rings))
	for r, rr := range rings {
		rpath := d.ringPath(p, r)
		items, err := array(rr, rpath, "an array of [lon, lat] positions, the last repeating the first")
		if err != nil {
			return nil, err
		}
		d.positions += len(items)
		if d.positions > MaxPositions {
			return nil, errorf("coordinates", "holds more than %d positions in all (%d up to %s): simplify the polygons", MaxPositions, d.positions, rpath)
		}
		pos := make([]vertex, len(items))
		for i, item := range items {
			v, err := position(item, fmt.Sprintf("%s[%d]", rpath, i))
			if err != nil {
				return nil, err
			}
			pos[i] = v
		}
		cr, err := checkRing(pos, rpath)
		if err != nil {
			return nil, err
		}
		checked = append(checked, cr)
	}
	return checkPolygon(checked, path)
}

// position reads [lon, lat] (an altitude after them is ignored), in range.
func position(raw json.RawMessage, path string) (vertex, *Error) {
	var xs []float64
	if err := json.Unmarshal(raw, &xs); err != nil || len(xs) < 2 || len(xs) > 3 {
		return vertex{}, &Error{Path: path, Msg: "must be a position [lon, lat]: two numbers, longitude first"}
	}
	var v vertex
	for k, name := range []string{"longitude", "latitude"} {
		f := xs[k]
		lim := 180.0
		if k == 1 {
			lim = 90
		}
		if f < -lim || f > lim {
			msg := fmt.Sprintf("%s %g is out of range [%g, %g]", name, f, -lim, lim)
			if k == 1 && math.Abs(f) <= 180 {
				msg += " (a position is [lon, lat], longitude first)"
			}
			return vertex{}, &Error{Path: path, Msg: msg}
		}
		v[k] = int32(math.Round(f * scale))
	}
	return v, nil
}
