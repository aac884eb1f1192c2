package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/timezone"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/speeds"
)

// TestLocalClockDST: Delaware (America/New_York) on the nights the
// clocks change in 2026: on 8 March 02:00 EST becomes 03:00 EDT, so the
// instants an hour apart around it fall in Sunday's hours 1 and 3 (hour
// 2 does not happen); on 1 November 02:00 EDT becomes 01:00 EST, so two
// instants an hour apart both fall in Sunday's hour 1.
func TestLocalClockDST(t *testing.T) {
	b := &bundle.Bundle{TimeZones: tzIndex(t)}
	dover := orb.Point{-75.524, 39.158}
	sunday := 6 * 24
	for _, c := range []struct {
		utc   string
		hour  int
		local string
	}{
		{"2026-03-08T06:30:00Z", sunday + 1, "2026-03-08T01:30:00-05:00"},
		{"2026-03-08T07:30:00Z", sunday + 3, "2026-03-08T03:30:00-04:00"},
		{"2026-11-01T05:30:00Z", sunday + 1, "2026-11-01T01:30:00-04:00"},
		{"2026-11-01T06:30:00Z", sunday + 1, "2026-11-01T01:30:00-05:00"},
		{"2026-11-01T07:30:00Z", sunday + 2, "2026-11-01T02:30:00-05:00"},
		{"2026-11-30T13:00:00Z", 8, "2026-11-30T08:00:00-05:00"},
	} {
		at, _ := time.Parse(time.RFC3339, c.utc)
		got := localClock(b, dover, at)
		if got.Hour != c.hour || got.Local.Format(time.RFC3339) != c.local || got.Zone != "America/New_York" {
			t.Errorf("%s: hour %d local %s zone %s; want hour %d local %s", c.utc, got.Hour, got.Local.Format(time.RFC3339), got.Zone, c.hour, c.local)
		}
	}
	// No time-zone layer: UTC.
	at, _ := time.Parse(time.RFC3339, "2026-11-30T13:00:00Z")
	if got := localClock(nil, dover, at); got.Hour != 13 || got.Zone != "UTC" {
		t.Errorf("without zones: %+v", got)
	}
}

func tzIndex(t testing.TB) *timezone.Index {
	t.Helper()
	tzFinderOnce.Do(func() { tzFinder, tzFinderErr = timezone.NewFinder() })
	if tzFinderErr != nil {
		t.Fatal(tzFinderErr)
	}
	now, _ := time.Parse(time.RFC3339, "2026-11-27T12:00:00Z")
	ix, err := timezone.NewIndex(timezone.Options{Finder: tzFinder, Clock: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestParseTripTime: the whole message for each kind of value. A time
// with its offset is an instant (the message says so, no more "read in
// the time zone of the origin"); offsets beyond +-23:59 are refused
// (Go's time.Parse takes +24:00 and +23:60); the '+'-as-space hint
// only where the space stands for an offset's '+'; the range is 366
// days either side of now, to the second.
func TestParseTripTime(t *testing.T) {
	now, _ := time.Parse(time.RFC3339, "2026-11-27T12:00:00Z")
	const want = `an RFC 3339 time with its offset, such as 2026-03-09T08:00:00-04:00 or 2026-03-09T12:00:00Z, or "now"`
	const hint = " (a '+' in a URL query string is a space: write a positive offset as %2B)"
	for _, c := range []struct {
		in, reason string
		at         string // the instant, RFC 3339 in UTC, when valid
	}{
		{"now", "", "2026-11-27T12:00:00Z"},
		{"2026-11-30T08:00:00-05:00", "", "2026-11-30T13:00:00Z"},
		{"2026-11-30t08:00:00z", "", "2026-11-30T08:00:00Z"}, // RFC 3339 allows lower case
		{"2026-11-30T08:30:00+23:59", "", "2026-11-29T08:31:00Z"},
		{"2026-11-30T08:30:00-23:59", "", "2026-12-01T08:29:00Z"},
		{"2026-11-30T08:30:00.5+01:00", "", "2026-11-30T07:30:00.5Z"},
		{"2026-11-30T08:30:00+24:00", `"2026-11-30T08:30:00+24:00" is not ` + want + ": the offset +24:00 is out of range: RFC 3339 offsets are -23:59 to +23:59", ""},
		{"2026-11-30T08:30:00-24:00", `"2026-11-30T08:30:00-24:00" is not ` + want + ": the offset -24:00 is out of range: RFC 3339 offsets are -23:59 to +23:59", ""},
		{"2026-11-30T08:30:00+23:60", `"2026-11-30T08:30:00+23:60" is not ` + want + ": the offset +23:60 is out of range: RFC 3339 offsets are -23:59 to +23:59", ""},
		{"2026-11-30T08:30:00-25:00", `"2026-11-30T08:30:00-25:00" is not ` + want, ""},
		{"2026-11-30T08:00:00 01:00", `"2026-11-30T08:00:00 01:00" is not ` + want + hint, ""},
		{"2026-11-30 08:30:00Z", `"2026-11-30 08:30:00Z" is not ` + want, ""},
		{"2026-11-30T08:00:00", `"2026-11-30T08:00:00" is not ` + want, ""},
		{"tomorrow", `"tomorrow" is not ` + want, ""},
		{"1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z is before 1970", ""},
		{"2027-11-28T12:00:00Z", "", "2027-11-28T12:00:00Z"}, // 366 days ahead
		{"2025-11-26T12:00:00Z", "", "2025-11-26T12:00:00Z"}, // 366 days back
		{"2027-11-28T12:00:01Z", "2027-11-28T12:00:01Z is more than 366 days away from now (2026-11-27T12:00:00Z)", ""},
		{"2025-11-26T11:59:59Z", "2025-11-26T11:59:59Z is more than 366 days away from now (2026-11-27T12:00:00Z)", ""},
	} {
		got, reason := parseTripTime(c.in, now)
		if reason != c.reason || c.at != "" && got.UTC().Format(time.RFC3339Nano) != c.at {
			t.Errorf("%q: %v %q, want %s %q", c.in, got, reason, c.at, c.reason)
		}
	}
}

// FuzzParseRFC3339: whatever parseRFC3339 accepts is what time.Parse
// accepts with an offset within +-23:59, and prints back (RFC 3339 with
// its offset) to a value it accepts again at the same instant.
func FuzzParseRFC3339(f *testing.F) {
	for _, s := range []string{"2026-11-30T08:30:00+01:00", "2026-11-30T08:30:00+24:00", "2026-11-30T08:30:00-23:60",
		"2026-11-30t08:30:00.123z", "2026-11-30T08:30:00 01:00", "0000-01-01T00:00:00Z", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseRFC3339(s)
		if err != nil {
			return
		}
		if _, off := got.Zone(); off <= -24*3600 || off >= 24*3600 {
			t.Fatalf("%q: accepted with offset %d s", s, off)
		}
		again, err := parseRFC3339(got.Format(time.RFC3339Nano))
		if err != nil || !again.Equal(got) {
			t.Fatalf("%q: %v prints as %q, which reads back as %v, %v", s, got, got.Format(time.RFC3339Nano), again, err)
		}
	})
}

// timedGraph builds a graph of its own of alternatives.osm with speed
// data: Main Street's C1->C2 (OSM nodes 3->4) at 5 km/h at hour 8
// (Monday 08:00-08:59 local).
func timedGraph(t *testing.T) (*routing.Graph, *speeds.Data) {
	t.Helper()
	g := fixtureGraph(t, "alternatives.osm")
	d, err := speeds.ParseCSV([]byte("3,4,5,,8\n"))
	if err != nil {
		t.Fatal(err)
	}
	return g, d
}

// timedRouteServer serves routev1, isochronev1 and matchv1 on
// timedGraph's graph with its speed data applied.
func timedRouteServer(t *testing.T) (*Server, string, *speeds.Data, *routing.Graph) {
	t.Helper()
	g, d := timedGraph(t)
	cur := bundle.NewCurrent(&bundle.Bundle{Graph: g, TimeZones: tzIndex(t)})
	cur.SetSpeeds(d)
	srv, key := keyedServer(t, "timed route test")
	RegisterRoute(srv.Protected(), RouteOptions{Bundle: cur})
	RegisterIsochrone(srv.Protected(), IsochroneOptions{Bundle: cur})
	RegisterMatch(srv.Protected(), MatchOptions{Bundle: cur})
	RegisterOSRM(srv.Protected(), OSRMOptions{Bundle: cur})
	return srv, key, d, g
}

// TestRouteV1DepartureTime: through the REST interface, the route of
// alternatives.osm's S -> T leaves Main Street for the Bypass Lane at a
// departure in the slow hour and only then; arrival_time finds the
// departure; bad times are 400s naming the field. The fixture lies at
// lon 10, lat 0, in Gabon: Africa/Libreville, UTC+1 all year.
func TestRouteV1DepartureTime(t *testing.T) {
	srv, key, d, _ := timedRouteServer(t)
	get := func(q string) (int, string) {
		req := httptest.NewRequest(http.MethodGet, "/routev1/route?from=10.0001,0&to=10.0099,0&"+q, nil)
		req.Header.Set(headerAPIKey, key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	streets := func(a routeAnswer) string {
		var s []string
		for _, st := range a.Steps {
			if len(s) == 0 || s[len(s)-1] != st.Street {
				s = append(s, st.Street)
			}
		}
		return strings.Join(s, ", ")
	}
	var plain routeAnswer
	code, body := get("")
	if code != 200 || json.Unmarshal([]byte(body), &plain) != nil {
		t.Fatalf("%d %s", code, body)
	}
	for _, c := range []struct {
		q, departure, streets string
	}{
		// Monday 30 November 2026, 08:30 local (07:30 UTC): the slow hour.
		{"departure_time=2026-11-30T07:30:00Z", "2026-11-30T08:30:00+01:00", "Lead Road, Main Street, Bypass Lane, Main Street, Exit Road"},
		{"departure_time=2026-11-30T08:30:00%2B01:00", "2026-11-30T08:30:00+01:00", "Lead Road, Main Street, Bypass Lane, Main Street, Exit Road"},
		// 07:59:30 local: the car reaches Main Street's slow stretch
		// after 08:00, so the time-dependent route takes the bypass (a
		// time-bucketed one would read 07:00 for the whole trip).
		{"departure_time=2026-11-30T06:59:30Z", "2026-11-30T07:59:30+01:00", "Lead Road, Main Street, Bypass Lane, Main Street, Exit Road"},
		// 09:30 local: Main Street as without a time.
		{"departure_time=2026-11-30T08:30:00Z", "2026-11-30T09:30:00+01:00", "Lead Road, Main Street, Exit Road"},
		// Tuesday 08:30: hour 32, unchanged.
		{"departure_time=2026-12-01T07:30:00Z", "2026-12-01T08:30:00+01:00", "Lead Road, Main Street, Exit Road"},
	} {
		code, body := get(c.q)
		var a routeAnswer
		if code != 200 || json.Unmarshal([]byte(body), &a) != nil {
			t.Fatalf("%s: %d %s", c.q, code, body)
		}
		if a.DepartureTime != c.departure || a.TimeZone != "Africa/Libreville" || a.SpeedVersion != d.Version || streets(a) != c.streets || a.TimeModel != "time-dependent" {
			t.Errorf("%s: departure %s zone %s version %s streets %s model %q", c.q, a.DepartureTime, a.TimeZone, a.SpeedVersion, streets(a), a.TimeModel)
		}
		arr, _ := time.Parse(time.RFC3339, a.ArrivalTime)
		dep, _ := time.Parse(time.RFC3339, a.DepartureTime)
		if arr.Sub(dep) != time.Duration(a.DurationS)*time.Second {
			t.Errorf("%s: %s to %s is not %d s", c.q, a.DepartureTime, a.ArrivalTime, a.DurationS)
		}
		if strings.Contains(c.streets, "Bypass") != (a.DurationS > plain.DurationS) {
			t.Errorf("%s: %d s, plain %d s", c.q, a.DurationS, plain.DurationS)
		}
	}
	// A metric that is not a travel time is time-bucketed.
	code, body = get("routing=shortest&departure_time=2026-11-30T07:30:00Z")
	var sh routeAnswer
	if code != 200 || json.Unmarshal([]byte(body), &sh) != nil || sh.TimeModel != "time-bucketed" {
		t.Errorf("shortest: %d %s", code, body)
	}
	// Arriving at 08:31 local: leaving about 08:28, in the slow hour.
	code, body = get("arrival_time=2026-11-30T08:31:00%2B01:00")
	var a routeAnswer
	if code != 200 || json.Unmarshal([]byte(body), &a) != nil {
		t.Fatalf("arrival: %d %s", code, body)
	}
	if a.ArrivalTime != "2026-11-30T08:31:00+01:00" || !strings.Contains(streets(a), "Bypass") {
		t.Errorf("arrival: %s -> %s by %s", a.DepartureTime, a.ArrivalTime, streets(a))
	}
	for _, c := range []struct{ q, msg string }{
		{"departure_time=yesterday", `departure_time: \"yesterday\" is not an RFC 3339 time`},
		{"departure_time=1960-01-01T00:00:00Z", "departure_time: 1960-01-01T00:00:00Z is before 1970"},
		{"departure_time=2030-01-01T00:00:00Z", "departure_time: 2030-01-01T00:00:00Z is more than 366 days away"},
		{"arrival_time=2026-13-01T00:00:00Z", `arrival_time: \"2026-13-01T00:00:00Z\" is not an RFC 3339 time`},
		{"departure_time=now&arrival_time=now", "give one of them, not both"},
		{"departure_time=", "departure_time: is empty"},
	} {
		code, body := get(c.q)
		if code != 400 || !strings.Contains(body, c.msg) {
			t.Errorf("%s: %d %s, want 400 with %q", c.q, code, body, c.msg)
		}
	}
}
