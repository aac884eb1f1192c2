package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/timezone"
	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/keys"
)

// tzNow is the fixed clock of the timezonesv1 tests.
var tzNow = time.Date(2026, time.June, 15, 12, 0, 0, 0, time.UTC)

var (
	tzFinderOnce sync.Once
	tzFinder     *timezone.Finder
	tzFinderErr  error
)

// tzAreas is an Areas of boxes; the last box containing a point is the
// most specific.
type tzAreas []struct {
	a   timezone.Area
	box orb.Bound
}

func (b tzAreas) MostSpecific(p orb.Point) (timezone.Area, bool) {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i].box.Contains(p) {
			return b[i].a, true
		}
	}
	return timezone.Area{}, false
}

func (b tzAreas) All() []timezone.Area {
	out := make([]timezone.Area, len(b))
	for i := range b {
		out[i] = b[i].a
	}
	return out
}

func (b *tzAreas) add(id int64, name, iso3 string, level int, minLon, minLat, maxLon, maxLat float64) {
	bd := orb.Bound{Min: orb.Point{minLon, minLat}, Max: orb.Point{maxLon, maxLat}}
	*b = append(*b, struct {
		a   timezone.Area
		box orb.Bound
	}{timezone.Area{ID: id, Name: name, CountryISO3: iso3, Level: level, Point: bd.Center()}, bd})
}

// tzFixture is a server with timezonesv1 on a small area set.
type tzFixture struct {
	srv *Server
	key string
	ix  *timezone.Index
	cur bundle.Current
}

func newTZFixture(t testing.TB) *tzFixture {
	t.Helper()
	tzFinderOnce.Do(func() { tzFinder, tzFinderErr = timezone.NewFinder() })
	if tzFinderErr != nil {
		t.Fatal(tzFinderErr)
	}
	var areas tzAreas
	areas.add(162110, "Delaware", "USA", 4, -75.79, 38.45, -75.05, 39.84)
	areas.add(167120, "Kent County", "USA", 6, -75.76, 38.80, -75.30, 39.38)
	areas.add(134836, "Dover", "USA", 8, -75.58, 39.11, -75.47, 39.20)
	areas.add(9407, "Andorra", "AND", 2, 1.41, 42.43, 1.79, 42.66)
	areas.add(2804758, "Andorra la Vella", "AND", 7, 1.49, 42.49, 1.55, 42.53)
	ix, err := timezone.NewIndex(timezone.Options{Finder: tzFinder, Areas: areas, Clock: func() time.Time { return tzNow }})
	if err != nil {
		t.Fatal(err)
	}
	rd := redistest.New(t)
	store := keys.NewStore(rd.Client, keys.Options{Prefix: rd.Prefix})
	_, plain, err := store.Create(context.Background(), keys.CreateOptions{Owner: "tz test"})
	if err != nil {
		t.Fatal(err)
	}
	f := &tzFixture{key: plain}
	f.srv = New(Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Redis: rd.Client, Gate: keys.NewGate(store, keys.GateOptions{})})
	RegisterTimezones(f.srv.Protected(), TimezonesOptions{Bundle: &f.cur})
	f.ix = ix
	f.cur.Store(&bundle.Bundle{TimeZones: ix})
	return f
}

// get requests xy2tzdata with the raw query q.
func (f *tzFixture) get(t testing.TB, q string) (int, http.Header, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/timezonesv1/xy2tzdata?"+q, nil)
	req.Header.Set(headerAPIKey, f.key)
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	return rec.Code, rec.Header(), rec.Body.Bytes()
}

// tzAnswer mirrors the time zone response for decoding.
type tzAnswer struct {
	TimeZone struct {
		CategoryCode int         `json:"category_code"`
		CategoryName string      `json:"category_name"`
		TimeZone     string      `json:"time_zone"`
		Countries    []string    `json:"country_ISO3_codes"`
		Names        []string    `json:"local_boundary_names"`
		Abbr         [][2]string `json:"time_zone_abbreviations_names"`
		DSTAbbr      [][2]string `json:"dst_time_zone_abbreviations_names"`
	} `json:"time_zone"`
	LocalArea struct {
		ID        *int64  `json:"local_boundary_id"`
		Country   *string `json:"country_ISO3_code"`
		Name      *string `json:"local_boundary_name"`
		TimeZone  string  `json:"time_zone"`
		Abbr      string  `json:"time_zone_local_abbreviation"`
		LocalName string  `json:"time_zone_local_name"`
		HasDST    bool    `json:"has_daylight_saving_time"`
		DSTAbbr   *string `json:"dst_time_zone_local_abbreviation"`
		DSTName   *string `json:"dst_time_zone_local_name"`
		DSTStart  *string `json:"dst_start"`
		DSTEnd    *string `json:"dst_end"`
	} `json:"local_area"`
}

func ptr[T any](v T) *T { return &v }

func TestXY2TZData(t *testing.T) {
	f := newTZFixture(t)
	tests := []struct {
		name, q, iana, utc string
		countries, names   []string
		std, dst           [2]string
		id                 *int64
		country, area      *string
		start, end         *string
	}{
		{"Dover DE", "x=-75.5244&y=39.1582", "America/New_York", "UTC-05:00", []string{"USA"},
			[]string{"Delaware", "Kent County", "Dover"},
			[2]string{"EST", "Eastern Standard Time"}, [2]string{"EDT", "Eastern Daylight Time"},
			ptr[int64](134836), ptr("USA"), ptr("Dover"), ptr("2026-03-08T07:00:00Z"), ptr("2026-11-01T06:00:00Z")},
		{"Andorra la Vella", "x=1.5218&y=42.5063", "Europe/Andorra", "UTC+01:00", []string{"AND"},
			[]string{"Andorra", "Andorra la Vella"},
			[2]string{"CET", "Central European Standard Time"}, [2]string{"CEST", "Central European Summer Time"},
			ptr[int64](2804758), ptr("AND"), ptr("Andorra la Vella"), ptr("2026-03-29T01:00:00Z"), ptr("2026-10-25T01:00:00Z")},
		{"Tokyo", "x=139.6917&y=35.6895", "Asia/Tokyo", "UTC+09:00", []string{"JPN", "AUS"}, []string{},
			[2]string{"JST", "Japan Standard Time"}, [2]string{}, nil, ptr("JPN"), nil, nil, nil},
		{"mid-Atlantic", "x=-40&y=30", "Etc/GMT+3", "UTC-03:00", []string{}, []string{},
			[2]string{"-03", "GMT-03:00"}, [2]string{}, nil, nil, nil, nil, nil},
		{"Lord Howe Island", "x=159.0829&y=-31.5553", "Australia/Lord_Howe", "UTC+10:30", []string{"AUS"}, []string{},
			[2]string{"+1030", "Lord Howe Standard Time"}, [2]string{"+11", "Lord Howe Daylight Time"},
			nil, ptr("AUS"), nil, ptr("2026-10-03T15:30:00Z"), ptr("2026-04-04T15:00:00Z")},
		{"Chatham Islands", "x=-176.5597&y=-43.9535", "Pacific/Chatham", "UTC+12:45", []string{"NZL"}, []string{},
			[2]string{"+1245", "Chatham Standard Time"}, [2]string{"+1345", "Chatham Daylight Time"},
			nil, ptr("NZL"), nil, ptr("2026-09-26T14:00:00Z"), ptr("2026-04-04T14:00:00Z")},
		// Southern hemisphere: dst_start is October's start of the next
		// period, dst_end April's end of the period begun the year before.
		{"Sydney", "x=151.2093&y=-33.8688", "Australia/Sydney", "UTC+10:00", []string{"AUS"}, []string{},
			[2]string{"AEST", "Australian Eastern Standard Time"}, [2]string{"AEDT", "Australian Eastern Daylight Time"},
			nil, ptr("AUS"), nil, ptr("2026-10-03T16:00:00Z"), ptr("2026-04-04T16:00:00Z")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, h, body := f.get(t, tt.q)
			if code != http.StatusOK {
				t.Fatalf("status %d: %s", code, body)
			}
			if got := h.Get(headerIANAZone); got != tt.iana {
				t.Errorf("%s = %q, want %q", headerIANAZone, got, tt.iana)
			}
			var a tzAnswer
			if err := json.Unmarshal(body, &a); err != nil {
				t.Fatal(err)
			}
			tz, la := a.TimeZone, a.LocalArea
			if tz.CategoryCode != 911 || tz.CategoryName != "time_zone" || tz.TimeZone != tt.utc {
				t.Errorf("time_zone head %d %q %q", tz.CategoryCode, tz.CategoryName, tz.TimeZone)
			}
			if !reflect.DeepEqual(tz.Countries, tt.countries) || !reflect.DeepEqual(tz.Names, tt.names) {
				t.Errorf("countries %q names %q, want %q %q", tz.Countries, tz.Names, tt.countries, tt.names)
			}
			if !reflect.DeepEqual(tz.Abbr, [][2]string{tt.std}) {
				t.Errorf("abbreviations %q, want %q", tz.Abbr, tt.std)
			}
			wantDST := [][2]string{}
			if tt.dst != [2]string{} {
				wantDST = [][2]string{tt.dst}
			}
			if !reflect.DeepEqual(tz.DSTAbbr, wantDST) {
				t.Errorf("dst abbreviations %q, want %q", tz.DSTAbbr, wantDST)
			}
			if !reflect.DeepEqual(la.ID, tt.id) || !reflect.DeepEqual(la.Country, tt.country) || !reflect.DeepEqual(la.Name, tt.area) {
				t.Errorf("area %v %v %v, want %v %v %v", la.ID, la.Country, la.Name, tt.id, tt.country, tt.area)
			}
			if la.TimeZone != tt.utc || la.Abbr != tt.std[0] || la.LocalName != tt.std[1] || la.HasDST != (tt.start != nil) {
				t.Errorf("local zone %q %q %q %v", la.TimeZone, la.Abbr, la.LocalName, la.HasDST)
			}
			var dstAbbr, dstName *string
			if tt.start != nil {
				dstAbbr, dstName = &tt.dst[0], &tt.dst[1]
			}
			if !reflect.DeepEqual(la.DSTAbbr, dstAbbr) || !reflect.DeepEqual(la.DSTName, dstName) ||
				!reflect.DeepEqual(la.DSTStart, tt.start) || !reflect.DeepEqual(la.DSTEnd, tt.end) {
				t.Errorf("local DST %v %v %v %v", la.DSTAbbr, la.DSTName, la.DSTStart, la.DSTEnd)
			}
		})
	}
}

// keyOrder returns the keys of the JSON object raw, in document order,
// with the kind of each value ("string", "number", "bool", "array",
// "object", "null").
func keyOrder(t *testing.T, raw json.RawMessage) ([]string, map[string]string, map[string]json.RawMessage) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	var order []string
	kinds := map[string]string{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		k := tok.(string)
		order = append(order, k)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		switch c := v[0]; {
		case c == '"':
			kinds[k] = "string"
		case c == '[':
			kinds[k] = "array"
		case c == '{':
			kinds[k] = "object"
		case c == 't' || c == 'f':
			kinds[k] = "bool"
		case c == 'n':
			kinds[k] = "null"
		default:
			kinds[k] = "number"
		}
	}
	return order, kinds, m
}

// TestXY2TZDataShape fixes every field name, its order, its JSON type and
// the omissions: no boundary id or name outside the bundle's areas, no
// dst_* keys in local_area for a zone without DST.
func TestXY2TZDataShape(t *testing.T) {
	f := newTZFixture(t)
	tzKeys := []string{"category_code", "category_name", "time_zone", "country_ISO3_codes", "local_boundary_names",
		"time_zone_abbreviations_names", "dst_time_zone_abbreviations_names"}
	tzKinds := map[string]string{"category_code": "number", "category_name": "string", "time_zone": "string",
		"country_ISO3_codes": "array", "local_boundary_names": "array", "time_zone_abbreviations_names": "array",
		"dst_time_zone_abbreviations_names": "array"}
	full := []string{"local_boundary_id", "country_ISO3_code", "local_boundary_name", "time_zone",
		"time_zone_local_abbreviation", "time_zone_local_name", "has_daylight_saving_time",
		"dst_time_zone_local_abbreviation", "dst_time_zone_local_name", "dst_start", "dst_end"}
	laKinds := map[string]string{"local_boundary_id": "number", "country_ISO3_code": "string", "local_boundary_name": "string",
		"time_zone": "string", "time_zone_local_abbreviation": "string", "time_zone_local_name": "string",
		"has_daylight_saving_time": "bool", "dst_time_zone_local_abbreviation": "string",
		"dst_time_zone_local_name": "string", "dst_start": "string", "dst_end": "string"}
	tests := []struct {
		name, q string
		local   []string
	}{
		{"in an area, DST", "x=-75.5244&y=39.1582", full},
		{"outside the areas, DST", "x=151.2093&y=-33.8688", append([]string{"country_ISO3_code"}, full[3:]...)},
		{"outside the areas, no DST", "x=139.6917&y=35.6895", []string{"country_ISO3_code", "time_zone",
			"time_zone_local_abbreviation", "time_zone_local_name", "has_daylight_saving_time"}},
		{"at sea", "x=-40&y=30", []string{"time_zone", "time_zone_local_abbreviation",
			"time_zone_local_name", "has_daylight_saving_time"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, h, body := f.get(t, tt.q)
			if code != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
				t.Fatalf("status %d, type %q: %s", code, h.Get("Content-Type"), body)
			}
			top, topKinds, m := keyOrder(t, body)
			if !reflect.DeepEqual(top, []string{"time_zone", "local_area"}) || topKinds["time_zone"] != "object" || topKinds["local_area"] != "object" {
				t.Fatalf("top level %v %v", top, topKinds)
			}
			order, kinds, tzm := keyOrder(t, m["time_zone"])
			if !reflect.DeepEqual(order, tzKeys) || !reflect.DeepEqual(kinds, tzKinds) {
				t.Errorf("time_zone keys %v kinds %v", order, kinds)
			}
			var pairs [][]string
			if err := json.Unmarshal(tzm["time_zone_abbreviations_names"], &pairs); err != nil || len(pairs) != 1 || len(pairs[0]) != 2 {
				t.Errorf("time_zone_abbreviations_names %s: not one [abbreviation, name] pair", tzm["time_zone_abbreviations_names"])
			}
			order, kinds, _ = keyOrder(t, m["local_area"])
			if !reflect.DeepEqual(order, tt.local) {
				t.Errorf("local_area keys %v, want %v", order, tt.local)
			}
			for k, kind := range kinds {
				if laKinds[k] != kind {
					t.Errorf("local_area %s is a %s, want %s", k, kind, laKinds[k])
				}
			}
		})
	}
}

func TestXY2TZDataBadInput(t *testing.T) {
	f := newTZFixture(t)
	tests := []struct{ q, want string }{
		{"", "x is required"},
		{"y=39", "x is required"},
		{"x=&y=39", "x is required"},
		{"x=-75.5", "y is required"},
		{"x=abc&y=39", `x must be a number (the longitude in decimal degrees), got "abc"`},
		{"x=-75.5&y=39,1", `y must be a number`},
		{"x=NaN&y=39", "x must be a finite number"},
		{"x=-75.5&y=-Inf", "y must be a finite number"},
		{"x=180.0001&y=0", "x (longitude) must be between -180 and 180, got 180.0001"},
		{"x=0&y=-90.5", "y (latitude) must be between -90 and 90, got -90.5"},
		{"x=1e400&y=0", "x (longitude) must be between -180 and 180"},
	}
	for _, tt := range tests {
		code, _, body := f.get(t, tt.q)
		var m messageBody
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%q: %v: %s", tt.q, err, body)
		}
		if code != http.StatusBadRequest || !strings.HasPrefix(m.Message, tt.want) {
			t.Errorf("%q: %d %q, want 400 %q", tt.q, code, m.Message, tt.want)
		}
	}
	// Edges of the range are valid.
	for _, q := range []string{"x=180&y=90", "x=-180&y=-90", "x=1e-400&y=0"} {
		if code, _, body := f.get(t, q); code != http.StatusOK {
			t.Errorf("%q: %d %s", q, code, body)
		}
	}
}

func TestXY2TZDataLoading(t *testing.T) {
	f := newTZFixture(t)
	f.cur.Store(nil)
	code, _, body := f.get(t, "x=1.5&y=42.5")
	if code != http.StatusServiceUnavailable || string(bytes.TrimSpace(body)) != `{"message":"data bundle loading"}` {
		t.Errorf("%d %s", code, body)
	}
	// A key is still required.
	req := httptest.NewRequest(http.MethodGet, "/timezonesv1/xy2tzdata?x=1&y=2", nil)
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Errorf("no key: %d", rec.Code)
	}
}

func FuzzParseTZPoint(f *testing.F) {
	for _, q := range []string{"x=-75.5244&y=39.1582", "x=NaN&y=1", "x=1e400&y=0", "y=1", "x=0x1p-2&y=1_0", "x=%zz", "x=-0&y=+90"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		v, err := url.ParseQuery(q)
		if err != nil {
			return
		}
		p, msg := parseLookupPoint(v, lookupLonX, lookupLatY)
		if msg != "" {
			if p != (orb.Point{}) {
				t.Errorf("%q: error %q with point %v", q, msg, p)
			}
			if len(msg) > 200 {
				t.Errorf("%q: message of %d bytes", q, len(msg))
			}
			return
		}
		if !(p[0] >= -180 && p[0] <= 180 && p[1] >= -90 && p[1] <= 90) {
			t.Errorf("%q: accepted %v", q, p)
		}
	})
}

func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "Dover", "Bear, Delaware", `a "quoted" \\ name`, "<b>&", "Sant Julià de Lòria", "tab\there", "\u2028", "\xff"} {
		want, _ := json.Marshal(s)
		if got := appendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("%q: %s, want %s", s, got[1:], want)
		}
	}
}
