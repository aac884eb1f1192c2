package zip4

import (
	"math"
	"sort"
	"strconv"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
)

func TestDelawareLayerSize(t *testing.T) {
	src, _, rep, l := delawareLayer(t)
	// Every ZIP5 the TIGER tags name. The Delaware extract has 110
	// distinct tiger:zip_left/right values, but 12 of them are lists
	// ("19703:19802") and one is not a ZIP ("MD 367"): they name 97
	// distinct ZIP5s, and every one must have features.
	tagged := map[string]bool{}
	for _, r := range src.Roads {
		for _, v := range []string{r.ZipLeft, r.ZipRight} {
			for _, z := range ParseTigerZips(v) {
				tagged[z] = true
			}
		}
	}
	if len(tagged) != 97 {
		t.Errorf("%d distinct TIGER ZIP5s, want 97", len(tagged))
	}
	have := map[string]bool{}
	for i := 0; i < l.Len(); i++ {
		have[l.Zip9(i)[:5]] = true
	}
	for z := range tagged {
		if !have[z] {
			t.Errorf("ZIP5 %s of the TIGER tags has no feature", z)
		}
	}
	// The counts of the derivation, as measured on this extract: a drift
	// of more than a few percent means the face or polygon rules changed.
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"TIGER-tagged streets", rep.TigerRoads, 15895},
		{"block faces", rep.Faces, 35487},
		{"features", rep.Features, 66326},
	} {
		if math.Abs(float64(c.got-c.want)) > 0.03*float64(c.want) {
			t.Errorf("%s = %d, want about %d", c.name, c.got, c.want)
		}
	}
	if lost := rep.Degenerate + rep.Invalid + rep.Overflow; lost > rep.Sides/100 {
		t.Errorf("%d of %d sides dropped (%s)", lost, rep.Sides, rep)
	}
	if rep.Features != l.Len() || rep.ZIP5s != 97 {
		t.Errorf("report %s, layer %d features", rep, l.Len())
	}
}

func TestDelawareRepresentativePoints(t *testing.T) {
	_, features, _, l := delawareLayer(t)
	var ids []int
	shared := 0
	for i := range features {
		ids = l.At(ids[:0], features[i].Rep)
		if !containsInt(ids, i) {
			t.Errorf("%s (%s): representative point %v not inside its own area", features[i].UID, features[i].Zip9, features[i].Rep)
		}
		if len(ids) > 1 {
			shared++
		}
	}
	// The polygons partition the street sides: overlaps are slivers (34
	// representative points of 66,326 are in a second polygon).
	if shared > len(features)/500 {
		t.Errorf("%d of %d representative points are in more than one feature", shared, len(features))
	}
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestDelawareSides looks 15 m off the middle of a long segment of real
// TIGER streets whose two sides are in different ZIP5s: left of the way's
// direction must be tiger:zip_left, right tiger:zip_right.
func TestDelawareSides(t *testing.T) {
	src, _, _, l := delawareLayer(t)
	roads := map[int64]*Road{}
	for i := range src.Roads {
		roads[src.Roads[i].ID] = &src.Roads[i]
	}
	for _, tc := range []struct {
		way         int64
		name        string
		seg         int // the segment from point seg-1 to point seg
		left, right string
	}{
		{14241530, "Chandler Mill Road", 18, "19348", "19311"},
		{17212666, "Dan Briar Lane", 1, "19934", "19943"},
		{17213371, "Frazier Street", 1, "19955", "19938"},
		{17222706, "Thomas Landing Road", 2, "19709", "19734"},
		{17224768, "Harvey Straughn Road", 1, "19938", "19734"},
		{17238213, "Heronwood Lane", 3, "19968", "19958"},
	} {
		r := roads[tc.way]
		if r == nil {
			t.Errorf("way %d not read", tc.way)
			continue
		}
		if r.Name != tc.name || r.ZipLeft != tc.left || r.ZipRight != tc.right {
			t.Errorf("way %d: %q %s/%s, want %q %s/%s", tc.way, r.Name, r.ZipLeft, r.ZipRight, tc.name, tc.left, tc.right)
			continue
		}
		a, b := r.Points[tc.seg-1], r.Points[tc.seg]
		lp := geo.NewLocalProjection(a[1])
		ax, ay := lp.XY(a)
		bx, by := lp.XY(b)
		d := math.Hypot(bx-ax, by-ay)
		mx, my := (ax+bx)/2, (ay+by)/2
		nx, ny := -(by-ay)/d, (bx-ax)/d // left normal
		for _, side := range []struct {
			sign float64
			zip  string
			name string
		}{{1, tc.left, SideLeft}, {-1, tc.right, SideRight}} {
			p := lp.Point(mx+15*side.sign*nx, my+15*side.sign*ny)
			ids := l.At(nil, p)
			if len(ids) != 1 {
				t.Errorf("%s %s side %v: %d features", tc.name, side.name, p, len(ids))
				continue
			}
			f := l.Feature(ids[0])
			if f.Zip() != side.zip || f.Street != tc.name || f.Side != side.name {
				t.Errorf("%s %s side %v: %s %q %s, want ZIP5 %s", tc.name, side.name, p, f.Zip9, f.Street, f.Side, side.zip)
			}
		}
	}
}

func TestDelawarePlus4(t *testing.T) {
	_, features, rep, _ := delawareLayer(t)
	sequential := map[string]bool{}
	for _, z := range rep.SequentialZips {
		sequential[z] = true
	}
	seen := map[string]string{}
	for _, f := range features {
		if !ValidZip9(f.Zip9) || f.Zip9[5:] == "0000" {
			t.Fatalf("%s: bad zip9 %q", f.UID, f.Zip9)
		}
		if u, dup := seen[f.Zip9]; dup {
			t.Fatalf("zip9 %s given to %s and %s", f.Zip9, u, f.UID)
		}
		seen[f.Zip9] = f.UID
		add, _ := strconv.Atoi(f.Zip9[5:])
		if !sequential[f.Zip()] && (f.Side == SideLeft) != (add%2 == 1) {
			t.Errorf("%s: %s side has add-on %04d", f.UID, f.Side, add)
		}
	}
}

// TestDelawareDeterministic derives the layer a second time, on another
// number of goroutines, and wants the very same codes and polygons.
func TestDelawareDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("derives Delaware twice")
	}
	src, features, _, _ := delawareLayer(t)
	again, _ := Derive(src.Roads, Options{Workers: 1})
	if len(again) != len(features) {
		t.Fatalf("%d features, then %d", len(features), len(again))
	}
	for i := range features {
		a, b := &features[i], &again[i]
		if a.UID != b.UID || a.Zip9 != b.Zip9 || a.Rep != b.Rep || !orb.Equal(a.Geometry, b.Geometry) {
			t.Fatalf("feature %d: %s %s, then %s %s", i, a.UID, a.Zip9, b.UID, b.Zip9)
		}
	}
}

func TestDelawareFileRoundTrip(t *testing.T) {
	_, features, _, l := delawareLayer(t)
	dir := t.TempDir()
	if err := l.WriteFile(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.Len() != len(features) || got.Meta().Source != SourceDerived || !got.Meta().Derived || got.Meta().Report == nil {
		t.Fatalf("loaded %d features, meta %+v", got.Len(), got.Meta())
	}
	for i := 0; i < len(features); i += 97 {
		want := features[i]
		f := got.Feature(i)
		if f.UID != want.UID || f.Zip9 != want.Zip9 || f.Street != want.Street || f.Side != want.Side ||
			f.Rep != want.Rep || !orb.Equal(f.Geometry, want.Geometry) {
			t.Fatalf("feature %d: %+v, want %+v", i, f.UID, want.UID)
		}
		ids := got.ByZip9(want.Zip9)
		if len(ids) != 1 || ids[0] != i {
			t.Errorf("ByZip9(%s) = %v, want [%d]", want.Zip9, ids, i)
		}
		if a, b := got.At(nil, want.Rep), l.At(nil, want.Rep); !equalInts(a, b) {
			t.Errorf("At(%v): loaded %v, built %v", want.Rep, a, b)
		}
	}
	if ids := got.ByZip9("199019999"); len(ids) != 0 {
		t.Errorf("unknown code found %v", ids)
	}
}

func equalInts(a, b []int) bool {
	sort.Ints(a)
	sort.Ints(b)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
