package api

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/geo/geocode"
)

// autocompleteGet serves GET /geocoderv1/autocomplete with q and the
// Accept-Language header al ("" for none).
func autocompleteGet(t *testing.T, path string, q url.Values, al string) (int, geocodeResponse) {
	t.Helper()
	e := geocoderServer(t, true)
	req := httptest.NewRequest(http.MethodGet, path+"?"+q.Encode(), nil)
	if al != "" {
		req.Header.Set("Accept-Language", al)
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	var r geocodeResponse
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		t.Fatalf("%s: %v: %s", path, err, rec.Body)
	}
	return rec.Code, r
}

// TestAutocompleteEndpoint runs the endpoint on the fixture
// geo/geocode/testdata/tiny.osm, whose town node Testville carries
// name:de=Prüfstadt and name:fr=Villetest.
func TestAutocompleteEndpoint(t *testing.T) {
	const path = "/geocoderv1/autocomplete"
	for _, tc := range []struct {
		name  string
		q     url.Values
		al    string
		first string // formatted address of the first result
	}{
		{"prefix", url.Values{"text": {"Testv"}}, "", "Testville, DE, USA"},
		{"prefix, street layer", url.Values{"text": {"north main st"}, "layers": {"street"}}, "", "N Main St, Testville, DE 19901, USA"},
		{"lang", url.Values{"text": {"Testv"}, "lang": {"de"}}, "", "Prüfstadt, DE, USA"},
		{"lang with region", url.Values{"text": {"Testv"}, "lang": {"de-CH"}}, "", "Prüfstadt, DE, USA"},
		{"Accept-Language", url.Values{"text": {"Testv"}}, "es;q=0.9, fr;q=0.8", "Villetest, DE, USA"},
		{"lang over Accept-Language", url.Values{"text": {"Testv"}, "lang": {"de"}}, "fr", "Prüfstadt, DE, USA"},
		{"empty lang: Accept-Language", url.Values{"text": {"Testv"}, "lang": {""}}, "fr", "Villetest, DE, USA"},
		{"empty lang: default names", url.Values{"text": {"Testv"}, "lang": {""}}, "", "Testville, DE, USA"},
		{"a language the data lacks", url.Values{"text": {"Testv"}, "lang": {"ja"}}, "", "Testville, DE, USA"},
		{"found by name:de", url.Values{"text": {"Prüfst"}}, "", "Testville, DE, USA"},
		{"focus and limit", url.Values{"text": {"Testv"}, "focus": {"-75.499,39.001"}, "limit": {"20"}}, "", "Testville, DE, USA"},
		{"bounds restrict", url.Values{"text": {"Testv"}, "bounds": {"38.99,-75.51|39.02,-75.49"}, "bounds_mode": {"restrict"}}, "", "Testville, DE, USA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, r := autocompleteGet(t, path, tc.q, tc.al)
			if code != http.StatusOK || r.Status != geocodeOK || len(r.Results) == 0 {
				t.Fatalf("%d %s %s", code, r.Status, r.ErrorMessage)
			}
			if got := r.Results[0].FormattedAddress; got != tc.first {
				t.Errorf("first %q, want %q", got, tc.first)
			}
		})
	}
	// A box far from Testville restricts everything away; as a bias it
	// does not.
	far := url.Values{"text": {"Testv"}, "bounds": {"10,10|11,11"}}
	if _, r := autocompleteGet(t, path, far, ""); len(r.Results) == 0 {
		t.Error("bounds bias: no result")
	}
	far.Set("bounds_mode", "restrict")
	if _, r := autocompleteGet(t, path, far, ""); r.Status != geocodeZeroResults {
		t.Errorf("bounds restrict: %s, %d results", r.Status, len(r.Results))
	}
	// The geocoder too.
	if _, r := autocompleteGet(t, "/geocoderv1/geocoder", url.Values{"address": {"Testville"}, "bounds": {"10,10|11,11"}, "bounds_mode": {"restrict"}}, ""); r.Status != geocodeZeroResults {
		t.Errorf("geocoder bounds restrict: %s", r.Status)
	}
	if _, r := autocompleteGet(t, "/geocoderv1/geocoder", url.Values{"address": {"Testville"}, "lang": {"fr"}}, ""); len(r.Results) == 0 || r.Results[0].FormattedAddress != "Villetest, DE, USA" {
		t.Errorf("geocoder lang=fr: %+v", r)
	}
	if _, r := autocompleteGet(t, "/geocoderv1/rev-geocoder", url.Values{"x": {"-75.4998"}, "y": {"39.00019"}}, "de"); len(r.Results) == 0 || !strings.Contains(r.Results[0].FormattedAddress, "Prüfstadt") {
		t.Errorf("rev-geocoder Accept-Language de: %+v", r.Results)
	}
	if _, r := autocompleteGet(t, "/geocoderv1/geocoder", url.Values{"address": {"Testville"}, "lang": {""}}, "de"); len(r.Results) == 0 || r.Results[0].FormattedAddress != "Prüfstadt, DE, USA" {
		t.Errorf("geocoder empty lang with Accept-Language de: %+v", r)
	}
}

// TestAutocompleteBadInput: 400 INVALID_REQUEST naming the parameter
// (the geocoder's own new parameters: INVALID_REQUEST on a 200).
func TestAutocompleteBadInput(t *testing.T) {
	for _, tc := range []struct {
		path string
		q    url.Values
		code int
		want string
	}{
		{"/geocoderv1/autocomplete", url.Values{}, 400, "text is required"},
		{"/geocoderv1/autocomplete", url.Values{"text": {"  "}}, 400, "text is required"},
		{"/geocoderv1/autocomplete", url.Values{"text": {strings.Repeat("a", 1025)}}, 400, "text longer than"},
		{"/geocoderv1/autocomplete", url.Values{"text": {"a"}, "focus": {"200,10"}}, 400, "focus out of range"},
		{"/geocoderv1/autocomplete", url.Values{"text": {"a"}, "focus": {"10,-91"}}, 400, "focus out of range"},
		{"/geocoderv1/autocomplete", url.Values{"text": {"a"}, "focus": {"10"}}, 400, "focus must be lon,lat"},
		{"/geocoderv1/autocomplete", url.Values{"text": {"a"}, "focus": {"0x1,2"}}, 400, "focus must be lon,lat"},
		{"/geocoderv1/autocomplete", url.Values{"text": {"a"}, "limit": {"21"}}, 400, "limit must be an integer from 1 to 20"},
		{"/geocoderv1/autocomplete", url.Values{"text": {"a"}, "limit": {"0"}}, 400, "limit must be"},
		{"/geocoderv1/autocomplete", url.Values{"text": {"a"}, "layers": {"street,building"}}, 400, `layers: unknown layer "building"`},
		{"/geocoderv1/autocomplete", url.Values{"text": {"a"}, "lang": {"de_DE!"}}, 400, "lang must be BCP 47"},
		{"/geocoderv1/autocomplete", url.Values{"text": {"a"}, "lang": {","}}, 400, "lang must be BCP 47"},
		{"/geocoderv1/autocomplete", url.Values{"text": {"a"}, "lang": {"fr0"}}, 400, "lang must be BCP 47"},
		{"/geocoderv1/autocomplete", url.Values{"text": {"a"}, "bounds_mode": {"strict"}}, 400, "bounds_mode must be bias or restrict"},
		{"/geocoderv1/autocomplete", url.Values{"text": {"a"}, "bounds_mode": {"restrict"}}, 400, "bounds_mode=restrict needs bounds"},
		{"/geocoderv1/autocomplete", url.Values{"text": {"a"}, "bounds": {"1,2"}}, 400, "bounds must be"},
		{"/geocoderv1/geocoder", url.Values{"address": {"a"}, "lang": {"e"}}, 200, "lang must be BCP 47"},
		{"/geocoderv1/geocoder", url.Values{"address": {"a"}, "bounds_mode": {"x"}}, 200, "bounds_mode must be"},
		{"/geocoderv1/rev-geocoder", url.Values{"x": {"-75.5"}, "y": {"39"}, "lang": {"-"}}, 200, "lang must be BCP 47"},
	} {
		t.Run(tc.path+"?"+tc.q.Encode(), func(t *testing.T) {
			code, r := autocompleteGet(t, tc.path, tc.q, "")
			if code != tc.code || r.Status != geocodeInvalidRequest || !strings.Contains(r.ErrorMessage, tc.want) {
				t.Errorf("%d %s %q, want %d INVALID_REQUEST %q", code, r.Status, r.ErrorMessage, tc.code, tc.want)
			}
		})
	}
	// A malformed Accept-Language is ignored, not refused.
	if code, r := autocompleteGet(t, "/geocoderv1/autocomplete", url.Values{"text": {"Testv"}}, ";;q=x,,"); code != 200 || r.Status != geocodeOK {
		t.Errorf("malformed Accept-Language: %d %s", code, r.Status)
	}
}

func TestParseLang(t *testing.T) {
	for _, tc := range []struct {
		lang    string
		present bool
		al      string
		want    string
	}{
		{"de", true, "", "de"},
		{"zh-Hant-TW", true, "", "zh-Hant-TW,zh-Hant,zh"},
		{"de-CH, fr", true, "", "de-CH,de,fr"},
		{"", false, "fr-CA;q=0.8, es", "es,fr-CA,fr"},
		{"", false, "*", ""},
		{"ca", true, "es", "ca"},
	} {
		got, msg := parseLang(tc.lang, tc.present, tc.al)
		if msg != "" || strings.Join(got, ",") != tc.want {
			t.Errorf("parseLang(%q, %v, %q) = %q %q, want %q", tc.lang, tc.present, tc.al, got, msg, tc.want)
		}
	}
}

func FuzzParseLang(f *testing.F) {
	for _, s := range []string{"de", "zh-Hant-TW", "de-CH, fr", "", "*", "x-private", "en-US-u-ca-buddhist"} {
		f.Add(s, "fr;q=0.5")
	}
	f.Fuzz(func(t *testing.T, lang, al string) {
		keys, msg := parseLang(lang, true, al)
		if msg != "" && keys != nil {
			t.Errorf("parseLang(%q): keys %q with message %q", lang, keys, msg)
		}
		if msg != "" && !strings.HasPrefix(msg, "lang") {
			t.Errorf("parseLang(%q): message %q does not name lang", lang, msg)
		}
		_, _ = parseLang("", false, al)
	})
}

func FuzzParseAutocomplete(f *testing.F) {
	for _, s := range []string{"text=Dov&focus=-75.5,39.1&limit=20&layers=street,place&lang=fr&bounds=38,-76|40,-75&bounds_mode=restrict", "text=", "focus=1e9,1", "limit=-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		query, msg := parseAutocomplete(q, "")
		if msg != "" {
			return
		}
		if query.Text == "" || query.Limit < 1 || query.Limit > geocode.MaxAutocompleteLimit {
			t.Errorf("%q: accepted text %q limit %d", raw, query.Text, query.Limit)
		}
		if p := query.Focus; p != nil && (math.Abs(p[0]) > 180 || math.Abs(p[1]) > 90 || math.IsNaN(p[0]) || math.IsNaN(p[1])) {
			t.Errorf("%q: accepted focus %v", raw, *p)
		}
		if query.BoundsRestrict && query.Bounds == nil {
			t.Errorf("%q: restrict without bounds", raw)
		}
	})
}
