package geocode

import "testing"

func TestSimilarity(t *testing.T) {
	tab, err := DefaultTables()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		given, other string
		want         float64
	}{
		{"Plugh Blvd", "Mall Blvd", 0},              // only the street type in common
		{"Qwertyuiop Street", "I St", 0},            // likewise
		{"Xyzzyville", "Dover", 0},                  // nothing
		{"Loockerman St", "E Loockerman Street", 1}, // St = Street, E left aside
		{"Loockrman Street", "E Loockerman St", 1},  // one edit on a long word
		{"Dovr", "Dover", 1},                        // one edit on 4 letters
		{"Dvr", "Dover", 0},                         // too short for a typo
		{"Main St", "Main Street", 1},
		{"N Main St", "South Main Street", 1}, // the directional is not distinctive
		{"1st St", "1st Avenue", 0.5},         // no distinctive word: all count
		{"12th St", "13th St", 0.5},           // numbers are never fuzzy
		{"Carrer de la Unió", "Carrer Unio", 1},
		{"Market Street Mall", "Market St", 0.5},
		{"", "Dover", 0},
	} {
		if got := tab.Similarity(tc.given, tc.other); got != tc.want {
			t.Errorf("Similarity(%q, %q) = %v, want %v", tc.given, tc.other, got, tc.want)
		}
	}
}
