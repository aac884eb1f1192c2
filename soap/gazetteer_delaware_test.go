package soap

import (
	"os"
	"sync"
	"testing"

	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

var (
	delawareIxOnce sync.Once
	delawareIx     *geocode.Index
	delawareIxErr  error
)

// delawareIndex builds (once per test binary) the gazetteer of the
// Delaware extract as `geosvc build` does: the boundary layer, then the
// index with its admin areas.
func delawareIndex(t *testing.T) *geocode.Index {
	t.Helper()
	path := extracts.Require(t, "delaware")
	delawareIxOnce.Do(func() {
		dir, err := os.MkdirTemp("", "soap-delaware-")
		if err != nil {
			delawareIxErr = err
			return
		}
		defer os.RemoveAll(dir)
		if _, err := boundary.Build(boundary.BuildOptions{OSMPath: path, Out: dir}); err != nil {
			delawareIxErr = err
			return
		}
		bl, err := boundary.Load(dir)
		if err != nil {
			delawareIxErr = err
			return
		}
		delawareIx, delawareIxErr = geocode.Build(path, geocode.BuildOptions{Admins: geocode.BoundaryAdmins(bl)})
	})
	if delawareIxErr != nil {
		t.Fatal(delawareIxErr)
	}
	return delawareIx
}

// TestGazetteerDelaware: the gazetteer's answers on real data, for
// streets and cities that match nothing and a postcode of another town.
func TestGazetteerDelaware(t *testing.T) {
	ix := delawareIndex(t)
	f := newFixture(t, false)
	f.setGeocoder(ix)
	for _, tc := range []struct {
		name   string
		in     map[string]string
		status string
		fields map[string]string // field -> "Status names (current)"
	}{
		// No street or town of Delaware resembles these: the geocoder's
		// best guesses (Mall Blvd, Dover; I St, Penns Grove, NJ) share
		// only the street type.
		{"nonsense street and city", map[string]string{"Street": "Plugh Blvd", "City": "Xyzzyville"},
			statusNotChecked, map[string]string{"Street": "NotChecked Plugh Blvd", "City": "NotChecked Xyzzyville", "PostCode": "-"}},
		{"another", map[string]string{"Street": "Qwertyuiop Street", "City": "Nowhereville"},
			statusNotChecked, map[string]string{"Street": "NotChecked Qwertyuiop Street", "City": "NotChecked Nowhereville", "PostCode": "-"}},
		// A real city, a street that matches nothing: the city is found.
		{"nonsense street in Dover", map[string]string{"Street": "Plugh Blvd", "City": "Dover"},
			statusNotChecked, map[string]string{"Street": "NotChecked Plugh Blvd", "City": "OK Dover"}},
		// 19711 is Newark's: Dover is kept, the postcode is in conflict,
		// Dover's own (19901, the nearest postcode to its centre) offered.
		{"postcode of another town", map[string]string{"City": "Dover", "PostCode": "19711"},
			statusConflict, map[string]string{"City": "OK Dover", "PostCode": "Conflict 19901 (19711)"}},
		// A known city that is not the street's: a Conflict.
		{"street of another town", map[string]string{"Street": "Kruser Blvd", "City": "Newark"},
			statusConflict, map[string]string{"City": "Conflict Dover (Newark)", "Street": "OK Kruser Boulevard"}},
		// Typos whose town names another street (Dover St, Wilmington
		// Ave): the town is the town, the misspelt street is found in it.
		// (Dover's Loockerman Street is two streets, East and West: both
		// offered; Delaware Avenue is found with two postcodes, 19806 in
		// Wilmington and 19720 of Wilmington Manor.)
		{"typo, a town that names a street", map[string]string{"Street": "Lockerman St", "City": "Dover"},
			statusAlternatives, map[string]string{"City": "OK Dover", "Street": "Alternatives East Loockerman Street West Loockerman Street (Lockerman St)"}},
		{"typo, a town that names a street elsewhere", map[string]string{"Street": "Delawere Avenue", "City": "Wilmington"},
			statusAlternatives, map[string]string{"City": "OK Wilmington", "Street": "Completed Delaware Avenue (Delawere Avenue)", "PostCode": "Alternatives 19806 19720"}},
		// A typo still matches, and is corrected.
		{"typo", map[string]string{"Street": "Rehobth Avenue", "City": "Rehoboth Beach"},
			statusCompleted, map[string]string{"City": "OK Rehoboth Beach", "Street": "Completed Rehoboth Avenue (Rehobth Avenue)", "PostCode": "Completed 19971"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post("text/xml", envelope11(gazetteerSimple(f.key, tc.in)))
			loc := gazetteerResult(t, rec.Body.String())
			got := map[string]*locationField{"Country": loc.Country, "State": loc.State, "PostCode": loc.PostCode, "City": loc.City, "Street": loc.Street, "Premise": loc.Premise}
			if loc.Status != tc.status {
				t.Errorf("Status %s, want %s: %s", loc.Status, tc.status, rec.Body)
			}
			for k, want := range tc.fields {
				if g := fieldStatus(got[k]); g != want {
					t.Errorf("%s: %q, want %q", k, g, want)
				}
			}
		})
	}
}
