// Package isochrone computes isochrones (and isodistances): the area a
// vehicle reaches from a point within given times or distances, or, in
// reverse, from which it reaches the point. One one-to-all search
// (routing.Graph.OneToAll: PHAST on the CH for the plain metrics, on the
// customized CCH otherwise) gives every road's cost; each contour takes
// the parts of the roads reached within it (interpolated along a road
// where the contour falls inside it) and, for a polygon, the area within
// two grid cells of them: a distance field sampled on a grid sized to the
// contour (about 350 cells across, at least 15 m), traced by marching
// squares, simplified by half a cell, with holes where no reached road
// comes near.
package isochrone

import (
	"context"
	"errors"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing"
)

// Request is one isochrone.
type Request struct {
	// Metric is the routing metric searched (profile, speeds, avoid...).
	Metric routing.Metric
	// Quantity is what the contours count: seconds or metres.
	Quantity routing.Quantity
	// Contours are the limits, ascending.
	Contours []float64
	// Reverse searches towards the point: where it can be reached from.
	Reverse bool
	// Lines asks for the reached roads (MultiLineString) rather than
	// polygons.
	Lines bool
}

// Contour is one contour's geometry: a Polygon or MultiPolygon (nil when
// nothing is reached), or a MultiLineString of the reached roads.
type Contour struct {
	Value    float64
	Geometry orb.Geometry
	// CellM is the grid cell of the polygon in metres (0 for lines):
	// the polygon holds every point of a reached road and no point
	// farther than about 2.5 cells from one.
	CellM float64
}

// ErrNotSnapped is returned for an origin that is not on a road.
var ErrNotSnapped = errors.New("isochrone: the point is not on a road")

// Compute returns the contours of one snapped point, in the order of
// req.Contours. It returns ctx's error if ctx ends during a metric's
// customization or between contours.
func Compute(ctx context.Context, g *routing.Graph, s routing.Snap, req Request) ([]Contour, error) {
	if !s.OK {
		return nil, ErrNotSnapped
	}
	r, err := g.OneToAll(ctx, req.Metric, s, req.Reverse)
	if err != nil {
		return nil, err
	}
	out := make([]Contour, 0, len(req.Contours))
	for _, limit := range req.Contours {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st := r.Within(limit, req.Quantity)
		c := Contour{Value: limit}
		if req.Lines {
			if len(st) > 0 {
				c.Geometry = Lines(g, st)
			}
		} else {
			c.Geometry, c.CellM = polygon(g, st)
		}
		out = append(out, c)
	}
	return out, nil
}

// Lines returns the geometry of the stretches of road.
func Lines(g *routing.Graph, st []routing.Stretch) orb.MultiLineString {
	out := make(orb.MultiLineString, 0, len(st))
	for _, s := range st {
		out = append(out, g.StretchLine(s))
	}
	return out
}
