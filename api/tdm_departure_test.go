package api

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/speeds"
)

// graphComputer computes orders inline with routing's own matrix on g
// (the worker does the same through its engine: worker's tests).
type graphComputer struct{ g *routing.Graph }

func (c graphComputer) Ready() bool { return true }

func (c graphComputer) ComputeAll(ctx context.Context, spec *queue.Spec) ([]queue.ChunkResult, error) {
	m, err := routing.ParseMetric(spec.Routing)
	if err != nil {
		return nil, err
	}
	tab, err := c.g.Matrix(ctx, m, c.g.SnapAll(m, spec.Origins, 0), c.g.SnapAll(m, spec.Destinations, 0))
	if err != nil {
		return nil, err
	}
	out := make([]queue.ChunkResult, spec.Chunks)
	for ch := range out {
		lo, hi := spec.ChunkRange(ch)
		n := len(spec.Destinations)
		out[ch] = queue.ChunkResult{Durations: tab.Durations[lo*n : hi*n], Distances: tab.Distances[lo*n : hi*n],
			OriginSnaps: make([]float32, hi-lo), DestinationSnaps: make([]float32, n)}
	}
	return out, nil
}

// TestTDMDepartureTime: tdmv1 orders with a departure_time on
// alternatives.osm with speed data (Main Street's C1->C2 at 5 km/h at
// hour 8, Monday 08:00 local; the fixture lies in Africa/Libreville,
// UTC+1): the cell S -> T is the slow hour's route at 08:30 local and
// the plain one at 09:30; fetch answers the speed version, a live update
// gives new orders the new version; a bad time is a 400 naming the field.
func TestTDMDepartureTime(t *testing.T) {
	g, d := timedGraph(t)
	cur := bundle.NewCurrent(&bundle.Bundle{Graph: g, TimeZones: tzIndex(t)})
	cur.SetSpeeds(d)
	f := newTDMFixtureWith(t, 100, TDMOptions{Inline: graphComputer{g}, InlineCells: 100, Bundle: cur})
	S, T := "10.0001,0", "10.0099,0"
	order := func(dep string) map[string]any {
		body := `{"origin_addresses":["` + S + `"],"destination_addresses":["` + T + `"]`
		if dep != "" {
			body += `,"departure_time":"` + dep + `"`
		}
		id := f.order(t, body+"}")
		code, m := f.fetchJSON(t, f.key, id)
		if code != 200 || m["status"] != "Finished" {
			t.Fatalf("%s: %d %v", dep, code, m)
		}
		return m
	}
	cell := func(m map[string]any) float64 { return m["duration"].([]any)[0].([]any)[0].(float64) }
	want := func(hour int) float64 {
		m, _ := g.AtHour(routing.Fastest, hour)
		tab, err := g.Matrix(context.Background(), m, g.SnapAll(m, []orb.Point{{10.0001, 0}}, 0), g.SnapAll(m, []orb.Point{{10.0099, 0}}, 0))
		if err != nil {
			t.Fatal(err)
		}
		return float64(tab.Durations[0])
	}
	plain := order("")
	if _, ok := plain["speed_version"]; ok {
		t.Errorf("an order without departure_time has a speed_version: %v", plain)
	}
	slow := order("2026-11-30T07:30:00Z")
	later := order("2026-11-30T08:30:00Z")
	if slow["speed_version"] != d.Version || later["speed_version"] != d.Version {
		t.Errorf("speed versions %v and %v, want %s", slow["speed_version"], later["speed_version"], d.Version)
	}
	if cell(slow) != want(8) || cell(later) != cell(plain) || cell(slow) <= cell(plain) {
		t.Errorf("S -> T: %v s at 08:30, %v s at 09:30, %v s without a time; routing at hour 8: %v s", cell(slow), cell(later), cell(plain), want(8))
	}
	// fetch echoes the departure as resolved, local to the first origin
	// (Gabon: Africa/Libreville, UTC+1 all year), and the zone; an order
	// without one has neither.
	if slow["departure_time"] != "2026-11-30T08:30:00+01:00" || slow["time_zone"] != "Africa/Libreville" {
		t.Errorf("fetch: departure_time %v, time_zone %v; want 2026-11-30T08:30:00+01:00, Africa/Libreville", slow["departure_time"], slow["time_zone"])
	}
	if _, ok := plain["departure_time"]; ok {
		t.Errorf("an order without departure_time echoes one: %v", plain)
	}
	if _, ok := plain["time_zone"]; ok {
		t.Errorf("an order without departure_time has a time_zone: %v", plain)
	}
	// A job still Queued (no inline computation, no worker) answers them
	// too; "now" is the instant it was, at the bundle's clock.
	queued := newTDMFixtureWith(t, 100, TDMOptions{Bundle: cur})
	id := queued.order(t, `{"origin_addresses":["`+S+`"],"destination_addresses":["`+T+`"],"departure_time":"2026-12-01T23:30:00-05:00"}`)
	if code, m := queued.fetchJSON(t, queued.key, id); code != 200 || m["status"] != "Queued" ||
		m["departure_time"] != "2026-12-02T05:30:00+01:00" || m["time_zone"] != "Africa/Libreville" {
		t.Errorf("a Queued job: %d %v; want departure_time 2026-12-02T05:30:00+01:00, time_zone Africa/Libreville", code, m)
	}
	// A live update (C1->C2 at 100 km/h at hour 8): new orders take the
	// new version, faster than without a time.
	d2, _ := speeds.ParseCSV([]byte("3,4,100,,8\n"))
	cur.SetSpeeds(d2)
	if again := order("2026-11-30T07:30:00Z"); again["speed_version"] != d2.Version || cell(again) != want(8) || cell(again) >= cell(plain) {
		t.Errorf("after the update: %v", again)
	}
	for _, c := range []struct{ dep, reason string }{
		{"soon", "is not an RFC 3339 time"},
		{"1969-07-20T20:17:00Z", "before 1970"},
		{time.Now().AddDate(2, 0, 0).UTC().Format(time.RFC3339), "more than 366 days away"},
	} {
		rec := f.post("order", f.key, `{"origin_addresses":["`+S+`"],"destination_addresses":["`+T+`"],"departure_time":"`+c.dep+`"}`)
		var v validationError
		if rec.Code != 400 || json.Unmarshal(rec.Body.Bytes(), &v) != nil || len(v.Errors) != 1 || v.Errors[0].Field != "departure_time" || !strings.Contains(v.Errors[0].Reason, c.reason) {
			t.Errorf("%s: %d %s", c.dep, rec.Code, rec.Body)
		}
	}
}
