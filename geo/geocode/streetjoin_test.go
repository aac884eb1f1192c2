package geocode

import "testing"

// TestStreetsJoined: the ways of one street in one place are one street
// feature, not one per unconnected piece.
func TestStreetsJoined(t *testing.T) {
	ix := testIndex(t, delaware)
	for _, tc := range []struct{ street, town string }{
		{"West Main Street", "Newark"},
		{"South Main Street", "Newark"},
		{"Kings Highway", "Dover"},
		{"North Market Street", "Wilmington"},
	} {
		t.Run(tc.street+", "+tc.town, func(t *testing.T) {
			var ids []string
			for i := range ix.feats {
				f := &ix.feats[i]
				if f.kind == KindStreet && Fold(ix.str(f.name)) == Fold(tc.street) && Fold(ix.str(ix.ctx(f).locality)) == Fold(tc.town) {
					ids = append(ids, ix.placeID(f, 0))
				}
			}
			if len(ids) != 1 {
				t.Errorf("%d street features: %v", len(ids), ids)
			}
		})
	}
}
