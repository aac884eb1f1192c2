package geocode

import (
	"strings"
	"testing"

	"github.com/paulmach/orb"
)

// TestResultsKeepTheBestMatchWords: a result that leaves out a word the
// best result matched is not listed ("Main St, Newark" gives Newark's Main
// Streets, not New Jersey's; "100 E Main St, Newark" not E Main St in
// Felton).
func TestResultsKeepTheBestMatchWords(t *testing.T) {
	de := testIndex(t, delaware)
	for _, tc := range []struct {
		query, locality string
		min             int
	}{
		{"Main St, Newark", "Newark", 3},
		{"100 E Main St, Newark, DE 19711", "Newark", 1},
		{"Market Street, Wilmington", "Wilmington", 1},
	} {
		t.Run(tc.query, func(t *testing.T) {
			cs := de.Forward(Query{Text: tc.query})
			if len(cs) < tc.min {
				t.Fatalf("%d results, want at least %d", len(cs), tc.min)
			}
			for _, c := range cs {
				if l, _ := c.Component("locality"); l != tc.locality {
					t.Errorf("result %q is not in %s", c.FormattedAddress, tc.locality)
				}
			}
		})
	}
}

// TestBoundsBias: bounds around Newark put Newark's Main Streets first
// for "Main St", though streets named exactly "Main St" lie elsewhere;
// without bounds those come first.
func TestBoundsBias(t *testing.T) {
	de := testIndex(t, delaware)
	newark := orb.Bound{Min: orb.Point{-75.77, 39.67}, Max: orb.Point{-75.73, 39.69}}
	cs := de.Forward(Query{Text: "Main St", Bounds: &newark})
	if len(cs) == 0 || !newark.Contains(cs[0].Location) {
		t.Fatalf("with bounds: %+v", cs)
	}
	if l, _ := cs[0].Component("locality"); l != "Newark" {
		t.Errorf("with bounds, first result %q", cs[0].FormattedAddress)
	}
	if cs := de.Forward(Query{Text: "Main St"}); len(cs) == 0 || newark.Contains(cs[0].Location) {
		t.Errorf("without bounds, first result %+v", cs)
	}
}

// TestTownAfterTheComma: a word after the first comma is the town, not
// the name of a street elsewhere: a misspelt street with its town finds
// that street there ("Lockerman St, Dover" is Loockerman Street in Dover,
// not Dover St; "Delawere Avenue, Wilmington" Delaware Avenue there, not
// Wilmington Avenue in Delaware City; "Main Stret, Newark" Newark's Main
// Streets, not the town). The expected streets are Delaware's own.
func TestTownAfterTheComma(t *testing.T) {
	de := testIndex(t, delaware)
	for _, tc := range []struct {
		query, route, locality string
	}{
		{"Lockerman St, Dover", "Loockerman St", "Dover"},
		{"Loockerman St, Dover", "Loockerman St", "Dover"},
		{"Delawere Avenue, Wilmington", "Delaware Ave", "Wilmington"},
		{"Main Stret, Newark", "Main St", "Newark"},
		{"Dover St, Dover", "Dover St", "Dover"},
		{"Wilmington Ave, Wilmington", "Wilmington Ave", "Wilmington"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			cs := de.Forward(Query{Text: tc.query})
			if len(cs) == 0 {
				t.Fatal("no result")
			}
			l, _ := cs[0].Component("locality")
			if !strings.Contains(cs[0].FormattedAddress, tc.route+", ") || l != tc.locality {
				t.Errorf("first result %q (locality %q), want %s in %s", cs[0].FormattedAddress, l, tc.route, tc.locality)
			}
		})
	}
}
