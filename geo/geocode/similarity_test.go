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

// FuzzSimilarity: any two strings give a share between 0 and 1, and a
// name with a word other than stop words is fully like itself.
func FuzzSimilarity(f *testing.F) {
	tab, err := DefaultTables()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"Plugh Blvd", "Mall Blvd", "Carrer de la Unió", "1st St", "", "12th", "N Main St", "Ünïcödé Straße"} {
		f.Add(s, "Main Street")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		got := tab.Similarity(a, b)
		if got < 0 || got > 1 {
			t.Fatalf("Similarity(%q, %q) = %v", a, b, got)
		}
		want := 0.0 // a name of stop words only has nothing to match
		for _, w := range tab.Tokens(a) {
			if !tab.IsStopword(w) {
				want = 1
			}
		}
		if self := tab.Similarity(a, a); self != want {
			t.Fatalf("Similarity(%q, itself) = %v, want %v", a, self, want)
		}
	})
}
