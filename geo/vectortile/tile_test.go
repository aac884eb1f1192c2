package vectortile

import (
	"math"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/encoding/mvt"
	"github.com/paulmach/orb/planar"

	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/geo/mapdata"
)

// px is where web-mercator math, written out here, puts lon/lat in tile
// z/x/y of Extent units.
func px(p orb.Point, z, x, y int) orb.Point {
	n := math.Exp2(float64(z))
	fx := (p[0] + 180) / 360 * n
	fy := (1 - math.Asinh(math.Tan(p[1]*math.Pi/180))/math.Pi) / 2 * n
	return orb.Point{(fx - float64(x)) * Extent, (fy - float64(y)) * Extent}
}

// TestTileHandMade: a hand-made map (a lake, a park, two one-way road
// edges of one street, a road against its shape, two places 100 m
// apart) encodes as the layers say: the lake's corners where mercator
// math puts them, exterior rings of positive area (MVT 2.1), the street
// one feature in its driving direction, the smaller place dropped below
// z14 and kept at z14.
func TestTileHandMade(t *testing.T) {
	lake := orb.Polygon{{{-75.53, 39.15}, {-75.52, 39.15}, {-75.52, 39.16}, {-75.53, 39.16}, {-75.53, 39.15}}}
	park := orb.Polygon{{{-75.535, 39.152}, {-75.533, 39.152}, {-75.533, 39.154}, {-75.535, 39.154}, {-75.535, 39.152}}}
	layer := mapdata.NewBounded(orb.Bound{Min: orb.Point{-75.6, 39.1}, Max: orb.Point{-75.4, 39.2}},
		[]mapdata.Area{{Class: mapdata.Water, Polygon: lake}, {Class: mapdata.Park, Polygon: park}}, nil,
		[]mapdata.Place{{Name: "Big", Kind: mapdata.Town, Population: 30000, Point: orb.Point{-75.525, 39.155}},
			{Name: "Small", Kind: mapdata.Hamlet, Point: orb.Point{-75.524, 39.1555}}})
	roads := []cartography.Road{
		{Shape: []orb.Point{{-75.54, 39.157}, {-75.535, 39.157}}, Type: "LocalRoad", Class: "residential", Name: "Main Street", Oneway: 1},
		{Shape: []orb.Point{{-75.535, 39.157}, {-75.53, 39.157}}, Type: "LocalRoad", Class: "residential", Name: "Main Street", Oneway: 1},
		{Shape: []orb.Point{{-75.53, 39.158}, {-75.54, 39.158}}, Type: "LocalRoad", Class: "residential", Name: "Back Street", Oneway: -1},
	}
	src := cartography.Sources{Layer: layer, Extent: layer.Bound(), Roads: func(b orb.Bound, fn func(cartography.Road)) {
		for _, r := range roads {
			if orb.LineString(r.Shape).Bound().Intersects(b) {
				fn(r)
			}
		}
	}}
	for _, tc := range []struct {
		z, x, y int
		places  []string
	}{{14, 4754, 6252, []string{"Big", "Small"}}, {13, 2377, 3126, []string{"Big"}}} {
		b, err := Tile(src, tc.z, tc.x, tc.y)
		if err != nil {
			t.Fatal(err)
		}
		ls, err := mvt.Unmarshal(b)
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]*mvt.Layer{}
		for _, l := range ls {
			byName[l.Name] = l
			if l.Version != 2 || l.Extent != Extent {
				t.Errorf("z%d %s: version %d extent %d", tc.z, l.Name, l.Version, l.Extent)
			}
		}
		w := byName["water"]
		if w == nil || len(w.Features) != 1 {
			t.Fatalf("z%d water: %+v", tc.z, w)
		}
		ring := w.Features[0].Geometry.(orb.Polygon)[0]
		if planar.Area(ring) <= 0 {
			t.Errorf("z%d: the lake's exterior ring has area %v, want positive in tile coordinates", tc.z, planar.Area(ring))
		}
		for _, corner := range lake[0] {
			want := px(corner, tc.z, tc.x, tc.y)
			found := false
			for _, p := range ring {
				if math.Abs(p[0]-want[0]) <= 1 && math.Abs(p[1]-want[1]) <= 1 {
					found = true
				}
			}
			if !found {
				t.Errorf("z%d: lake corner %v (tile %v) not in the ring %v", tc.z, corner, want, ring)
			}
		}
		if lu := byName["landuse"]; lu == nil || len(lu.Features) != 1 || lu.Features[0].Properties["class"] != "park" {
			t.Errorf("z%d landuse: %+v", tc.z, lu)
		}
		r := byName["roads"]
		if r == nil || len(r.Features) != 2 {
			t.Fatalf("z%d roads: %+v", tc.z, r)
		}
		for _, f := range r.Features {
			ls := f.Geometry.(orb.LineString)
			if f.Properties["oneway"] != int64(1) && f.Properties["oneway"] != uint64(1) && f.Properties["oneway"] != float64(1) {
				t.Errorf("z%d %v: oneway %v (%T)", tc.z, f.Properties["name"], f.Properties["oneway"], f.Properties["oneway"])
			}
			// Main Street eastwards as drawn; Back Street is one-way
			// against its shape: eastwards too.
			if ls[0][0] >= ls[len(ls)-1][0] {
				t.Errorf("z%d %v: drawn westwards %v", tc.z, f.Properties["name"], ls)
			}
		}
		var names []string
		for _, f := range byName["places"].Features {
			names = append(names, f.Properties["name"].(string))
		}
		if len(names) != len(tc.places) || names[0] != tc.places[0] {
			t.Errorf("z%d places %v, want %v", tc.z, names, tc.places)
		}
	}
	// Nothing at all: an empty tile.
	if b, err := Tile(src, 6, 3, 40); err != nil || len(b) != 0 {
		t.Errorf("an empty tile: %d bytes, %v", len(b), err)
	}
}

// TestMergeLines: lines meeting end to start with one key join; others
// stay apart; a loop is kept.
func TestMergeLines(t *testing.T) {
	a, b, c, d := orb.Point{0, 0}, orb.Point{1, 0}, orb.Point{2, 0}, orb.Point{3, 0}
	for _, tc := range []struct {
		name  string
		lines [][]orb.Point
		keys  []int
		want  int // chains
		first int // points of the longest
	}{
		{"chain", [][]orb.Point{{b, c}, {a, b}, {c, d}}, []int{1, 1, 1}, 1, 4},
		{"keys differ", [][]orb.Point{{a, b}, {b, c}}, []int{1, 2}, 2, 2},
		{"loop", [][]orb.Point{{a, b}, {b, c}, {c, a}}, []int{1, 1, 1}, 1, 4},
		{"fork", [][]orb.Point{{a, b}, {b, c}, {b, d}}, []int{1, 1, 1}, 2, 3},
	} {
		got, keys := mergeLines(tc.lines, tc.keys)
		longest := 0
		for _, l := range got {
			longest = max(longest, len(l))
		}
		if len(got) != tc.want || len(keys) != len(got) || longest != tc.first {
			t.Errorf("%s: %v", tc.name, got)
		}
	}
}
