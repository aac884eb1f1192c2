package geocode

import (
	"testing"

	"github.com/paulmach/orb"
)

// TestLangNames checks answers in other languages against name:xx tags
// read by hand in the extracts: Dover's place node (n158576812) has
// name:ru=Довер and name:lt=Doveris, no name:de; Odessa's (n158355014)
// name:uk=Одеса; Andorra's Pas de la Casa (n64954437) name:fr=Pas de la
// case; the café Dolç i Salat (n4422294893) name:es=Dulce y Salado; the
// road Carretera Sant Cristofol (w32845063) name:es=carretera San
// Cristóbal.
func TestLangNames(t *testing.T) {
	de := testIndex(t, delaware)
	ad := testIndex(t, andorra)
	for _, tc := range []struct {
		ix    *Index
		query string
		lang  []string
		id    string // place id of the first result
		name  string // its name (first component) in lang
	}{
		{de, "Dover, DE", []string{"ru"}, "n158576812", "Довер"},
		{de, "Dover, DE", []string{"lt"}, "n158576812", "Doveris"},
		{de, "Dover, DE", []string{"de"}, "n158576812", "Dover"},       // no name:de: the name
		{de, "Dover, DE", []string{"de", "ru"}, "n158576812", "Довер"}, // the first language it has
		{de, "Odessa, DE", []string{"uk"}, "n158355014", "Одеса"},
		{de, "Odessa, DE", []string{"fr"}, "n158355014", "Odessa"},
		{ad, "Pas de la Casa, Andorra", []string{"fr"}, "n64954437", "Pas de la case"},
		{ad, "Dolç i Salat", []string{"es"}, "en4422294893", "Dulce y Salado"},
		{ad, "Dolç i Salat", nil, "en4422294893", "Dolç i Salat"},
		// Found by a name in another language, named in the default.
		{de, "Довер", nil, "n158576812", "Dover"},
		{ad, "Dulce y Salado", nil, "en4422294893", "Dolç i Salat"},
		{ad, "Dulce y Salado", []string{"es"}, "en4422294893", "Dulce y Salado"},
		{ad, "carretera San Cristóbal", []string{"es"}, "w32845063", "carretera San Cristóbal"},
		{ad, "Carretera Sant Cristofol", []string{"ca"}, "w32845063", "Carretera Sant Cristofol"},
	} {
		t.Run(tc.query+" "+join(tc.lang), func(t *testing.T) {
			cs := tc.ix.Forward(Query{Text: tc.query, Lang: tc.lang})
			if len(cs) == 0 {
				t.Fatal("no result")
			}
			if c := cs[0]; c.PlaceID != tc.id || candName(&c) != tc.name {
				t.Errorf("first %s %q (%q), want %s %q", c.PlaceID, candName(&c), c.FormattedAddress, tc.id, tc.name)
			}
		})
	}
	// A street in Dover named in Russian by reverse geocoding: its
	// locality is Dover's name:ru.
	cs := de.Reverse(orb.Point{-75.52437, 39.15817}, ReverseOptions{Lang: []string{"ru"}})
	if len(cs) == 0 {
		t.Fatal("reverse: no result at Dover")
	}
	if l, _ := cs[0].Component("locality"); l != "Довер" {
		t.Errorf("reverse at Dover in ru: locality %q (%q), want Довер", l, cs[0].FormattedAddress)
	}
	// Autocomplete in French: Pas de la Casa's node by its name:fr, in
	// Andorra, whose country node (n148874198) has name:fr=Andorre.
	found := false
	for _, c := range ad.Autocomplete(Query{Text: "Pas de la C", Lang: []string{"fr"}}) {
		if c.PlaceID == "n64954437" {
			found = true
			if l, _ := c.Component("country"); candName(&c) != "Pas de la case" || l != "Andorre" {
				t.Errorf("autocomplete in fr: %q", c.FormattedAddress)
			}
		}
	}
	if !found {
		t.Error("autocomplete in fr: no n64954437")
	}
}

func join(s []string) string {
	out := ""
	for _, x := range s {
		out += x + ","
	}
	return out
}

func TestIsLangKey(t *testing.T) {
	for k, want := range map[string]bool{
		"de": true, "fr": true, "zh-Hant": true, "be-tarask": true, "sr-Latn": true, "ast": true,
		"source": false, "left": false, "short": false, "abbreviation": false, "old": false, "": false,
		"d": false, "DE": false, "de-": false, "de-x": false, "backward": false, "en-toolongsubtag": false,
	} {
		if got := isLangKey(k); got != want {
			t.Errorf("isLangKey(%q) = %v, want %v", k, got, want)
		}
	}
}

func FuzzIsLangKey(f *testing.F) {
	for _, s := range []string{"de", "zh-Hant", "be-tarask", "source", "", "-", "a-b-c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, k string) {
		if isLangKey(k) && (len(k) < 2 || k[0] < 'a' || k[0] > 'z') {
			t.Errorf("isLangKey(%q) accepted", k)
		}
	})
}
