package soap

import (
	"strings"
	"testing"
)

// TestGazetteerLanguage: GazetteerSimple's Language on the Delaware
// extract, whose Dover place node has name:ru=Довер and no name:de, and
// whose Delaware state node name:ru=Делавэр. Fields are checked against
// the default names (the given Dover is OK), then named in the language.
func TestGazetteerLanguage(t *testing.T) {
	ix := delawareIndex(t)
	f := newFixture(t, false)
	f.setGeocoder(ix)
	for _, tc := range []struct {
		name   string
		in     map[string]string
		fields map[string]string
		inName string // in the location's Name
	}{
		{"ru", map[string]string{"City": "Dover", "State": "DE", "Language": "ru"},
			map[string]string{"City": "OK Довер", "State": "OK Делавэр"}, "Довер"},
		{"a language the data lacks", map[string]string{"City": "Dover", "State": "DE", "Language": "de"},
			map[string]string{"City": "OK Dover", "State": "OK Delaware"}, "Dover"},
		{"none", map[string]string{"City": "Dover", "State": "DE"},
			map[string]string{"City": "OK Dover"}, "Dover"},
		{"a name not found stays as given", map[string]string{"Street": "Plugh Blvd", "City": "Dover", "Language": "ru"},
			map[string]string{"Street": "NotChecked Plugh Blvd", "City": "OK Довер"}, "Довер"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post("text/xml", envelope11(gazetteerSimple(f.key, tc.in)))
			loc := gazetteerResult(t, rec.Body.String())
			got := map[string]*locationField{"State": loc.State, "City": loc.City, "Street": loc.Street}
			for k, want := range tc.fields {
				if g := fieldStatus(got[k]); g != want {
					t.Errorf("%s: %q, want %q", k, g, want)
				}
			}
			if !strings.Contains(loc.Name, tc.inName) {
				t.Errorf("Name %q lacks %q", loc.Name, tc.inName)
			}
		})
	}
	rec := f.post("text/xml", envelope11(gazetteerSimple(f.key, map[string]string{"City": "Dover", "Language": "e"})))
	if b := rec.Body.String(); rec.Code != 500 || !strings.Contains(b, "Language") || !strings.Contains(b, "Client") {
		t.Errorf("Language e: %d %s", rec.Code, b)
	}
}
