package bundle

import (
	"slices"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/geo/timezone"
)

// tzIndexOf builds the boundary layer of the paulmach/osm test extract
// file, and a time-zone index over it with the clock at 2026-06-15.
func tzIndexOf(t *testing.T, file string) *timezone.Index {
	t.Helper()
	path := extracts.Require(t, file)
	dir := t.TempDir()
	if _, err := boundary.Build(boundary.BuildOptions{OSMPath: path, Out: dir}); err != nil {
		t.Fatal(err)
	}
	l, err := boundary.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, time.June, 15, 12, 0, 0, 0, time.UTC)
	ix, err := timezone.NewIndex(timezone.Options{Finder: tzTestFinder(t), Areas: boundaryAreas{l}, Clock: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

var tzFinder *timezone.Finder

func tzTestFinder(t *testing.T) *timezone.Finder {
	t.Helper()
	if tzFinder == nil {
		f, err := timezone.NewFinder()
		if err != nil {
			t.Fatal(err)
		}
		tzFinder = f
	}
	return tzFinder
}

// TestTimezoneLayerRealData: known points on the real Delaware and Andorra
// boundary layers.
func TestTimezoneLayerRealData(t *testing.T) {
	tests := []struct {
		file, name string
		p          orb.Point
		zone, area string
		id         int64 // 0: any
		country    string
		names      []string // some of local_boundary_names
		notNames   []string // names local_boundary_names must not have
	}{
		{"delaware", "Dover DE", orb.Point{-75.5244, 39.1582}, "America/New_York", "Dover", 117178, "USA",
			[]string{"Delaware", "Kent County", "New Castle County", "Sussex County", "Dover", "Wilmington"}, nil},
		{"andorra", "Andorra la Vella", orb.Point{1.5218, 42.5063}, "Europe/Andorra", "Andorra la Vella", 0, "AND",
			[]string{"Andorra", "Andorra la Vella", "Canillo", "Escaldes-Engordany", "Sant Julià de Lòria"}, nil},
		// Outside the extract the local area is the world base layer's
		// country; the zone's boundary names stay the extract's.
		{"delaware", "Paris", orb.Point{2.3522, 48.8566}, "Europe/Paris", "France", 2000000000000250, "FRA", nil, []string{"France"}},
		{"delaware", "Baltimore", orb.Point{-76.6122, 39.2904}, "America/New_York", "Baltimore city", 3000000000024510, "USA",
			[]string{"Delaware"}, []string{"Baltimore city", "Maryland"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && tt.file == "andorra" {
				t.Skip("bzip2 extract: slow to read")
			}
			ix := tzIndexOf(t, tt.file)
			r, err := ix.Lookup(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			if r.Zone.Name != tt.zone || !r.InArea || r.Area.Name != tt.area || r.CountryISO3() != tt.country || r.Area.ID == 0 || tt.id != 0 && r.Area.ID != tt.id {
				t.Errorf("zone %s, area %v %d %q %s; want %s, %q %s", r.Zone.Name, r.InArea, r.Area.ID, r.Area.Name, r.CountryISO3(), tt.zone, tt.area, tt.country)
			}
			for _, n := range tt.names {
				if !slices.Contains(r.BoundaryNames, n) {
					t.Errorf("local_boundary_names lacks %q: %q", n, r.BoundaryNames)
				}
			}
			for _, n := range tt.notNames {
				if slices.Contains(r.BoundaryNames, n) {
					t.Errorf("local_boundary_names has %q, not an area of the extract: %q", n, r.BoundaryNames)
				}
			}
		})
	}
}
