package api

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/geocode"
)

var (
	tinyGeocodeOnce sync.Once
	tinyGeocode     *geocode.Index
	tinyGeocodeErr  error
)

// geocoderServer serves the geocoder endpoints on the fixture of
// geo/geocode (no key check: the group is unauthenticated here).
func geocoderServer(t testing.TB, loaded bool) *echo.Echo {
	t.Helper()
	tinyGeocodeOnce.Do(func() {
		tinyGeocode, tinyGeocodeErr = geocode.Build(filepath.Join("..", "geo", "geocode", "testdata", "tiny.osm"), geocode.BuildOptions{})
	})
	if tinyGeocodeErr != nil {
		t.Fatal(tinyGeocodeErr)
	}
	// The server's error handler and panic recovery, without its key check.
	s := &Server{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	e := echo.New()
	e.HTTPErrorHandler = s.handleError
	e.Use(s.recoverPanic)
	cur := &bundle.Current{}
	if loaded {
		cur.Store(&bundle.Bundle{Geocoder: tinyGeocode})
	}
	RegisterGeocoder(e.Group(""), GeocoderOptions{Bundle: cur})
	return e
}

func getGeocoder(e *echo.Echo, path string, q url.Values) (int, string, string) {
	req := httptest.NewRequest(http.MethodGet, path+"?"+q.Encode(), nil)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec.Code, rec.Header().Get(echo.HeaderContentType), rec.Body.String()
}

func TestGeocoderForward(t *testing.T) {
	e := geocoderServer(t, true)
	for _, tc := range []struct {
		name   string
		q      url.Values
		code   int
		status string
		first  string
	}{
		{"address", url.Values{"address": {"10 North Main Street, Testville, DE"}}, 200, geocodeOK, "10 N Main St, Testville, DE 19901, USA"},
		{"json explicit", url.Values{"address": {"testville"}, "format": {"JSON"}}, 200, geocodeOK, "Testville, DE, USA"},
		{"missing address", url.Values{}, 200, geocodeInvalidRequest, ""},
		{"blank address", url.Values{"address": {"  "}}, 200, geocodeInvalidRequest, ""},
		{"too long", url.Values{"address": {strings.Repeat("main ", 300)}}, 200, geocodeInvalidRequest, ""},
		{"1024 characters of 2 bytes", url.Values{"address": {strings.Repeat("é", 1024)}}, 200, geocodeZeroResults, ""},
		{"1025 characters", url.Values{"address": {strings.Repeat("é", 1025)}}, 200, geocodeInvalidRequest, ""},
		{"address and components of 1024 each", url.Values{"address": {strings.Repeat("q", 1024)}, "components": {"route:" + strings.Repeat("q", 1018)}}, 200, geocodeZeroResults, ""},
		{"components of 1025 characters", url.Values{"components": {"route:" + strings.Repeat("q", 1019)}}, 200, geocodeInvalidRequest, ""},
		{"bad format", url.Values{"address": {"x"}, "format": {"csv"}}, 200, geocodeInvalidRequest, ""},
		{"empty format", url.Values{"address": {"main"}, "format": {""}}, 200, geocodeInvalidRequest, ""},
		{"blank format", url.Values{"address": {"main"}, "format": {" "}}, 200, geocodeInvalidRequest, ""},
		{"no match", url.Values{"address": {"qqqq zzzz"}}, 200, geocodeZeroResults, ""},
		{"bad bounds", url.Values{"address": {"main"}, "bounds": {"1,2"}}, 200, geocodeInvalidRequest, ""},
		{"bad components", url.Values{"address": {"main"}, "components": {"planet:earth"}}, 200, geocodeInvalidRequest, ""},
		{"components filter", url.Values{"address": {"10 main st"}, "components": {"postal_code:19901|country:US"}}, 200, geocodeOK, "10 N Main St, Testville, DE 19901, USA"},
		{"components exclude", url.Values{"address": {"10 main st"}, "components": {"country:AD"}}, 200, geocodeZeroResults, ""},
		{"components alone", url.Values{"components": {"postal_code:19901"}}, 200, geocodeOK, "Testville, DE 19901, USA"},
		{"components alone, locality", url.Values{"components": {"locality:Testville|country:US"}}, 200, geocodeOK, "Testville, DE, USA"},
		{"route component", url.Values{"address": {"10"}, "components": {"route:North Main St"}}, 200, geocodeOK, "10 N Main St, Testville, DE 19901, USA"},
		{"route component excludes", url.Values{"address": {"10 main st"}, "components": {"route:Quarry Road"}}, 200, geocodeZeroResults, ""},
		{"administrative_area component", url.Values{"address": {"10 main st"}, "components": {"administrative_area:DE"}}, 200, geocodeOK, "10 N Main St, Testville, DE 19901, USA"},
		{"result_type on forward", url.Values{"address": {"testville"}, "result_type": {"route"}}, 200, geocodeZeroResults, ""},
		{"result_type keeps the locality", url.Values{"address": {"testville"}, "result_type": {"locality"}}, 200, geocodeOK, "Testville, DE, USA"},
		{"location_type on forward", url.Values{"address": {"10 main st"}, "location_type": {"rooftop"}}, 200, geocodeOK, "10 N Main St, Testville, DE 19901, USA"},
		{"invalid result_type on forward", url.Values{"address": {"main"}, "result_type": {"planet"}}, 200, geocodeInvalidRequest, ""},
		{"invalid location_type on forward", url.Values{"address": {"main"}, "location_type": {"NEAR"}}, 200, geocodeInvalidRequest, ""},
		{"hex in bounds", url.Values{"address": {"main"}, "bounds": {"0x1p-2,-75|39,-74"}}, 200, geocodeInvalidRequest, ""},
		{"component twice", url.Values{"address": {"main"}, "components": {"postal_code:19901|postal_code:19711"}}, 200, geocodeInvalidRequest, ""},
		{"empty component value", url.Values{"components": {"locality:"}}, 200, geocodeInvalidRequest, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, ct, body := getGeocoder(e, "/geocoderv1/geocoder", tc.q)
			if code != tc.code || !strings.HasPrefix(ct, "application/json") {
				t.Fatalf("code %d %s, want %d json: %s", code, ct, tc.code, body)
			}
			var r geocodeResponse
			if err := json.Unmarshal([]byte(body), &r); err != nil {
				t.Fatal(err)
			}
			if r.Status != tc.status {
				t.Fatalf("status %s, want %s: %s", r.Status, tc.status, body)
			}
			if r.Results == nil {
				t.Error("results is null, want an array")
			}
			if tc.first != "" && (len(r.Results) == 0 || r.Results[0].FormattedAddress != tc.first) {
				t.Errorf("first result %s, want %q", body, tc.first)
			}
		})
	}
	_, _, body := getGeocoder(e, "/geocoderv1/geocoder", url.Values{"address": {"10 N Main St, Testville"}})
	for _, want := range []string{`"long_name":"10"`, `"types":["street_number"]`, `"short_name":"N Main St"`, `"location_type":"ROOFTOP"`,
		`"place_id":"n10"`, `"viewport":{"southwest":`, `"location":{"lat":39.0002,"lng":-75.4998}`, `"short_name":"DE","types":["administrative_area_level_1","political"]`} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %s: %s", want, body)
		}
	}
}

func TestGeocoderReverse(t *testing.T) {
	e := geocoderServer(t, true)
	for _, tc := range []struct {
		name   string
		q      url.Values
		status string
		first  string
	}{
		{"address", url.Values{"x": {"-75.4998"}, "y": {"39.00019"}}, geocodeOK, "10 N Main St, Testville, DE 19901, USA"},
		{"route only", url.Values{"x": {"-75.4998"}, "y": {"39.00019"}, "result_type": {"route"}}, geocodeOK, "N Main St, Testville, DE 19901, USA"},
		{"rooftop", url.Values{"x": {"-75.4998"}, "y": {"39.00019"}, "location_type": {"ROOFTOP|APPROXIMATE"}}, geocodeOK, "10 N Main St, Testville, DE 19901, USA"},
		{"far", url.Values{"x": {"-75.3"}, "y": {"39.1"}}, geocodeZeroResults, ""},
		{"missing y", url.Values{"x": {"-75.4998"}}, geocodeInvalidRequest, ""},
		{"hex float", url.Values{"x": {"0x1p-2"}, "y": {"39"}}, geocodeInvalidRequest, ""},
		{"underscores", url.Values{"x": {"-75_4998"}, "y": {"39"}}, geocodeInvalidRequest, ""},
		{"exponent", url.Values{"x": {"-7.54998e1"}, "y": {"3.900019e1"}}, geocodeOK, "10 N Main St, Testville, DE 19901, USA"},
		{"not a number", url.Values{"x": {"abc"}, "y": {"39"}}, geocodeInvalidRequest, ""},
		{"out of range", url.Values{"x": {"-75"}, "y": {"91"}}, geocodeInvalidRequest, ""},
		{"nan", url.Values{"x": {"NaN"}, "y": {"39"}}, geocodeInvalidRequest, ""},
		{"empty format", url.Values{"x": {"-75.4998"}, "y": {"39.0002"}, "format": {""}}, geocodeInvalidRequest, ""},
		{"bad result_type", url.Values{"x": {"-75.4998"}, "y": {"39.0002"}, "result_type": {"street"}}, geocodeInvalidRequest, ""},
		{"bad location_type", url.Values{"x": {"-75.4998"}, "y": {"39.0002"}, "location_type": {"roof"}}, geocodeInvalidRequest, ""},
		{"location_type any case", url.Values{"x": {"-75.4998"}, "y": {"39.00019"}, "location_type": {"rooftop"}}, geocodeOK, "10 N Main St, Testville, DE 19901, USA"},
		{"postal_town valid, never produced", url.Values{"x": {"-75.4998"}, "y": {"39.0002"}, "result_type": {"postal_town"}}, geocodeZeroResults, ""},
		{"administrative_area_level_3 valid", url.Values{"x": {"-75.4998"}, "y": {"39.0002"}, "result_type": {"administrative_area_level_3"}}, geocodeZeroResults, ""},
		{"airport|street_address", url.Values{"x": {"-75.4998"}, "y": {"39.00019"}, "result_type": {"airport|street_address"}}, geocodeOK, "10 N Main St, Testville, DE 19901, USA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, body := getGeocoder(e, "/geocoderv1/rev-geocoder", tc.q)
			if code != 200 {
				t.Fatalf("code %d: %s", code, body)
			}
			var r geocodeResponse
			if err := json.Unmarshal([]byte(body), &r); err != nil {
				t.Fatal(err)
			}
			if r.Status != tc.status {
				t.Fatalf("status %s, want %s: %s", r.Status, tc.status, body)
			}
			if tc.first != "" && (len(r.Results) == 0 || r.Results[0].FormattedAddress != tc.first) {
				t.Errorf("first result %s, want %q", body, tc.first)
			}
		})
	}
}

func TestGeocoderXML(t *testing.T) {
	e := geocoderServer(t, true)
	for _, q := range []url.Values{
		{"address": {"Carrer de la Unió"}, "format": {"xml"}},
		{"address": {"<&>\"'"}, "format": {"xml"}},
		{"x": {"-75.4998"}, "y": {"39.0002"}, "format": {"xml"}},
	} {
		path := "/geocoderv1/geocoder"
		if q.Has("x") {
			path = "/geocoderv1/rev-geocoder"
		}
		code, ct, body := getGeocoder(e, path, q)
		if code != 200 || !strings.HasPrefix(ct, "application/xml") || !utf8.ValidString(body) {
			t.Fatalf("%v: %d %s", q, code, ct)
		}
		if !strings.HasPrefix(body, "<?xml") || !strings.Contains(body, "<GeocodeResponse><status>") {
			t.Errorf("not a GeocodeResponse document: %s", body)
		}
		var r geocodeResponse
		d := xml.NewDecoder(strings.NewReader(body))
		if err := d.Decode(&r); err != nil {
			t.Fatalf("%v: not well-formed: %v\n%s", q, err, body)
		}
		if r.Status == geocodeOK && (len(r.Results) == 0 || len(r.Results[0].AddressComponents) == 0 || r.Results[0].Geometry.LocationType == "") {
			t.Errorf("XML lost content: %s", body)
		}
	}
	_, _, body := getGeocoder(e, "/geocoderv1/geocoder", url.Values{"address": {"Carrer de la Unió"}, "format": {"xml"}})
	if !strings.Contains(body, "<long_name>Carrer de la Unió</long_name>") || !strings.Contains(body, "<type>route</type>") {
		t.Errorf("XML mapping: %s", body)
	}
}

func TestGeocoderLoading(t *testing.T) {
	e := geocoderServer(t, false)
	for _, path := range []string{"/geocoderv1/geocoder?address=main", "/geocoderv1/rev-geocoder?x=1&y=2&format=xml"} {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), geocodeUnknownError) {
			t.Errorf("%s: %d %s, want 503 UNKNOWN_ERROR", path, rec.Code, rec.Body.String())
		}
	}
}

func TestGeocoderMalformedQuery(t *testing.T) {
	e := geocoderServer(t, true)
	for _, tc := range []struct {
		name, target, status, msg string
	}{
		{"forward bad escape", "/geocoderv1/geocoder?address=10%zzMain", geocodeInvalidRequest, "malformed query string"},
		{"forward bad escape elsewhere", "/geocoderv1/geocoder?address=testville&x=%", geocodeInvalidRequest, "malformed query string"},
		{"forward fine", "/geocoderv1/geocoder?address=10%20n%20main%20st", geocodeOK, ""},
		{"reverse bad escape", "/geocoderv1/rev-geocoder?x=-75.4998&y=39.0002%G1", geocodeInvalidRequest, "malformed query string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, tc.target, nil)
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			var r geocodeResponse
			if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
				t.Fatalf("%v: %s", err, rec.Body)
			}
			if rec.Code != 200 || r.Status != tc.status || r.ErrorMessage != tc.msg {
				t.Errorf("code %d status %s %q, want 200 %s %q", rec.Code, r.Status, r.ErrorMessage, tc.status, tc.msg)
			}
		})
	}
}

// FuzzGeocoderQuery sends arbitrary query strings to both geocoder
// endpoints: every answer is HTTP 200 with a JSON body whose status is one
// of Google's, and INVALID_REQUEST comes with an error message.
func FuzzGeocoderQuery(f *testing.F) {
	for _, s := range []string{
		"address=10+main+st", "components=postal_code:19901", "address=main&components=route:Main+St|route:x",
		"address=main&bounds=39,-76|40,-75", "components=locality:|country:US", "x=-75.5&y=39&result_type=route",
		"x=1e3&y=0x1p-2", "address=%ff%fe", "address=;&format=xml", "components=administrative_area:DE",
	} {
		f.Add(s)
	}
	e := geocoderServer(f, true)
	f.Fuzz(func(t *testing.T, raw string) {
		for _, path := range []string{"/geocoderv1/geocoder", "/geocoderv1/rev-geocoder"} {
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.URL.Path, req.URL.RawQuery = path, raw
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Fatalf("%s?%s: HTTP %d", path, raw, rec.Code)
			}
			if !strings.HasPrefix(rec.Header().Get(echo.HeaderContentType), "application/json") {
				continue // format=xml
			}
			var r geocodeResponse
			if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
				t.Fatalf("%s?%s: %v", path, raw, err)
			}
			switch r.Status {
			case geocodeOK, geocodeZeroResults:
			case geocodeInvalidRequest:
				if r.ErrorMessage == "" {
					t.Fatalf("%s?%s: INVALID_REQUEST without a message", path, raw)
				}
			default:
				t.Fatalf("%s?%s: status %q", path, raw, r.Status)
			}
		}
	})
}

// TestGeocoderPanicKeepsGoogleShape: a panic under a geocoder route is
// recovered by the server's one recovery middleware and still answered in
// the geocoder's shape and format: HTTP 500, UNKNOWN_ERROR, no detail.
func TestGeocoderPanicKeepsGoogleShape(t *testing.T) {
	e := geocoderServer(t, true)
	h := &geocoderHandler{}
	e.GET("/geocoderv1/panic", func(echo.Context) error { panic("index corrupted") }, withErrorWriter(h.writeError))
	tests := []struct {
		query, ctype, want string
	}{
		{"", "application/json", `"status":"UNKNOWN_ERROR"`},
		{"format=xml", "application/xml", `<status>UNKNOWN_ERROR</status>`},
		{"format=bogus", "application/json", `"status":"UNKNOWN_ERROR"`},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			code, ctype, body := getGeocoder(e, "/geocoderv1/panic", mustQuery(t, tc.query))
			if code != http.StatusInternalServerError || !strings.HasPrefix(ctype, tc.ctype) || !strings.Contains(body, tc.want) || strings.Contains(body, "corrupted") {
				t.Errorf("panic: %d %s %s, want 500 %s with %s and no detail", code, ctype, body, tc.ctype, tc.want)
			}
		})
	}
}

func mustQuery(t *testing.T, raw string) url.Values {
	t.Helper()
	q, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
