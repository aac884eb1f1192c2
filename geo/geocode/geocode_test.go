package geocode

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

// tinyIndex builds the hand-written fixture testdata/tiny.osm.
func tinyIndex(t testing.TB) *Index {
	t.Helper()
	ix, err := Build(filepath.Join("testdata", "tiny.osm"), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestForwardFixture(t *testing.T) {
	ix := tinyIndex(t)
	for _, tc := range []struct {
		query   string
		kind    Kind
		typ     LocationType
		addr    string
		near    orb.Point
		partial bool
	}{
		{"10 North Main Street, Testville, DE 19901", KindAddress, Rooftop, "10 N Main St, Testville, DE 19901, USA", orb.Point{-75.4998, 39.0002}, false},
		{"10 n main st", KindAddress, Rooftop, "10 N Main St, Testville, DE 19901, USA", orb.Point{-75.4998, 39.0002}, false},
		{"10 N. MAIN STRET", KindAddress, Rooftop, "10 N Main St, Testville, DE 19901, USA", orb.Point{-75.4998, 39.0002}, true},
		{"12 north main street testville", KindAddress, Rooftop, "12 N Main St, Testville, DE 19901, USA", orb.Point{-75.4985, 39.0004}, false},
		{"24 North Main Street", KindInterpolation, RangeInterpolated, "24 N Main St, Testville, DE 19901, USA", orb.Point{-75.4991, 38.9998}, false},
		{"99 North Main Street", KindStreet, GeometricCenter, "N Main St, Testville, DE 19901, USA", orb.Point{-75.499, 39.0}, true},
		{"Testville, DE", KindPlace, Approximate, "Testville, DE, USA", orb.Point{-75.499, 39.001}, false},
		{"testville public library", KindPOI, Rooftop, "Testville Public Library, Testville, DE 19901, USA", orb.Point{-75.4992, 39.0001}, false},
		{"carrer unio", KindStreet, GeometricCenter, "Carrer de la Unió, Testville, DE, USA", orb.Point{-75.499, 39.01}, false},
		{"C. de la Unió", KindStreet, GeometricCenter, "Carrer de la Unió, Testville, DE, USA", orb.Point{-75.499, 39.01}, false},
	} {
		t.Run(tc.query, func(t *testing.T) {
			cs := ix.Forward(Query{Text: tc.query})
			if len(cs) == 0 {
				t.Fatal("no result")
			}
			c := cs[0]
			if c.Kind != tc.kind || c.LocationType != tc.typ || c.FormattedAddress != tc.addr || c.PartialMatch != tc.partial {
				t.Errorf("got %v %v %q partial=%v, want %v %v %q partial=%v", c.Kind, c.LocationType, c.FormattedAddress, c.PartialMatch, tc.kind, tc.typ, tc.addr, tc.partial)
			}
			if d := geo.HaversineM(c.Location, tc.near); d > 15 {
				t.Errorf("location %v is %.0f m from %v", c.Location, d, tc.near)
			}
		})
	}
	if cs := ix.Forward(Query{Text: "zzzz qqqq"}); len(cs) != 0 {
		t.Errorf("nonsense query found %v", cs[0].FormattedAddress)
	}
	if cs := ix.Forward(Query{Text: "main street", Components: Components{PostalCode: "99999"}}); len(cs) != 0 {
		t.Errorf("components filter kept %v", cs[0].FormattedAddress)
	}
}

func TestReverseFixture(t *testing.T) {
	ix := tinyIndex(t)
	for _, tc := range []struct {
		name  string
		p     orb.Point
		first string
		types []string
	}{
		{"at the address node", orb.Point{-75.4998, 39.00019}, "10 N Main St, Testville, DE 19901, USA", []string{"street_address"}},
		{"inside the building", orb.Point{-75.4985, 39.0004}, "12 N Main St, Testville, DE 19901, USA", []string{"street_address"}},
		{"on the street", orb.Point{-75.4991, 39.0}, "24 N Main St, Testville, DE 19901, USA", []string{"street_address"}},
		{"far away", orb.Point{-75.40, 39.05}, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := ix.Reverse(tc.p, ReverseOptions{})
			if tc.first == "" {
				if len(cs) != 0 {
					t.Fatalf("got %q, want zero results", cs[0].FormattedAddress)
				}
				return
			}
			if len(cs) == 0 {
				t.Fatal("no result")
			}
			if cs[0].FormattedAddress != tc.first || !reflect.DeepEqual(cs[0].Types, tc.types) {
				t.Errorf("got %q %v, want %q %v", cs[0].FormattedAddress, cs[0].Types, tc.first, tc.types)
			}
			if len(cs) < 2 || !cs[1].HasType("route") {
				t.Errorf("second result is not the route: %+v", cs)
			}
		})
	}
	var got []string
	for _, c := range ix.Reverse(orb.Point{-75.4998, 39.00019}, ReverseOptions{}) {
		got = append(got, c.Types[0]+": "+c.FormattedAddress)
	}
	want := []string{
		"street_address: 10 N Main St, Testville, DE 19901, USA",
		"route: N Main St, Testville, DE 19901, USA",
		"locality: Testville, DE, USA",
		"administrative_area_level_2: Kent County, DE, USA",
		"administrative_area_level_1: Delaware, USA",
		"country: United States",
		"postal_code: Testville, DE 19901, USA",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reverse results\n%q\nwant\n%q", got, want)
	}
	cs := ix.Reverse(orb.Point{-75.4998, 39.00019}, ReverseOptions{ResultTypes: []string{"route"}})
	if len(cs) != 1 || !cs[0].HasType("route") {
		t.Errorf("result_type=route: got %d results", len(cs))
	}
	cs = ix.Reverse(orb.Point{-75.4998, 39.00019}, ReverseOptions{LocationTypes: []LocationType{Rooftop}})
	if len(cs) != 1 || cs[0].LocationType != Rooftop {
		t.Errorf("location_type=ROOFTOP: got %d results", len(cs))
	}
}

func TestSaveLoad(t *testing.T) {
	ix := tinyIndex(t)
	dir := t.TempDir()
	if err := ix.Save(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.feats, ix.feats) || !reflect.DeepEqual(got.ctxs, ix.ctxs) || !reflect.DeepEqual(got.strs, ix.strs) ||
		!reflect.DeepEqual(got.pts, ix.pts) || !reflect.DeepEqual(got.meta, ix.meta) {
		t.Fatal("loaded index differs from the saved one")
	}
	for _, q := range []string{"10 main st", "testville", "24 north main"} {
		a, b := ix.Forward(Query{Text: q}), got.Forward(Query{Text: q})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%q: loaded index answers %v, built one %v", q, b, a)
		}
	}
}

// FuzzForward runs arbitrary text through Forward and Reverse-style
// rendering on the fixture: no panic, well-formed candidates.
func FuzzForward(f *testing.F) {
	ix := tinyIndex(f)
	for _, s := range []string{"10 North Main Street, Testville, DE 19901", "24 n main", "carrer unio", "de", "12-14 main st #3", "\xff", "testv"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range ix.Forward(Query{Text: s, Limit: 3}) {
			if c.PlaceID == "" || c.FormattedAddress == "" || len(c.Types) == 0 || c.LocationType == "" {
				t.Fatalf("%q: incomplete candidate %+v", s, c)
			}
			if c.Score <= 0 || c.Score > 2 {
				t.Fatalf("%q: score %v", s, c.Score)
			}
		}
	})
}

// TestReverseRanking checks the rules that pick the first reverse result
// on testdata/blocks.osm: inside a building the most specific address
// around the point, outside the nearest address location, and on a road
// an address on that road.
func TestReverseRanking(t *testing.T) {
	ix, err := Build(filepath.Join("testdata", "blocks.osm"), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		p      orb.Point
		number string
		route  string
	}{
		{"inside the mall near its middle", orb.Point{-75.5194, 39.02041}, "100", "Market Street"},
		{"inside the mall next to the shop node", orb.Point{-75.5193, 39.0205}, "104", "Market Street"},
		{"inside the building inside the mall", orb.Point{-75.5196, 39.02035}, "102", "Market Street"},
		{"outside, the mall wall 4 m away, a node 22 m", orb.Point{-75.51895, 39.0204}, "110", "Market Street"},
		{"in the yard of a house nearer another street", orb.Point{-75.5185, 39.0202}, "5", "Oak Avenue"},
		{"inside that house", orb.Point{-75.5185, 39.0203}, "5", "Oak Avenue"},
		{"on Market Street, an Oak Avenue node nearer", orb.Point{-75.5175, 39.02001}, "130", "Market Street"},
		{"1.7 m outside the warehouse, its street 24 m", orb.Point{-75.52002, 39.0239}, "200", "Market Street"},
		{"in the warehouse by its east entrance", orb.Point{-75.51805, 39.0232}, "7", "Pine Street"},
		{"in the warehouse by its west entrance", orb.Point{-75.51995, 39.0232}, "5", "Pine Street"},
		{"in the middle of the warehouse", orb.Point{-75.5190, 39.0235}, "200", "Market Street"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := ix.Reverse(tc.p, ReverseOptions{})
			if len(cs) == 0 {
				t.Fatal("no result")
			}
			num, _ := cs[0].Component("street_number")
			route, _ := cs[0].Component("route")
			if num != tc.number || route != tc.route {
				t.Errorf("got %q (%s), want %s %s", cs[0].FormattedAddress, cs[0].Kind, tc.number, tc.route)
			}
			if cs[0].Distance > DefaultAddressTolerance {
				t.Errorf("distance %.1f m is over the address tolerance", cs[0].Distance)
			}
		})
	}
}
