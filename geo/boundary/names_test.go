package boundary

import "testing"

// TestNamesIn: names of the Andorra extract's boundaries in other
// languages, hand-checked in the extract: Andorra's country relation
// (r9407) has name:fr=Andorre, name:ru=Андо́рра (with a stress mark),
// no name:tlh; the parish
// of Andorra la Vella (r2804753) name:ru=Андорра-ла-Велья, no name:fr.
func TestNamesIn(t *testing.T) {
	l, _ := realLayer(t, "andorra")
	parish, ok := l.AdminAt(andorraLaVella, 1)
	if !ok || parish.Name != "Andorra la Vella" {
		t.Fatalf("admin1 at Andorra la Vella: %+v", parish)
	}
	for _, tc := range []struct {
		langs         []string
		name, country string
	}{
		{nil, "Andorra la Vella", "Andorra"},
		{[]string{"ru"}, "Андорра-ла-Велья", "Андо́рра"},
		{[]string{"tlh"}, "Andorra la Vella", "Andorra"}, // neither has name:tlh: the name, CLDR's English name
		{[]string{"fr"}, "Andorra la Vella", "Andorre"},
		{[]string{"fr", "ru"}, "Андорра-ла-Велья", "Andorre"}, // the parish has no name:fr
		{[]string{"de-AT", "de"}, "Andorra la Vella", "Andorra"},
	} {
		if got := parish.NameIn(tc.langs); got != tc.name {
			t.Errorf("NameIn(%v) = %q, want %q", tc.langs, got, tc.name)
		}
		if got := l.CountryNameIn(parish, andorraLaVella, tc.langs); got != tc.country {
			t.Errorf("CountryNameIn(%v) = %q, want %q", tc.langs, got, tc.country)
		}
	}
}
