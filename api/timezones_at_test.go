package api

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/timezone"
)

// tzAtAnswer is the part of an answer at an instant the tests read.
type tzAtAnswer struct {
	tzAnswer
	Timestamp    string `json:"timestamp"`
	ZoneID       string `json:"time_zone_id"`
	RawOffset    *int   `json:"raw_offset_s"`
	DSTOffset    *int   `json:"dst_offset_s"`
	Abbreviation string `json:"abbreviation"`
}

// TestXY2TZDataTimestamp: answers at an instant, hand-checked against the
// tz database's rule changes (Russia's permanent +4 of 2011-2014, Samoa's
// date-line move of 29 to 31 December 2011), as Unix seconds and as RFC
// 3339; the spec's DST fields are those of the instant's year.
func TestXY2TZDataTimestamp(t *testing.T) {
	f := newTZFixture(t)
	moscow := "x=37.6173&y=55.7558"
	apia := "x=-171.7514&y=-13.8333"
	tests := []struct {
		name, q      string
		zone         string
		raw, dst     int
		abbr, when   string
		utc          string
		start, end   *string
		hasDST       bool
		localAbbrStd string
	}{
		{"Moscow 2013 (RFC 3339)", moscow + "&timestamp=2013-07-15T12:00:00Z", "Europe/Moscow", 14400, 0, "MSK", "2013-07-15T12:00:00Z", "UTC+04:00", nil, nil, false, "MSK"},
		{"Moscow 2013 (Unix seconds)", moscow + "&timestamp=1373889600", "Europe/Moscow", 14400, 0, "MSK", "2013-07-15T12:00:00Z", "UTC+04:00", nil, nil, false, "MSK"},
		{"Moscow 2015", moscow + "&timestamp=2015-07-15T12:00:00%2B03:00", "Europe/Moscow", 10800, 0, "MSK", "2015-07-15T09:00:00Z", "UTC+03:00", nil, nil, false, "MSK"},
		{"Moscow 2010, DST", moscow + "&timestamp=1279195200", "Europe/Moscow", 10800, 3600, "MSD", "2010-07-15T12:00:00Z", "UTC+03:00",
			ptr("2010-03-27T23:00:00Z"), ptr("2010-10-30T23:00:00Z"), true, "MSK"},
		{"Samoa before the move", apia + "&timestamp=2011-12-29T12:00:00z", "Pacific/Apia", -39600, 3600, "-10", "2011-12-29T12:00:00Z", "UTC-11:00",
			ptr("2011-09-24T14:00:00Z"), ptr("2011-04-02T14:00:00Z"), true, "-11"},
		{"Samoa after the move", apia + "&timestamp=2011-12-31T00:00:00Z", "Pacific/Apia", 46800, 3600, "+14", "2011-12-31T00:00:00Z", "UTC-11:00",
			ptr("2011-09-24T14:00:00Z"), ptr("2011-04-02T14:00:00Z"), true, "-11"},
		{"Dover 1990, negative seconds too", "x=-75.5244&y=39.1582&timestamp=-86400", "America/New_York", -18000, 0, "EST", "1969-12-31T00:00:00Z", "UTC-05:00",
			ptr("1969-04-27T07:00:00Z"), ptr("1969-10-26T06:00:00Z"), true, "EST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, h, body := f.get(t, tt.q)
			if code != http.StatusOK {
				t.Fatalf("status %d: %s", code, body)
			}
			var a tzAtAnswer
			if err := json.Unmarshal(body, &a); err != nil {
				t.Fatalf("%v: %s", err, body)
			}
			if a.ZoneID != tt.zone || h.Get(headerIANAZone) != tt.zone || a.RawOffset == nil || *a.RawOffset != tt.raw ||
				a.DSTOffset == nil || *a.DSTOffset != tt.dst || a.Abbreviation != tt.abbr || a.Timestamp != tt.when {
				t.Errorf("got %s", body)
			}
			la := a.LocalArea
			if la.TimeZone != tt.utc || la.HasDST != tt.hasDST || la.Abbr != tt.localAbbrStd ||
				!reflect2(la.DSTStart, tt.start) || !reflect2(la.DSTEnd, tt.end) {
				t.Errorf("the year's fields: %s", body)
			}
		})
	}
	// Without timestamp: none of the members of an instant.
	_, _, body := f.get(t, moscow)
	for _, k := range []string{"timestamp", "time_zone_id", "raw_offset_s", "dst_offset_s", "abbreviation"} {
		if strings.Contains(string(body), `"`+k+`"`) {
			t.Errorf("answer without timestamp has %s: %s", k, body)
		}
	}
}

func reflect2(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

// TestXY2TZDataTimestampMatchesGo: over HTTP, 300 random (point, instant)
// pairs from 1980 to 2037: raw + DST is Go's offset at that instant in the
// zone the header names, loaded from the same tz database.
func TestXY2TZDataTimestampMatchesGo(t *testing.T) {
	f := newTZFixture(t)
	rng := rand.New(rand.NewPCG(26, 5))
	lo := time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(2038, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	for range 300 {
		p := orb.Point{rng.Float64()*360 - 180, rng.Float64()*140 - 60}
		at := lo + rng.Int64N(hi-lo)
		q := url.Values{"x": {strconv.FormatFloat(p[0], 'f', 5, 64)}, "y": {strconv.FormatFloat(p[1], 'f', 5, 64)}, "timestamp": {strconv.FormatInt(at, 10)}}
		code, _, body := f.get(t, q.Encode())
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", q.Encode(), code, body)
		}
		var a tzAtAnswer
		if err := json.Unmarshal(body, &a); err != nil {
			t.Fatal(err)
		}
		loc, err := timezone.LoadLocation(a.ZoneID)
		if err != nil {
			t.Fatal(err)
		}
		abbr, off := time.Unix(at, 0).In(loc).Zone()
		if *a.RawOffset+*a.DSTOffset != off || a.Abbreviation != abbr {
			t.Errorf("%s: %s, Go says %d %s", q.Encode(), body, off, abbr)
		}
	}
}

func TestXY2TZDataTimestampBadInput(t *testing.T) {
	f := newTZFixture(t)
	tests := []struct{ q, want string }{
		{"timestamp=", "timestamp is empty"},
		{"timestamp=yesterday", `timestamp \"yesterday\" is not a valid timestamp`},
		{"timestamp=1.5e9", "is not a valid timestamp"},
		{"timestamp=2013-07-15", "is not a valid timestamp"},
		{"timestamp=2013-07-15T12:00:00+03:00", "write a positive offset as %2B"},
		{"timestamp=2013-07-15T12:00:00%2B24:00", `timestamp \"2013-07-15T12:00:00+24:00\" is not a valid timestamp: give Unix seconds (an integer) or an RFC 3339 time such as 2013-07-15T12:00:00Z, from 1900-01-01 to 2099-12-31 UTC: the offset +24:00 is out of range: RFC 3339 offsets are -23:59 to +23:59"`},
		{"timestamp=2013-07-15+12:00:00Z", `timestamp \"2013-07-15 12:00:00Z\" is not a valid timestamp: give Unix seconds (an integer) or an RFC 3339 time such as 2013-07-15T12:00:00Z, from 1900-01-01 to 2099-12-31 UTC"`},
		{"timestamp=99999999999", "timestamp 99999999999 is out of range"},
		{"timestamp=1899-12-31T23:59:59Z", "is out of range"},
		{"timestamp=2100-01-01T00:00:00Z", "is out of range"},
		{"timestamp=-99999999999999999999", "is out of range"},
	}
	for _, tt := range tests {
		code, _, body := f.get(t, "x=37.6&y=55.7&"+tt.q)
		if code != http.StatusBadRequest || !strings.Contains(string(body), tt.want) {
			t.Errorf("%s: %d %s, want 400 with %q", tt.q, code, body, tt.want)
		}
	}
	for _, q := range []string{"timestamp=1900-01-01T00:00:00Z", "timestamp=2099-12-31T23:59:59Z", "timestamp=-2208988800", "timestamp=4102444799"} {
		if code, _, body := f.get(t, "x=37.6&y=55.7&"+q); code != http.StatusOK {
			t.Errorf("%s: %d %s", q, code, body)
		}
	}
}

// FuzzParseTZTimestamp: any timestamp is a time in range or a message
// naming the parameter, never a panic.
func FuzzParseTZTimestamp(f *testing.F) {
	for _, s := range []string{"1373889600", "-1", "2013-07-15T12:00:00Z", "2013-07-15t12:00:00+04:00", "", " ", "1e9", "-", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		at, ok, msg := parseTZTimestamp(url.Values{"timestamp": {s}})
		switch {
		case msg != "":
			if ok || !strings.HasPrefix(msg, "timestamp") {
				t.Errorf("%q: ok %v, message %q", s, ok, msg)
			}
		case !ok:
			t.Errorf("%q: neither a time nor a message", s)
		case at.Year() < tzMinYear || at.Year() > tzMaxYear:
			t.Errorf("%q: %v out of range", s, at)
		}
	})
}
