package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"

	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/isochrone"
)

// TestIsochroneV1DepartureTime: on timedGraph (alternatives.osm, in
// Gabon, UTC+1, with Main Street's segment at 5 km/h on Mondays from
// 08:00 to 08:59 local) the reached roads of a departure_time are
// routing's own for the bucket of the hour read in the origin's zone:
// the slow hour reaches less than the plain search, another hour the
// same; the answer says the local time, zone and speed version.
func TestIsochroneV1DepartureTime(t *testing.T) {
	srv, key, d, g := timedRouteServer(t)
	origin := orb.Point{10.0001, 0}
	get := func(q string) (int, isoAnswer, string) {
		req := httptest.NewRequest(http.MethodGet, "/isochronev1/isochrone?x=10.0001&y=0&contours=1&polygons=false"+q, nil)
		req.Header.Set(headerAPIKey, key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var a isoAnswer
		_ = json.Unmarshal(rec.Body.Bytes(), &a)
		return rec.Code, a, rec.Body.String()
	}
	// oracle is the length of the roads routing reaches within a minute
	// at hour h of the week (-1: no time).
	oracle := func(h int) float64 {
		spec := routing.Fastest
		if h >= 0 {
			spec, _ = g.AtHour(spec, h)
		}
		s := g.Snap(spec, origin, 0)
		cs, err := isochrone.Compute(context.Background(), g, s, isochrone.Request{Metric: spec, Quantity: routing.QuantityTime, Contours: []float64{60}, Lines: true})
		if err != nil || len(cs) != 1 {
			t.Fatalf("hour %d: %v", h, err)
		}
		return linesLength(cs[0].Geometry)
	}
	answered := func(a isoAnswer) float64 {
		if len(a.Features) != 1 || a.Features[0].Geometry == nil {
			t.Fatalf("features %+v", a.Features)
		}
		return linesLength(a.Features[0].Geometry.Geometry())
	}
	_, plainAns, _ := get("")
	plain := answered(plainAns)
	if p := plainAns.Features[0].Properties; p.DepartureTime != "" || p.SpeedVersion != "" {
		t.Errorf("no departure_time, yet properties %+v", p)
	}
	for _, c := range []struct {
		name, q, local string
		hour           int
		slower         bool
	}{
		{"Monday 08:30 local, the slow hour", "&departure_time=2026-11-30T07:30:00Z", "2026-11-30T08:30:00+01:00", 8, true},
		{"Monday 09:30 local", "&departure_time=2026-11-30T08:30:00Z", "2026-11-30T09:30:00+01:00", 9, false},
		{"Tuesday 08:30 local", "&departure_time=2026-12-01T08:30:00%2B01:00", "2026-12-01T08:30:00+01:00", 32, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, a, body := get(c.q)
			if code != http.StatusOK {
				t.Fatalf("%d %s", code, body)
			}
			p := a.Features[0].Properties
			if p.DepartureTime != c.local || p.TimeZone != "Africa/Libreville" || p.SpeedVersion != d.Version {
				t.Errorf("properties %+v, want %s in Africa/Libreville on %s", p, c.local, d.Version)
			}
			got, want := answered(a), oracle(c.hour)
			if diff := got - want; diff > 1 || diff < -1 {
				t.Errorf("reached %.1f m of road, routing at hour %d %.1f m", got, c.hour, want)
			}
			if c.slower != (got < plain-1) {
				t.Errorf("reached %.1f m, %.1f m without a time: slower %v", got, plain, c.slower)
			}
		})
	}
	for _, q := range []string{"&departure_time=yesterday", "&departure_time=1969-12-31T23:00:00Z", "&departure_time="} {
		if code, _, body := get(q); code != http.StatusBadRequest || !json.Valid([]byte(body)) || !strings.Contains(body, "departure_time") {
			t.Errorf("%s: %d %s, want a 400 naming departure_time", q, code, body)
		}
	}
}

// linesLength is the length in metres of a MultiLineString (0 for any
// other geometry).
func linesLength(g orb.Geometry) float64 {
	ml, ok := g.(orb.MultiLineString)
	if !ok {
		return 0
	}
	var m float64
	for _, l := range ml {
		m += geo.Length(l)
	}
	return m
}
