package boundary

import (
	"encoding/json"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/spatial"
)

// box is a square polygon from (x0, y0) to (x1, y1).
func box(x0, y0, x1, y1 float64) orb.MultiPolygon {
	return orb.MultiPolygon{{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}}}
}

// testLayer is a layer of the given areas (their Source set as a bundle's
// would be), each with its geometry.
func testLayer(areas []*Area, geoms []orb.MultiPolygon) *Layer {
	l := &Layer{areas: areas}
	b := spatial.NewBuilder()
	for i, a := range areas {
		a.BBox = geoms[i].Bound()
		if a.Kind == 0 {
			a.Kind = KindAdmin
		}
		b.Add(geoms[i])
	}
	l.ix = b.Build()
	l.init()
	return l
}

// TestBasePrecedence checks the precedence of a layer's own areas over
// its base layer's on a hand-made map: a base country (0..10 x 0..10)
// with a state (0..5) holding two counties (0..5 x 0..5, 0..5 x 5..10),
// and an extract that has a clipped stand-in of the country, the state's
// own outline, one county of its own, a town in it, and a --boundaries
// file's county.
func TestBasePrecedence(t *testing.T) {
	base := NewBase([]BaseArea{
		{ID: BaseCountryID + 840, Name: "Base Country", Admin: 0, AdminLevel: 2, CountryISO2: "US", Source: SourceNaturalEarth, Geometry: box(0, 0, 10, 10)},
		{ID: BaseUSID + 10, Name: "Base State", Admin: 1, AdminLevel: 4, CountryISO2: "US", ISO3166_2: "US-DE", Source: SourceCensus, Geometry: box(0, 0, 5, 10)},
		{ID: BaseUSID + 10001, Name: "Base South County", Admin: 2, AdminLevel: 6, CountryISO2: "US", Source: SourceCensus, Geometry: box(0, 0, 5, 5)},
		{ID: BaseUSID + 10003, Name: "Base North County", Admin: 2, AdminLevel: 6, CountryISO2: "US", Source: SourceCensus, Geometry: box(0, 5, 5, 10)},
	})
	l := testLayer([]*Area{
		{ID: 1, Name: "Clipped Country", Admin: 0, AdminLevel: 2, Clipped: true},
		{ID: 2, Name: "OSM State", Admin: 1, AdminLevel: 4},
		{ID: 3, Name: "OSM South County", Admin: 2, AdminLevel: 6},
		{ID: 4, Name: "OSM Town", Admin: 8, AdminLevel: 8},
		{ID: fileIDBase + 1, Name: "File North County", Admin: 2, AdminLevel: 6},
		{ID: 5, Name: "OSM Suburb", Admin: -1, AdminLevel: 10},
	}, []orb.MultiPolygon{box(0, 0, 5, 10), box(0, 0, 5, 10), box(0, 0, 5, 5), box(1, 1, 2, 2), box(0, 6, 5, 10), box(1, 1, 1.5, 1.5)})
	l.WithBase(base)

	south, north, town, east := orb.Point{3, 3}, orb.Point{3, 8}, orb.Point{1.2, 1.2}, orb.Point{8, 5}
	tests := []struct {
		name  string
		p     orb.Point
		level int
		want  string
	}{
		{"a clipped country gives way to the base", south, 0, "Base Country"},
		{"the extract's state", south, 1, "OSM State"},
		{"the extract's county", south, 2, "OSM South County"},
		{"a file's county", north, 2, "File North County"},
		{"the base county where the extract has none", orb.Point{3, 5.5}, 2, "Base North County"},
		{"admin8 in the town", town, 8, "OSM Town"},
		{"admin8 outside the town: the finest above", south, 8, "OSM South County"},
		{"outside the extract: the base country", east, 8, "Base Country"},
		{"outside everything", orb.Point{20, 20}, 8, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, ok := l.AdminAt(tc.p, tc.level)
			got := ""
			if ok {
				got = a.Name
			}
			if got != tc.want {
				t.Errorf("AdminAt(%v, %d) = %q, want %q", tc.p, tc.level, got, tc.want)
			}
		})
	}

	var names []string
	for _, a := range l.AdminHierarchy(town) {
		names = append(names, a.Name+"/"+a.Source)
	}
	want := []string{"OSM Suburb/osm", "OSM Town/osm", "OSM South County/osm", "OSM State/osm", "Base Country/naturalearth"}
	if len(names) != len(want) {
		t.Fatalf("AdminHierarchy(town) = %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("AdminHierarchy(town) = %v, want %v", names, want)
			break
		}
	}
	if a, ok := l.ByID(BaseUSID + 10003); !ok || a.Name != "Base North County" || a.Source != SourceCensus {
		t.Errorf("ByID of a base county: %v %v", a, ok)
	}
	if a, ok := l.ByID(BaseCountryID + 840); !ok || a.CountryISO3 != "USA" || a.DialCode != 1 || a.CategoryName != "admin0" {
		t.Errorf("base country: %+v", a)
	}
	if p, ok := base.areas[0].PolygonAt(east); !ok || len(p) != 1 {
		t.Errorf("a base area's PolygonAt: %v %v", p, ok)
	}
	if got := l.countryCode(east); got != "US" {
		t.Errorf("countryCode = %q", got)
	}
}

// TestLoadedBaseIsWorld: the base layer a bundle's file holds is World:
// the same areas, fields, sources and geometry.
func TestLoadedBaseIsWorld(t *testing.T) {
	l, _ := realLayer(t, "delaware")
	w, err := World()
	if err != nil {
		t.Fatal(err)
	}
	got, want := l.Base().Areas(), w.Areas()
	if len(got) != len(want) {
		t.Fatalf("%d base areas, World has %d", len(got), len(want))
	}
	for i := range want {
		g, e := *got[i], *want[i]
		gj, _ := json.Marshal(g)
		ej, _ := json.Marshal(e)
		if string(gj) != string(ej) || g.Source != e.Source || !orb.Equal(got[i].Geometry(), want[i].Geometry()) {
			t.Fatalf("base area %d: %s %s, World's %s %s", i, gj, g.Source, ej, e.Source)
		}
	}
}
