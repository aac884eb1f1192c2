package world

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/biter777/countries"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/world/internal/config"
	"github.com/geosvc/geosvc/geo/world/internal/lonlat"
)

func testFeatures(t *testing.T) []Feature {
	t.Helper()
	fs, err := Features()
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestCounts: Natural Earth's 255 admin-0 features less the 16 without an
// id, one of the two "036", plus Kosovo, Christmas Island and the Cocos
// Islands; us-atlas's 56 states (50, DC, 5 territories) and 3,231
// counties.
func TestCounts(t *testing.T) {
	counts := map[Kind]int{}
	for _, f := range testFeatures(t) {
		counts[f.Kind]++
	}
	want := map[Kind]int{Country: 241, State: 56, County: 3231}
	for k, n := range want {
		if counts[k] != n {
			t.Errorf("%d %vs, want %d", counts[k], k, n)
		}
	}
	if len(counts) != len(want) {
		t.Errorf("kinds %v", counts)
	}
}

func TestSources(t *testing.T) {
	srcs, err := Sources()
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 2 {
		t.Fatalf("%d sources", len(srcs))
	}
	ne, census := srcs[0], srcs[1]
	if ne.Name != "naturalearth" || ne.Package != "world-atlas" || ne.Version != "2.0.2" || ne.PackageLicense != "ISC" ||
		ne.DataLicense != "public domain" || !strings.Contains(ne.Data, "Natural Earth 4.1.0") || ne.File != "countries-10m.json" {
		t.Errorf("Natural Earth source %+v", ne)
	}
	if census.Name != "census" || census.Package != "us-atlas" || census.Version != "3.0.1" || census.PackageLicense != "ISC" ||
		!strings.Contains(census.Data, "2017 edition") || census.File != "counties-10m.json" {
		t.Errorf("Census source %+v", census)
	}
	// The grids: world-atlas quantizes to 1e5 steps over its bbox (360°
	// of longitude / 99,999; 168.856° of latitude / 99,999).
	lon, lat := ne.StepMetres()
	if math.Abs(ne.Step[0]-360.0/99999) > 1e-15 || math.Abs(lon-400.8) > 0.1 || math.Abs(lat-186.7) > 0.1 {
		t.Errorf("Natural Earth step %v degrees, %.1f x %.1f m", ne.Step, lon, lat)
	}
	lon, lat = census.StepMetres()
	if math.Abs(lon-399.6) > 0.1 || math.Abs(lat-95.0) > 0.1 {
		t.Errorf("Census step %v degrees, %.1f x %.1f m", census.Step, lon, lat)
	}
}

// TestGeometry: every ring closed, of four points or more, on the globe,
// exterior rings counter-clockwise and holes clockwise, no edge across
// the antimeridian (but along a pole), bounding boxes right, features in
// order without a repeated id.
func TestGeometry(t *testing.T) {
	fs := testFeatures(t)
	empty := map[string]bool{}
	for i, f := range fs {
		if i > 0 && (fs[i-1].Kind > f.Kind || fs[i-1].Kind == f.Kind && fs[i-1].ID >= f.ID) {
			t.Errorf("%v %s after %v %s", f.Kind, f.ID, fs[i-1].Kind, fs[i-1].ID)
		}
		if len(f.Geometry) == 0 {
			empty[f.ID] = true
			if f.BBox != (orb.Bound{}) {
				t.Errorf("%s: bbox %v without geometry", f.ID, f.BBox)
			}
			continue
		}
		if f.BBox != f.Geometry.Bound() {
			t.Errorf("%s: bbox %v, geometry's %v", f.ID, f.BBox, f.Geometry.Bound())
		}
		for _, p := range f.Geometry {
			for k, r := range p {
				if len(r) < 4 || r[0] != r[len(r)-1] {
					t.Fatalf("%s %s: ring of %d points, closed %v", f.ID, f.Name, len(r), r[0] == r[len(r)-1])
				}
				if a := lonlat.Area(r); (a > 0) != (k == 0) {
					t.Errorf("%s %s: ring %d has signed area %g", f.ID, f.Name, k, a)
				}
				for j := range len(r) - 1 {
					a, b := r[j], r[j+1]
					if math.Abs(a[0]) > 180 || math.Abs(a[1]) > 90 {
						t.Fatalf("%s %s: point %v off the globe", f.ID, f.Name, a)
					}
					if math.Abs(b[0]-a[0]) > 180 && !(math.Abs(a[1]) == 90 && a[1] == b[1]) {
						t.Fatalf("%s %s: edge %v-%v across the antimeridian", f.ID, f.Name, a, b)
					}
				}
			}
		}
	}
	// Too small for the sources' grids (the generator's report lists them).
	if len(empty) != 2 || !empty["336"] || !empty["51610"] {
		t.Errorf("features without geometry: %v, want the Vatican (336) and Falls Church city (51610)", empty)
	}
}

// TestCountryCodes: every country's id is an ISO 3166-1 numeric code that
// github.com/biter777/countries knows, with the alpha-2 code it gives
// (Kosovo's user-assigned 900 / XK included).
func TestCountryCodes(t *testing.T) {
	for _, f := range testFeatures(t) {
		if f.Kind != Country {
			if f.ISO2 != "US" {
				t.Errorf("%v %s: ISO2 %q", f.Kind, f.ID, f.ISO2)
			}
			continue
		}
		n, err := strconv.Atoi(f.ID)
		c := countries.ByNumeric(n)
		if err != nil || len(f.ID) != 3 || c == countries.Unknown || c.Alpha2() != f.ISO2 {
			t.Errorf("country %s %s: ISO2 %q, github.com/biter777/countries: %v", f.ID, f.Name, f.ISO2, c.Alpha2())
		}
	}
}

// TestCounties: each county's FIPS code starts with a state's, each state
// has counties, and the names follow configs/world.yaml.
func TestCounties(t *testing.T) {
	cfg, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	fs := testFeatures(t)
	states := map[string]string{}
	for _, f := range fs {
		if f.Kind == State {
			states[f.ID] = f.Name
		}
	}
	perState := map[string]int{}
	byID := map[string]string{}
	for _, f := range fs {
		if f.Kind != County {
			continue
		}
		byID[f.ID] = f.Name
		if len(f.ID) != 5 || states[f.ID[:2]] == "" {
			t.Errorf("county %s %s: no state %s", f.ID, f.Name, f.ID[:2])
			continue
		}
		perState[f.ID[:2]]++
		desc, missing := cfg.Counties.Describe(f.ID)
		if missing || desc != "" && !strings.HasSuffix(f.Name, " "+desc) {
			t.Errorf("county %s %q: the rule gives the description %q", f.ID, f.Name, desc)
		}
	}
	for st, name := range states {
		if perState[st] == 0 {
			t.Errorf("state %s %s has no county", st, name)
		}
	}
	// Counts per state from the Census 2017 county list.
	for st, n := range map[string]int{"10": 3, "02": 29, "22": 64, "48": 254, "51": 133, "72": 78, "11": 1} {
		if perState[st] != n {
			t.Errorf("state %s: %d counties, want %d", st, perState[st], n)
		}
	}
	for fips := range cfg.Counties.Counties {
		if byID[fips] == "" {
			t.Errorf("configs/world.yaml names county %s, which the layer lacks", fips)
		}
	}
}

// TestUnidentified: the Natural Earth features configs/world.yaml leaves
// out or merges into another country are not in the layer by their own
// names; the ones it makes features of are, with their ids.
func TestUnidentified(t *testing.T) {
	cfg, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	byName, byID := map[string]string{}, map[string]string{}
	for _, f := range testFeatures(t) {
		if f.Kind == Country {
			byName[f.Name], byID[f.ID] = f.ID, f.Name
		}
	}
	for _, u := range cfg.Countries.Unidentified {
		switch {
		case u.Omit, u.ID != "" && byID[u.ID] != u.Name:
			if id, ok := byName[u.Name]; ok {
				t.Errorf("%s is in the layer under its own name (id %s)", u.Name, id)
			}
		case u.ID != "":
			if byName[u.Name] != u.ID {
				t.Errorf("%s: id %q, want %s", u.Name, byName[u.Name], u.ID)
			}
		}
		for _, p := range u.Parts {
			if byName[p.As] != p.ID {
				t.Errorf("%s: id %q, want %s", p.As, byName[p.As], p.ID)
			}
		}
	}
	if byName["Kosovo"] != "900" || byName["Australia"] != "036" {
		t.Errorf("Kosovo %q, Australia %q", byName["Kosovo"], byName["Australia"])
	}
	ix := testIndex(t)
	for _, tc := range []struct {
		place    string
		lon, lat float64
	}{
		{"Siachen Glacier", 77.1, 35.4},
		{"Spratly Islands, Itu Aba", 114.3662, 10.3771},
	} {
		if f, ok := ix.CountryAt(orb.Point{tc.lon, tc.lat}); ok {
			t.Errorf("%s: country %s %s, want none (left out)", tc.place, f.ID, f.Name)
		}
	}
}
