package covid

import (
	"fmt"
	"math"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/planar"
)

// polygon is an area's outline from a geojson input, with coordinates
// rounded to 1e-6 degree (the precision of NYC's file, and what the layer
// file stores exactly).
type polygon struct {
	input string // the geojson input's name
	code  string
	geom  orb.MultiPolygon
	bound orb.Bound
}

// coordScale is the fixed-point scale of stored coordinates.
const coordScale = 1e6

// quantize rounds a coordinate to 1e-6 degree.
func quantize(v float64) float64 { return math.Round(v*coordScale) / coordScale }

// readPolygons reads the Polygon and MultiPolygon features of a GeoJSON
// FeatureCollection (of the input called input), the area code from the
// property codeKey.
func readPolygons(data []byte, input, codeKey string) ([]polygon, error) {
	fc, err := geojson.UnmarshalFeatureCollection(data)
	if err != nil {
		return nil, err
	}
	var out []polygon
	for i, f := range fc.Features {
		code := strings.TrimSpace(fmt.Sprint(f.Properties[codeKey]))
		if f.Properties[codeKey] == nil || code == "" {
			return nil, fmt.Errorf("feature %d: no property %s", i, codeKey)
		}
		var mp orb.MultiPolygon
		switch g := f.Geometry.(type) {
		case orb.Polygon:
			mp = orb.MultiPolygon{g}
		case orb.MultiPolygon:
			mp = g
		default:
			return nil, fmt.Errorf("feature %d (%s): geometry %T, want a polygon", i, code, f.Geometry)
		}
		out = append(out, newPolygon(input, code, quantizeMP(mp)))
	}
	return out, nil
}

func newPolygon(input, code string, mp orb.MultiPolygon) polygon {
	return polygon{input: input, code: code, geom: mp, bound: mp.Bound()}
}

func quantizeMP(mp orb.MultiPolygon) orb.MultiPolygon {
	out := make(orb.MultiPolygon, len(mp))
	for i, p := range mp {
		out[i] = make(orb.Polygon, len(p))
		for j, r := range p {
			out[i][j] = make(orb.Ring, len(r))
			for k, pt := range r {
				out[i][j][k] = orb.Point{quantize(pt[0]), quantize(pt[1])}
			}
		}
	}
	return out
}

// contains reports whether p lies in the polygon (boundary included as
// planar.MultiPolygonContains decides).
func (p *polygon) contains(pt orb.Point) bool {
	return p.bound.Contains(pt) && planar.MultiPolygonContains(p.geom, pt)
}
