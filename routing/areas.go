package routing

import (
	"errors"
	"slices"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/area"
)

// Limits of a metric's avoided areas (see ParseAreas).
const (
	// MaxAreaPositions is the most positions the polygons hold together.
	MaxAreaPositions = area.MaxPositions
	// MaxAreaExtentKm is the most one polygon spans each way.
	MaxAreaExtentKm = area.MaxExtentKm
	// MaxAreaKm2 is the most area the polygons cover together.
	MaxAreaKm2 = area.MaxAreaKm2
)

// areasField is the name of the areas in SpecError fields.
const areasField = "avoid_polygons"

// Areas are polygons a metric does not drive into (tdmv1's and routev1's
// avoid_polygons). Every road edge with a segment inside a polygon or
// crossing its boundary is closed to the metric in both directions, and
// points snap only to roads not closed; a road inside a hole stays open.
// Areas is a comparable value: it holds the polygons' canonical encoding
// (so equal polygons are equal Areas, whatever order or starting vertex
// they were given in) and its SHA-256. The zero value avoids no area.
type Areas struct {
	key  string
	hash [32]byte
}

// ParseAreas reads avoid_polygons: a GeoJSON Polygon or MultiPolygon,
// rings closed, holes honoured, at most MaxAreaPositions positions, each
// polygon at most MaxAreaExtentKm across and all together at most
// MaxAreaKm2. Errors are *SpecError whose Field names the part, e.g.
// "avoid_polygons.coordinates[0][2]" for the third position of the
// outer ring of a Polygon.
func ParseAreas(geojson []byte) (Areas, error) {
	s, err := area.ParseGeoJSON(geojson)
	if err != nil {
		return Areas{}, areaSpecError(err)
	}
	return areasOf(s), nil
}

// parseAreasKey reads the areas' part of a metric's key.
func parseAreasKey(key string) (Areas, error) {
	s, err := area.Decode(key)
	if err != nil {
		return Areas{}, areaSpecError(err)
	}
	return areasOf(s), nil
}

func areasOf(s area.Set) Areas {
	if s.Len() == 0 {
		return Areas{}
	}
	return Areas{key: s.Key(), hash: s.Hash()}
}

func areaSpecError(err error) error {
	var ae *area.Error
	if errors.As(err, &ae) {
		f := areasField
		if ae.Path != "" {
			f += "." + ae.Path
		}
		return &SpecError{Field: f, Msg: ae.Msg}
	}
	return &SpecError{Field: areasField, Msg: err.Error()}
}

// IsZero reports whether no area is avoided.
func (a Areas) IsZero() bool { return a.key == "" }

// String returns the canonical encoding (routing/area's Set.Key): what a
// metric's key holds after ";areas=".
func (a Areas) String() string { return a.key }

// Hash returns the SHA-256 of the canonical encoding.
func (a Areas) Hash() [32]byte { return a.hash }

// MultiPolygon returns the polygons, canonical: outer rings
// counter-clockwise, holes clockwise, coordinates to 7 decimals.
func (a Areas) MultiPolygon() orb.MultiPolygon { return a.set().MultiPolygon() }

// set decodes the areas (made by ParseAreas or a metric key, so valid).
func (a Areas) set() area.Set {
	if a.key == "" {
		return area.Set{}
	}
	s, err := area.Decode(a.key)
	if err != nil {
		panic("routing: areas: " + err.Error()) // made only from checked polygons
	}
	return s
}

// areaClosure is what closing a metric's areas found and cost.
type areaClosure struct {
	edges []uint32 // road edges closed, ascending
	took  time.Duration
}

// closeAreas returns the road edges with a segment in one of the areas'
// polygons. The snapping index's grid gives the segments near each
// polygon, so the cost is in proportion to the polygons' bounding boxes,
// not to the graph.
func (g *Graph) closeAreas(a Areas) areaClosure {
	start := time.Now()
	if a.IsZero() {
		return areaClosure{}
	}
	closed := map[uint32]bool{}
	var out []uint32
	for _, sh := range a.set().Shapes() {
		g.snap.Segments(sh.Bound(), func(e uint32, p, q orb.Point) {
			if !closed[e] && sh.Crosses(p, q) {
				closed[e] = true
				out = append(out, e)
			}
		})
	}
	slices.Sort(out)
	return areaClosure{edges: out, took: time.Since(start)}
}
