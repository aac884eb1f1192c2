package mapdata

import (
	"sync"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// built holds one build per extract for the test binary.
var built sync.Map // name -> *builtLayer

type builtLayer struct {
	once sync.Once
	l    *Layer
	rep  *Report
	err  error
}

// buildExtract builds (once per test binary) the layer of a named extract
// (extracts.Path); a missing extract skips, or fails under CI=true.
func buildExtract(tb testing.TB, name string) (*Layer, *Report) {
	tb.Helper()
	path := extracts.Require(tb, name)
	v, _ := built.LoadOrStore(name, &builtLayer{})
	b := v.(*builtLayer)
	b.once.Do(func() { b.l, b.rep, b.err = Build(BuildOptions{OSMPath: path}) })
	if b.err != nil {
		tb.Fatal(b.err)
	}
	return b.l, b.rep
}

// classesAt returns the classes of the areas containing p at a scale.
func classesAt(l *Layer, p orb.Point, mpp float64) map[Class]bool {
	out := map[Class]bool{}
	for _, a := range l.Areas(orb.Bound{Min: p, Max: p}, mpp) {
		if planar.PolygonContains(a.Polygon, p) {
			out[a.Class] = true
		}
	}
	return out
}

// TestDelawareAreas: the classes at known points of the real Delaware
// extract, at every band's scale: the sea in the bay and the ocean (the
// assembled coastline), state parks and a wood from their OSM polygons
// (interior points computed from the polygons by geo.InteriorPointMulti
// when the test was written), and towns on land.
func TestDelawareAreas(t *testing.T) {
	l, rep := buildExtract(t, "delaware")
	tests := []struct {
		name  string
		p     orb.Point
		class Class
		want  bool
		sea   bool // whether p is in the assembled sea
	}{
		{"Delaware Bay", orb.Point{-75.2, 39.1}, Water, true, true},
		{"Atlantic off Rehoboth", orb.Point{-75.0, 38.7}, Water, true, true},
		{"Atlantic off Fenwick Island", orb.Point{-75.02, 38.46}, Water, true, true},
		{"Delaware River off New Castle", orb.Point{-75.55, 39.66}, Water, true, true},
		// Dover's given point lies in Silver Lake (a natural=water way):
		// water, but not sea.
		{"Dover, Silver Lake", orb.Point{-75.52, 39.16}, Water, true, false},
		{"Dover, Legislative Hall", orb.Point{-75.5247, 39.1573}, Water, false, false},
		{"Georgetown", orb.Point{-75.3857, 38.6901}, Water, false, false},
		{"Newark", orb.Point{-75.7508, 39.6852}, Water, false, false},
		{"Killens Pond State Park (r6375572)", orb.Point{-75.5403, 38.985}, Park, true, false},
		{"Trap Pond State Park (w425398559)", orb.Point{-75.4684, 38.5198}, Park, true, false},
		{"Brandywine Creek State Park (r3804174)", orb.Point{-75.5679, 39.8104}, Park, true, false},
		{"Lynch Thicket (r6366096, natural=wood)", orb.Point{-75.0943, 38.6259}, Woodland, true, false},
		{"Dover is not a park", orb.Point{-75.5247, 39.1573}, Park, false, false},
		// New Jersey, across the bay: the extract holds no coastline
		// there (the world base layer's coast closes the sea), so its
		// land must not be sea.
		{"Port Norris, NJ", orb.Point{-75.035, 39.246}, Water, false, false},
		{"Fortescue, NJ", orb.Point{-75.16, 39.235}, Water, false, false},
		{"Salem, NJ", orb.Point{-75.467, 39.572}, Water, false, false},
	}
	for _, tc := range tests {
		if got := inSea(rep, tc.p); got != tc.sea {
			t.Errorf("%s %v: in the sea = %v, want %v", tc.name, tc.p, got, tc.sea)
		}
		for _, mpp := range []float64{1, 5, 20, 100} {
			got := classesAt(l, tc.p, mpp)
			if got[tc.class] != tc.want {
				t.Errorf("%s %v at %g m/px: %s = %v, want %v (classes %v)", tc.name, tc.p, mpp, tc.class, got[tc.class], tc.want, got)
			}
			if !got[Land] {
				t.Errorf("%s %v at %g m/px: not in the Land area", tc.name, tc.p, mpp)
			}
		}
	}
	// The sea at every scale.
	for _, p := range []orb.Point{{-75.2, 39.1}, {-75.0, 38.7}} {
		for _, mpp := range []float64{300, 1000, 5000} {
			if !classesAt(l, p, mpp)[Water] {
				t.Errorf("%v at %g m/px: no water", p, mpp)
			}
		}
	}
}

// TestDelawareCounts: every class the extract has is in the layer, the
// build's report agrees, and the file stays within 30 MB.
func TestDelawareCounts(t *testing.T) {
	l, rep := buildExtract(t, "delaware")
	t.Log(rep)
	s := l.Stats()
	for c := Land; c < Railway; c++ {
		if s.Areas[c] == 0 {
			t.Errorf("no %s areas", c)
		}
	}
	// 8,252 building ways in the extract (and some relations).
	if s.Areas[Buildings] < 8000 {
		t.Errorf("%d buildings, want >= 8000", s.Areas[Buildings])
	}
	if s.Lines[Railway] < 1000 || s.Lines[Province] == 0 {
		t.Errorf("lines %v: want >= 1000 railways and the state's border", s.Lines)
	}
	if s.Lines[Border] != 0 {
		t.Errorf("%d country borders in Delaware, want 0", s.Lines[Border])
	}
	// 64 coastline ways of the extract; the New Jersey shore of the bay,
	// which the extract cuts, from the world base layer (2 stretches,
	// joined to the extract's chains across 2 gaps besides the Delaware
	// River's at Marcus Hook); 5 islands, and the tip of Cape May the
	// box clips.
	if c := rep.Coast; c.Ways-c.WorldWays != 64 || c.WorldWays != 2 || c.GapsClosed != 3 || c.Islands != 6 {
		t.Errorf("coast %+v: want 64 ways of the extract and 2 of the world layer, 3 gaps closed, 6 islands", rep.Coast)
	}
	if rep.Size <= 0 || rep.Size > 30<<20 {
		t.Errorf("size %d bytes, want 1 .. 30 MB", rep.Size)
	}
	// Coarser bands keep fewer features.
	for b := 1; b < numBands; b++ {
		if s.BandFeatures[b] > s.BandFeatures[b-1] {
			t.Errorf("band %d has %d features, band %d %d", b, s.BandFeatures[b], b-1, s.BandFeatures[b-1])
		}
	}
	// A railway near Wilmington station, a state border line near
	// Delaware's arc with Pennsylvania.
	for _, tc := range []struct {
		b     orb.Bound
		class Class
	}{
		{orb.Bound{Min: orb.Point{-75.56, 39.73}, Max: orb.Point{-75.54, 39.74}}, Railway},
		{orb.Bound{Min: orb.Point{-75.60, 39.82}, Max: orb.Point{-75.55, 39.86}}, Province},
	} {
		n := 0
		for _, ln := range l.Lines(tc.b, 5) {
			if ln.Class == tc.class {
				n++
			}
		}
		if n == 0 {
			t.Errorf("no %s line in %v", tc.class, tc.b)
		}
	}
}

func TestDelawarePlaces(t *testing.T) {
	l, _ := buildExtract(t, "delaware")
	// Seaford's place node labels the town; its boundary relation, also
	// tagged place=city and named "City of Seaford", adds no second label.
	seaford := orb.Bound{Min: orb.Point{-75.66, 38.62}, Max: orb.Point{-75.58, 38.68}}
	var names []string
	for _, p := range l.Places(seaford) {
		if p.Name == "Seaford" || p.Name == "City of Seaford" {
			names = append(names, p.Name)
		}
	}
	if len(names) != 1 || names[0] != "Seaford" {
		t.Errorf("Seaford's labels: %q, want one, \"Seaford\"", names)
	}
	tests := []struct {
		name    string
		kind    PlaceKind
		pop     int
		capital bool
		near    orb.Point
	}{
		{"Dover", City, 34735, true, orb.Point{-75.5244, 39.1582}},
		{"Wilmington", City, 72826, false, orb.Point{-75.5466, 39.7459}},
		{"Newark", Town, 30014, false, orb.Point{-75.7508, 39.6852}},
		{"Milford", Town, 0, false, orb.Point{-75.4281, 38.9130}},
	}
	for _, tc := range tests {
		b := orb.Bound{Min: tc.near, Max: tc.near}.Pad(0.01)
		var got *Place
		for _, p := range l.Places(b) {
			if p.Name == tc.name && p.Kind == tc.kind {
				got = &p
				break
			}
		}
		if got == nil {
			t.Errorf("%s: no %s near %v in %v", tc.name, tc.kind, tc.near, l.Places(b))
			continue
		}
		if got.Population != tc.pop || got.Capital != tc.capital {
			t.Errorf("%s: population %d capital %v, want %d %v", tc.name, got.Population, got.Capital, tc.pop, tc.capital)
		}
	}
	// Places come larger kinds first: the first place of the whole state
	// is a city, and Wilmington (the larger) before Dover.
	all := l.Places(l.Bound())
	if len(all) < 1500 || all[0].Name != "Wilmington" || all[1].Name != "Dover" {
		t.Errorf("%d places, first %v", len(all), all[:min(3, len(all))])
	}
}

// TestAndorraBorders: a landlocked country: its border (admin_level 2)
// lines, no sea, and its capital.
func TestAndorraBorders(t *testing.T) {
	l, rep := buildExtract(t, "andorra")
	t.Log(rep)
	s := l.Stats()
	if s.Lines[Border] == 0 || rep.Coast.SeaPolygons != 0 {
		t.Errorf("lines %v, sea %+v: want borders and no sea", s.Lines, rep.Coast)
	}
	// The border with Spain south of Sant Julia de Loria (1.49, 42.43).
	n := 0
	for _, ln := range l.Lines(orb.Bound{Min: orb.Point{1.40, 42.40}, Max: orb.Point{1.55, 42.46}}, 20) {
		if ln.Class == Border {
			n++
		}
	}
	if n == 0 {
		t.Error("no border line between Andorra and Spain")
	}
	found := false
	for _, p := range l.Places(orb.Bound{Min: orb.Point{1.50, 42.49}, Max: orb.Point{1.54, 42.52}}) {
		if p.Name == "Andorra la Vella" {
			found = true
			t.Logf("%+v", p)
		}
	}
	if !found {
		t.Error("no Andorra la Vella")
	}
}

// TestMonacoSea: a coast the extract's box cuts on both sides.
func TestMonacoSea(t *testing.T) {
	l, rep := buildExtract(t, "monaco")
	t.Log(rep)
	tests := []struct {
		name string
		p    orb.Point
		sea  bool
	}{
		{"sea off Monte Carlo", orb.Point{7.44, 43.73}, true},
		{"sea off Cap d'Ail", orb.Point{7.41, 43.715}, true},
		{"Casino de Monte-Carlo", orb.Point{7.4283, 43.7396}, false},
		{"Monaco-Ville", orb.Point{7.4206, 43.7311}, false},
		{"La Turbie", orb.Point{7.40, 43.745}, false},
	}
	for _, tc := range tests {
		if got := inSea(rep, tc.p); got != tc.sea {
			t.Errorf("%s %v: sea %v, want %v", tc.name, tc.p, got, tc.sea)
		}
		if got := classesAt(l, tc.p, 5)[Water]; tc.sea && !got {
			t.Errorf("%s %v: no Water area", tc.name, tc.p)
		}
	}
	if l.Stats().Areas[Buildings] < 20000 {
		t.Errorf("%d buildings, want >= 20000 (23,370 building ways)", l.Stats().Areas[Buildings])
	}
}

// TestPortoRoadsOnly: the Porto extract holds roads and almost nothing
// else: no coastline, no water, 11 buildings. The sea west of the city
// is the world base layer's, so the box's Land does not cover the
// Atlantic.
func TestPortoRoadsOnly(t *testing.T) {
	l, rep := buildExtract(t, "porto_portugal")
	s := l.Stats()
	if c := rep.Coast; c.Ways == 0 || c.Ways != c.WorldWays || len(rep.Sea) == 0 {
		t.Errorf("coast %+v, %d sea polygons: want the world base layer's coast only, and a sea", rep.Coast, len(rep.Sea))
	}
	if s.Areas[Land] != 1 || s.Areas[Buildings] != 11 {
		t.Errorf("areas %v: want the Land box and 11 buildings", s.Areas)
	}
	tests := []struct {
		name string
		p    orb.Point
		sea  bool
	}{
		{"Atlantic off Foz do Douro", orb.Point{-8.75, 41.15}, true},
		{"Atlantic off Matosinhos", orb.Point{-8.76, 41.20}, true},
		{"Aliados, Porto", orb.Point{-8.6110, 41.1486}, false},
		{"Vila Nova de Gaia", orb.Point{-8.61, 41.12}, false},
	}
	for _, tc := range tests {
		if got := inSea(rep, tc.p); got != tc.sea {
			t.Errorf("%s %v: in the sea = %v, want %v", tc.name, tc.p, got, tc.sea)
		}
		if got := classesAt(l, tc.p, 20)[Water]; got != tc.sea {
			t.Errorf("%s %v: water %v, want %v", tc.name, tc.p, got, tc.sea)
		}
	}
}

// inSea reports whether p lies in the assembled sea.
func inSea(rep *Report, p orb.Point) bool {
	for _, s := range rep.Sea {
		if planar.PolygonContains(s, p) {
			return true
		}
	}
	return false
}
