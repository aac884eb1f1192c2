package boundary

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

type builtLayer struct {
	layer  *Layer
	report *Report
	err    error
}

var (
	builtMu sync.Mutex
	built   = map[string]*builtLayer{}
)

// realLayer builds (once per test binary) and loads the layer of a real
// extract, skipping the test when the extract is absent.
func realLayer(t testing.TB, name string) (*Layer, *Report) {
	t.Helper()
	path := extracts.Require(t, name)
	builtMu.Lock()
	defer builtMu.Unlock()
	b, ok := built[name]
	if !ok {
		b = &builtLayer{}
		dir, err := os.MkdirTemp("", "boundary-"+name)
		if err == nil {
			defer os.RemoveAll(dir)
			b.report, err = Build(BuildOptions{OSMPath: path, Out: dir})
			if err == nil {
				b.layer, err = Load(dir)
			}
		}
		b.err = err
		built[name] = b
	}
	if b.err != nil {
		t.Fatalf("%s: %v", name, b.err)
	}
	return b.layer, b.report
}

// Points checked against the OSM data of the extracts.
var (
	dover          = orb.Point{-75.5244, 39.1582}
	wilmington     = orb.Point{-75.5466, 39.7459}
	georgetownDE   = orb.Point{-75.3852, 38.6901}
	andorraLaVella = orb.Point{1.5218, 42.5063}
	escaldes       = orb.Point{1.5346, 42.5097}
	atlantic       = orb.Point{-74.0, 38.0}
)

func TestKnownPoints(t *testing.T) {
	tests := []struct {
		extract string
		p       orb.Point
		admin   int
		want    string // name, "" for none
		wantISO string
	}{
		{"delaware", dover, 0, "United States of America", "USA"},
		{"delaware", dover, 1, "Delaware", "USA"},
		{"delaware", dover, 2, "Kent County", "USA"},
		{"delaware", dover, 5, "Kent County", "USA"}, // falls back to the county
		{"delaware", dover, 8, "Dover", "USA"},
		{"delaware", wilmington, 2, "New Castle County", "USA"},
		{"delaware", wilmington, 8, "Wilmington", "USA"},
		{"delaware", georgetownDE, 2, "Sussex County", "USA"},
		{"delaware", atlantic, 0, "", ""},
		// A New Jersey town the extract holds whole while it cuts the US
		// relation: its country comes from the time zone's country.
		{"delaware", orb.Point{-75.46817, 39.72835}, 8, "Penns Grove", "USA"},
		// Inside an unnamed admin_level 8 relation (r4075881) within Dover's
		// box: the named area around it answers.
		{"delaware", orb.Point{-75.44808, 39.16602}, 8, "Kent County", "USA"},
		{"andorra", andorraLaVella, 0, "Andorra", "AND"},
		{"andorra", andorraLaVella, 1, "Andorra la Vella", "AND"},
		{"andorra", escaldes, 1, "Escaldes-Engordany", "AND"},
		{"andorra", escaldes, 8, "Escaldes-Engordany", "AND"}, // no quart here: the parish
		{"monaco", orb.Point{7.4246, 43.7384}, 0, "Monaco", "MCO"},
		// Outside the extract: the world base layer.
		{"delaware", orb.Point{2.3522, 48.8566}, 0, "France", "FRA"},
		{"delaware", orb.Point{2.3522, 48.8566}, 8, "France", "FRA"},
		{"andorra", orb.Point{-75.5244, 39.1582}, 2, "Kent County", "USA"},
		{"andorra", orb.Point{-76.6122, 39.2904}, 8, "Baltimore city", "USA"},
		{"monaco", orb.Point{139.6917, 35.6895}, 1, "Japan", "JPN"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/admin%d/%s", tc.extract, tc.admin, tc.want), func(t *testing.T) {
			l, _ := realLayer(t, tc.extract)
			a, ok := l.AdminAt(tc.p, tc.admin)
			if tc.want == "" {
				if ok {
					t.Errorf("%s admin%d at %v = %q, want none", tc.extract, tc.admin, tc.p, a.Name)
				}
				return
			}
			if !ok {
				t.Fatalf("%s admin%d at %v: none, want %q", tc.extract, tc.admin, tc.p, tc.want)
			}
			if a.Name != tc.want || a.CountryISO3 != tc.wantISO {
				t.Errorf("%s admin%d at %v = %q (%s), want %q (%s)", tc.extract, tc.admin, tc.p, a.Name, a.CountryISO3, tc.want, tc.wantISO)
			}
		})
	}
}

// TestBaseLayerSources: the answers' sources, and Dover's country is the
// whole United States (the world base layer's), not the extract's clipped
// stand-in.
func TestBaseLayerSources(t *testing.T) {
	l, _ := realLayer(t, "delaware")
	for _, tc := range []struct {
		p      orb.Point
		level  int
		source string
	}{
		{dover, 0, SourceNaturalEarth},
		{dover, 1, SourceOSM},
		{dover, 8, SourceOSM},
		{orb.Point{-77.0365, 38.8977}, 2, SourceCensus}, // Washington, DC
		{orb.Point{2.3522, 48.8566}, 0, SourceNaturalEarth},
	} {
		a, ok := l.AdminAt(tc.p, tc.level)
		if !ok || a.Source != tc.source {
			t.Errorf("admin%d at %v: %v, want source %s", tc.level, tc.p, a, tc.source)
		}
	}
	us, _ := l.AdminAt(dover, 0)
	if us.ID != BaseCountryID+840 || us.BBox.Min[0] > -124 || us.BBox.Max[0] < -67 || us.Clipped {
		t.Errorf("Dover's admin0: id %d, bbox %v; want the whole United States", us.ID, us.BBox)
	}
	if p, ok := us.PolygonAt(orb.Point{-118.24, 34.05}); !ok || len(p) == 0 { // Los Angeles
		t.Errorf("the United States' polygon at Los Angeles: %v", ok)
	}
}

func TestLayerSizes(t *testing.T) {
	tests := []struct {
		extract string
		level   int
		want    int
		names   []string
	}{
		{"delaware", 2, 1, []string{"United States of America"}},
		{"delaware", 4, 1, []string{"Delaware"}},
		{"delaware", 6, 3, []string{"Kent County", "New Castle County", "Sussex County"}},
		{"delaware", 8, 44, []string{"Dover", "Wilmington", "Newark", "Georgetown", "Lewes", "Milford", "Smyrna"}},
		{"andorra", 2, 1, []string{"Andorra"}},
		{"andorra", 7, 7, []string{"Andorra la Vella", "Canillo", "Encamp", "Escaldes-Engordany", "La Massana", "Ordino", "Sant Julià de Lòria"}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/admin_level=%d", tc.extract, tc.level), func(t *testing.T) {
			l, rep := realLayer(t, tc.extract)
			names := map[string]bool{}
			n := 0
			for _, a := range l.Areas() {
				if a.Kind == KindAdmin && a.AdminLevel == tc.level {
					n++
					names[a.Name] = true
				}
			}
			if n != tc.want {
				t.Errorf("%s: %d areas of admin_level %d, want %d\n%s", tc.extract, n, tc.level, tc.want, rep)
			}
			for _, name := range tc.names {
				if !names[name] {
					t.Errorf("%s: no admin_level %d area %q", tc.extract, tc.level, name)
				}
			}
		})
	}
}

func TestAreaFields(t *testing.T) {
	l, rep := realLayer(t, "delaware")
	us, ok := l.ByID(148838)
	if !ok || !us.Clipped || us.CountryISO3 != "USA" || us.DialCode != 1 || us.Admin != 0 || us.CategoryCode != 900 {
		t.Errorf("United States = %+v, want clipped admin0 USA dial code 1", us)
	}
	if len(rep.Broken) == 0 || len(rep.Clipped) != 1 {
		t.Errorf("report: %d broken, clipped %v; want Maryland & co. broken, the US clipped", len(rep.Broken), rep.Clipped)
	}
	de, ok := l.ByID(162110)
	if !ok || de.ISO3166_2 != "US-DE" || de.CategoryName != "admin1" || de.Clipped {
		t.Errorf("Delaware = %+v", de)
	}
	h := l.AdminHierarchy(dover)
	var got []string
	for _, a := range h {
		got = append(got, a.Name)
	}
	if want := "Dover|Kent County|Delaware|United States of America"; strings.Join(got, "|") != want {
		t.Errorf("AdminHierarchy(Dover) = %v, want %s", got, want)
	}
	if a, ok := l.MostSpecificAdmin(dover); !ok || a.Name != "Dover" {
		t.Errorf("MostSpecificAdmin(Dover) = %v, %v", a, ok)
	}
	park := orb.Point{-75.4667, 39.2500} // Bombay Hook National Wildlife Refuge
	code := 922
	gb := l.GeoBoundariesAt(park, &code)
	if len(gb) != 1 || gb[0].Name != "Bombay Hook National Wildlife Refuge" || gb[0].CategoryName != "national_park" {
		t.Errorf("GeoBoundariesAt(Bombay Hook, 922) = %v", gb)
	}
	if !l.HasCategory(921) || l.HasCategory(5) {
		t.Error("HasCategory")
	}
	a, _ := l.ByID(1245078)
	if p, ok := a.PolygonAt(dover); !ok || len(p) == 0 || !a.Contains(dover) {
		t.Error("Kent County PolygonAt(Dover): none")
	}
}

func TestEveryAreaContainsItsRepresentativePoint(t *testing.T) {
	for _, name := range []string{"delaware", "andorra", "monaco"} {
		t.Run(name, func(t *testing.T) {
			l, _ := realLayer(t, name)
			for _, a := range l.Areas() {
				if !a.Contains(a.RepPoint) {
					t.Errorf("%s: area %d %q does not contain its representative point %v", name, a.ID, a.Name, a.RepPoint)
				}
				if !a.BBox.Contains(a.RepPoint) {
					t.Errorf("%s: area %d: bbox %v misses %v", name, a.ID, a.BBox, a.RepPoint)
				}
			}
		})
	}
}
