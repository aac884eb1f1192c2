package geocode

import (
	"reflect"
	"testing"
	"unicode/utf8"
)

func TestTokens(t *testing.T) {
	tb, err := DefaultTables()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"123 N. Main Street", []string{"123", "n", "main", "st"}},
		{"123 north main st", []string{"123", "n", "main", "st"}},
		{"First Avenue", []string{"1st", "av"}},
		{"1st Ave.", []string{"1st", "av"}},
		{"Martin Luther King Jr Blvd", []string{"martin", "luther", "king", "jr", "blvd"}},
		{"Avinguda Meritxell", []string{"av", "meritxell"}},
		{"Av. Meritxell", []string{"av", "meritxell"}},
		{"C. de la Unió", []string{"c", "de", "la", "unio"}},
		{"Carrer de la Unió", []string{"c", "de", "la", "unio"}},
		{"Sant Julià de Lòria", []string{"sant", "julia", "de", "loria"}},
		{"Plaça del Col·legi", []string{"pl", "del", "collegi"}},
		{"d'Andorra", []string{"d", "andorra"}},
		{"  ", nil},
		{"ÉCOLE—Straße", []string{"ecole", "strasse"}},
	} {
		if got := tb.Tokens(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{{"12 B", "12b"}, {"12-b", "12b"}, {"42-44", "4244"}} {
		if got := NormalizeHouseNumber(tc.in); got != tc.want {
			t.Errorf("NormalizeHouseNumber(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if !tb.IsPostcode("19711") || !tb.IsPostcode("ad500") || tb.IsPostcode("1971") {
		t.Error("postcode patterns")
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		max  int
		want int
	}{
		{"main", "main", 1, 0}, {"main", "mian", 1, 1}, {"main", "man", 1, 1}, {"main", "mains", 1, 1},
		{"kirkwood", "kirkwod", 2, 1}, {"kirkwood", "krikwod", 2, 2}, {"main", "elm", 1, 2},
	} {
		if got := editDistance(tc.a, tc.b, tc.max); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestParse(t *testing.T) {
	tb, _ := DefaultTables()
	got := tb.Parse("12B Main St, Newark, DE 19711")
	want := []Word{{"12b", 0, true, false}, {"main", 0, false, false}, {"st", 0, false, false},
		{"newark", 1, false, false}, {"de", 2, false, true}, {"19711", 2, true, false}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse = %+v\nwant %+v", got, want)
	}
}

func FuzzParse(f *testing.F) {
	tb, err := DefaultTables()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"123 Main St, Newark, DE 19711", "Carrer de la Unió 13, AD500", "", ",,,", "42-44 W. 1st Ave #3", "\xff\xfe", "Col·legi"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ws := tb.Parse(s)
		if len(ws) > MaxQueryWords {
			t.Fatalf("%d words", len(ws))
		}
		for _, w := range ws {
			if w.Text == "" || !utf8.ValidString(w.Text) {
				t.Fatalf("bad word %q of %q", w.Text, s)
			}
			if w.Number != isHouseNumber(w.Text) {
				t.Fatalf("Number flag of %q", w.Text)
			}
		}
	})
}

// TestShortRoute checks US short route names: USPS suffix abbreviations,
// a leading directional abbreviated, other first words kept.
func TestShortRoute(t *testing.T) {
	tb, err := DefaultTables()
	if err != nil {
		t.Fatal(err)
	}
	ix := &Index{t: tb}
	for _, tc := range []struct{ route, cc, want string }{
		{"North Main Street", "US", "N Main St"},
		{"Rehoboth Avenue", "US", "Rehoboth Ave"},
		{"Saint Georges Bridge", "US", "Saint Georges Brg"},
		{"Old Baltimore Pike", "US", "Old Baltimore Pike"},
		{"Delaware Memorial Bridge Way", "US", "Delaware Memorial Brg Way"},
		{"Court Street", "US", "Court St"},
		{"West 4th Street", "US", "W 4th St"},
		{"Avinguda Meritxell", "AD", "Avinguda Meritxell"},
	} {
		if got := ix.shortRoute(tc.route, tc.cc); got != tc.want {
			t.Errorf("shortRoute(%q, %s) = %q, want %q", tc.route, tc.cc, got, tc.want)
		}
	}
}
