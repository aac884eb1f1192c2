package topojson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// maxGrid bounds the absolute grid positions of a quantized topology, so
// that they are exact in a float64 and convert to int64 without overflow.
const maxGrid = 1 << 53

type rawTopology struct {
	Type      string                  `json:"type"`
	BBox      []float64               `json:"bbox"`
	Transform *rawTransform           `json:"transform"`
	Arcs      [][][]float64           `json:"arcs"`
	Objects   map[string]*rawGeometry `json:"objects"`
}

type rawTransform struct {
	Scale     []float64 `json:"scale"`
	Translate []float64 `json:"translate"`
}

type rawGeometry struct {
	Type        *string         `json:"type"`
	ID          json.RawMessage `json:"id"`
	Properties  map[string]any  `json:"properties"`
	Arcs        json.RawMessage `json:"arcs"`
	Coordinates json.RawMessage `json:"coordinates"`
	Geometries  []*rawGeometry  `json:"geometries"`
}

// Decode parses a TopoJSON topology and checks it: every arc has two or
// more positions, every arc reference names an arc, a quantized topology's
// positions are integers.
func Decode(data []byte) (*Topology, error) {
	var raw rawTopology
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("topojson: %w", err)
	}
	if raw.Type != "Topology" {
		return nil, fmt.Errorf("topojson: type %q, want \"Topology\"", raw.Type)
	}
	t := &Topology{BBox: raw.BBox, Objects: make(map[string]*Geometry, len(raw.Objects))}
	if raw.Transform != nil {
		tr := raw.Transform
		if len(tr.Scale) != 2 || len(tr.Translate) != 2 {
			return nil, errors.New("topojson: transform needs a scale and a translate of two numbers each")
		}
		t.Transform = &Transform{Scale: [2]float64{tr.Scale[0], tr.Scale[1]}, Translate: [2]float64{tr.Translate[0], tr.Translate[1]}}
	}
	t.Arcs = make([][]Position, len(raw.Arcs))
	for i, ra := range raw.Arcs {
		arc, err := decodeArc(ra, t.Transform != nil)
		if err != nil {
			return nil, fmt.Errorf("topojson: arc %d: %w", i, err)
		}
		t.Arcs[i] = arc
	}
	for name, rg := range raw.Objects {
		if rg == nil {
			return nil, fmt.Errorf("topojson: object %q is null", name)
		}
		g, err := decodeGeometry(rg, len(t.Arcs))
		if err != nil {
			return nil, fmt.Errorf("topojson: object %q: %w", name, err)
		}
		t.Objects[name] = g
	}
	return t, nil
}

// decodeArc checks an arc's positions and, when quantized, undoes the
// delta encoding.
func decodeArc(ra [][]float64, quantized bool) ([]Position, error) {
	if len(ra) < 2 {
		return nil, fmt.Errorf("%d positions, want two or more", len(ra))
	}
	arc := make([]Position, len(ra))
	var x, y float64
	for j, p := range ra {
		if len(p) < 2 {
			return nil, fmt.Errorf("position %d has %d numbers, want two or more", j, len(p))
		}
		if !quantized {
			arc[j] = Position{p[0], p[1]}
			continue
		}
		if p[0] != math.Trunc(p[0]) || p[1] != math.Trunc(p[1]) {
			return nil, fmt.Errorf("position %d %v: a quantized topology has integer positions", j, p[:2])
		}
		x, y = x+p[0], y+p[1]
		if math.Abs(x) > maxGrid || math.Abs(y) > maxGrid {
			return nil, fmt.Errorf("position %d beyond ±2^53", j)
		}
		arc[j] = Position{x, y}
	}
	return arc, nil
}

func decodeGeometry(rg *rawGeometry, arcs int) (*Geometry, error) {
	g := &Geometry{Properties: rg.Properties}
	if rg.Type != nil {
		g.Type = *rg.Type
	}
	id, err := decodeID(rg.ID)
	if err != nil {
		return nil, err
	}
	g.ID = id
	switch g.Type {
	case "":
	case TypePoint, TypeMultiPoint:
		var pts [][]float64
		if g.Type == TypePoint {
			var p []float64
			err = json.Unmarshal(rg.Coordinates, &p)
			pts = [][]float64{p}
		} else {
			err = json.Unmarshal(rg.Coordinates, &pts)
		}
		if err != nil {
			return nil, fmt.Errorf("%s coordinates: %w", g.Type, err)
		}
		for _, p := range pts {
			if len(p) < 2 {
				return nil, fmt.Errorf("%s position of %d numbers", g.Type, len(p))
			}
			g.Points = append(g.Points, Position{p[0], p[1]})
		}
	case TypeLineString:
		var line []int
		if err := unmarshalArcs(rg.Arcs, &line); err != nil {
			return nil, err
		}
		g.Lines = [][]int{line}
	case TypeMultiLineString:
		if err := unmarshalArcs(rg.Arcs, &g.Lines); err != nil {
			return nil, err
		}
	case TypePolygon:
		var rings [][]int
		if err := unmarshalArcs(rg.Arcs, &rings); err != nil {
			return nil, err
		}
		g.Polygons = [][][]int{rings}
	case TypeMultiPolygon:
		if err := unmarshalArcs(rg.Arcs, &g.Polygons); err != nil {
			return nil, err
		}
	case TypeGeometryCollection:
		g.Geometries = make([]*Geometry, 0, len(rg.Geometries))
		for i, rc := range rg.Geometries {
			if rc == nil {
				return nil, fmt.Errorf("geometry %d is null", i)
			}
			c, err := decodeGeometry(rc, arcs)
			if err != nil {
				return nil, fmt.Errorf("geometry %d: %w", i, err)
			}
			g.Geometries = append(g.Geometries, c)
		}
	default:
		return nil, fmt.Errorf("unknown geometry type %q", g.Type)
	}
	for _, line := range g.Lines {
		if err := checkRefs(line, arcs); err != nil {
			return nil, err
		}
	}
	for _, poly := range g.Polygons {
		for _, ring := range poly {
			if err := checkRefs(ring, arcs); err != nil {
				return nil, err
			}
		}
	}
	return g, nil
}

// decodeID returns a string id as is and a number in its JSON spelling.
func decodeID(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", fmt.Errorf("id: %w", err)
		}
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", fmt.Errorf("id is neither a string nor a number: %w", err)
	}
	return n.String(), nil
}

func unmarshalArcs(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return errors.New("no arcs member")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("arcs: %w", err)
	}
	return nil
}

// checkRefs checks that a line or ring has references and that each names
// an arc.
func checkRefs(refs []int, arcs int) error {
	if len(refs) == 0 {
		return errors.New("a line or ring without arcs")
	}
	for _, r := range refs {
		if arcIndex(r) >= arcs {
			return fmt.Errorf("arc reference %d: the topology has %d arcs", r, arcs)
		}
	}
	return nil
}

// arcIndex returns the arc a reference names (^r for a reversed one).
func arcIndex(r int) int {
	if r < 0 {
		return ^r
	}
	return r
}
