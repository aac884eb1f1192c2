package zip4

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/planar"
)

// ReadGeoJSON reads an authoritative ZIP+4 layer: a GeoJSON
// FeatureCollection of Polygon or MultiPolygon features (lon/lat, EPSG
// 4326) whose properties give the code either as zip9 ("199010001" or
// "19901-0001") or as zip (or zip5) plus plus4 (or zip4, addon). Optional
// properties: uid (else "file.<index>") and fips (five digits; else the
// county finder of the build fills it in). Any feature without a valid code
// or polygon geometry is an error naming it. Features keep the file's
// order, then are sorted by zip9.
func ReadGeoJSON(path string) ([]Feature, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("zip4: %w", err)
	}
	fc, err := geojson.UnmarshalFeatureCollection(data)
	if err != nil {
		return nil, fmt.Errorf("zip4: %s: not a GeoJSON FeatureCollection: %w", path, err)
	}
	out := make([]Feature, 0, len(fc.Features))
	for i, gf := range fc.Features {
		f, err := fileFeature(i, gf)
		if err != nil {
			return nil, fmt.Errorf("zip4: %s: feature %d: %w", path, i, err)
		}
		out = append(out, f)
	}
	sortFeatures(out)
	return out, nil
}

// fileFeature converts feature i of a ZIP+4 file.
func fileFeature(i int, gf *geojson.Feature) (Feature, error) {
	f := Feature{UID: "file." + strconv.Itoa(i)}
	if u := propString(gf.Properties, "uid", "UID"); u != "" {
		f.UID = u
	}
	code := strings.ReplaceAll(propString(gf.Properties, "zip9", "ZIP9"), "-", "")
	if code == "" {
		z := propString(gf.Properties, "zip", "ZIP", "zip5", "ZIP5")
		p := propString(gf.Properties, "plus4", "PLUS4", "zip4", "ZIP4", "addon", "ADDON")
		code = z + p
	}
	if !ValidZip9(code) {
		return f, fmt.Errorf("no nine-digit ZIP+4 code in its properties (zip9, or zip + plus4): got %q", code)
	}
	f.Zip9 = code
	if v := propString(gf.Properties, "fips", "FIPS"); isDigits(v, 5) {
		f.FIPS = v
	}
	switch g := gf.Geometry.(type) {
	case orb.Polygon:
		f.Geometry = orb.MultiPolygon{g}
	case orb.MultiPolygon:
		f.Geometry = g
	default:
		return f, fmt.Errorf("geometry %T, want Polygon or MultiPolygon", gf.Geometry)
	}
	for _, poly := range f.Geometry {
		if len(poly) == 0 || len(poly[0]) < 4 {
			return f, fmt.Errorf("a polygon without an outer ring of 4 or more positions")
		}
		for _, ring := range poly {
			for _, p := range ring {
				if !(p[0] >= -180 && p[0] <= 180 && p[1] >= -90 && p[1] <= 90) {
					return f, fmt.Errorf("position %v outside lon/lat range", p)
				}
			}
		}
	}
	rep, ok := polygonPoint(f.Geometry)
	if !ok {
		return f, fmt.Errorf("polygons without area")
	}
	f.Rep = rep
	return f, nil
}

// propString returns the first of the named properties that is set, as a
// string (numbers are written as integers when whole).
func propString(props geojson.Properties, names ...string) string {
	for _, n := range names {
		switch v := props[n].(type) {
		case string:
			if s := strings.TrimSpace(v); s != "" {
				return s
			}
		case float64:
			if v == math.Trunc(v) && v >= 0 {
				return strconv.FormatFloat(v, 'f', 0, 64)
			}
		case json.Number:
			return v.String()
		}
	}
	return ""
}

// polygonPoint returns a point inside the largest polygon of mp: the
// middle of the widest inside stretch of the horizontal line through the
// middle of its bounding box (the centroid when that is inside).
func polygonPoint(mp orb.MultiPolygon) (orb.Point, bool) {
	best, bestArea := -1, 0.0
	for i, poly := range mp {
		if a := math.Abs(planar.Area(poly)); a > bestArea {
			best, bestArea = i, a
		}
	}
	if best < 0 {
		return orb.Point{}, false
	}
	poly := mp[best]
	if c, _ := planar.CentroidArea(poly); planar.PolygonContains(poly, c) {
		return c, true
	}
	b := poly.Bound()
	for _, frac := range []float64{0.5, 0.37, 0.63, 0.21, 0.79} {
		y := b.Min[1] + frac*(b.Max[1]-b.Min[1])
		var xs []float64
		for _, ring := range poly {
			for i := 0; i+1 < len(ring); i++ {
				a, c := ring[i], ring[i+1]
				if (a[1] > y) != (c[1] > y) {
					xs = append(xs, a[0]+(y-a[1])*(c[0]-a[0])/(c[1]-a[1]))
				}
			}
		}
		sort.Float64s(xs)
		wide, at := 0.0, orb.Point{}
		for i := 0; i+1 < len(xs); i += 2 {
			if w := xs[i+1] - xs[i]; w > wide {
				wide, at = w, orb.Point{(xs[i] + xs[i+1]) / 2, y}
			}
		}
		if wide > 0 && planar.PolygonContains(poly, at) {
			return at, true
		}
	}
	return orb.Point{}, false
}
