package topojson

import (
	"errors"
	"fmt"
)

// Line joins the arcs refs name into one line of positions (grid positions
// for a quantized topology): each arc in order, reversed for a negative
// reference, the first position of every arc after the first dropped (it
// repeats the previous arc's last).
func (t *Topology) Line(refs []int) ([]Position, error) {
	n := 0
	for _, r := range refs {
		i := arcIndex(r)
		if i >= len(t.Arcs) {
			return nil, fmt.Errorf("topojson: arc reference %d: the topology has %d arcs", r, len(t.Arcs))
		}
		n += len(t.Arcs[i])
	}
	out := make([]Position, 0, n)
	for k, r := range refs {
		arc := t.Arcs[arcIndex(r)]
		if len(arc) == 0 {
			continue
		}
		start := len(out)
		if r >= 0 {
			out = append(out, arc...)
		} else {
			for j := len(arc) - 1; j >= 0; j-- {
				out = append(out, arc[j])
			}
		}
		if k > 0 && start > 0 {
			if out[start] != out[start-1] {
				return nil, fmt.Errorf("topojson: arc reference %d starts at %v, the previous arc ends at %v", r, out[start], out[start-1])
			}
			out = append(out[:start], out[start+1:]...)
		}
	}
	return out, nil
}

// Ring is Line for a polygon ring, which must be closed (first position
// equal to the last) and have four or more positions.
func (t *Topology) Ring(refs []int) ([]Position, error) {
	r, err := t.Line(refs)
	if err != nil {
		return nil, err
	}
	if len(r) < 4 {
		return nil, fmt.Errorf("topojson: ring of %d positions, want four or more", len(r))
	}
	if r[0] != r[len(r)-1] {
		return nil, errors.New("topojson: ring not closed")
	}
	return r, nil
}

// Polygons returns the rings of a Polygon or MultiPolygon geometry (nil for
// the other types), per polygon, exterior ring first.
func (t *Topology) Polygons(g *Geometry) ([][][]Position, error) {
	out := make([][][]Position, 0, len(g.Polygons))
	for _, poly := range g.Polygons {
		rings := make([][]Position, 0, len(poly))
		for _, refs := range poly {
			r, err := t.Ring(refs)
			if err != nil {
				return nil, err
			}
			rings = append(rings, r)
		}
		out = append(out, rings)
	}
	return out, nil
}

// Coordinates returns the coordinates of a position: the transform applied
// for a quantized topology, p itself otherwise.
func (t *Topology) Coordinates(p Position) Position {
	if t.Transform == nil {
		return p
	}
	return t.Transform.Apply(p)
}
