package geocode

import (
	"testing"

	"github.com/paulmach/orb"
)

// TestAdminPlaceViewport: a state's viewport spans the state, not the
// small box around its place node.
func TestAdminPlaceViewport(t *testing.T) {
	de := testIndex(t, delaware)
	wilmington, rehoboth := orb.Point{-75.5464, 39.7459}, orb.Point{-75.0760, 38.7209}
	for _, tc := range []struct {
		name string
		get  func() []Candidate
		typ  string
	}{
		{"forward Delaware", func() []Candidate { return de.Forward(Query{Text: "Delaware"}) }, "administrative_area_level_1"},
		{"reverse Wilmington", func() []Candidate { return de.Reverse(wilmington, ReverseOptions{}) }, "administrative_area_level_1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range tc.get() {
				if !c.HasType(tc.typ) {
					continue
				}
				for _, p := range []orb.Point{wilmington, rehoboth} {
					if !c.Viewport.Contains(p) {
						t.Errorf("viewport %v lacks %v", c.Viewport, p)
					}
				}
				return
			}
			t.Fatalf("no %s result", tc.typ)
		})
	}
}
