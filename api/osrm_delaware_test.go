package api

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// delawarePoints are points across Delaware: Newark, Wilmington,
// Middletown, Dover, Milford, Lewes.
var delawarePoints = []orb.Point{{-75.75, 39.68}, {-75.55, 39.74}, {-75.654, 39.614}, {-75.72, 39.45}, {-75.52, 39.16}, {-75.43, 38.91}, {-75.14, 38.77}}

// coordsPath writes points as OSRM's coordinates segment.
func coordsPath(pts []orb.Point) string {
	var parts []string
	for _, p := range pts {
		parts = append(parts, fmt.Sprintf("%g,%g", p[0], p[1]))
	}
	return strings.Join(parts, ";")
}

// TestOSRMDelaware checks the OSRM answers against routing's own on
// Delaware: table cells are Graph.Matrix's, routes Graph.Route's (each
// leg's duration and distance within 1 s and 1 m of the route's whole
// seconds and metres, its geometry the route's), a trip visits every
// point once at a cost no higher than the points' own order, and
// nearest lists distinct roads nearest first.
func TestOSRMDelaware(t *testing.T) {
	g := routingtest.Extract(t, "delaware")
	s := newOSRMServer(t, g, OSRMLimits{})
	ctx := context.Background()
	snaps := g.SnapAll(routing.Fastest, delawarePoints, routing.MaxSnapRadiusM)

	t.Run("table", func(t *testing.T) {
		code, body := s.get(t, "/osrm/table/v1/driving/"+coordsPath(delawarePoints)+"?annotations=duration,distance&sources=0;1;2&destinations=3;4;5;6;1")
		var a osrmTableAnswer
		if err := json.Unmarshal([]byte(body), &a); err != nil || code != 200 || a.Code != "Ok" {
			t.Fatalf("%d %s", code, body)
		}
		src, dst := []int{0, 1, 2}, []int{3, 4, 5, 6, 1}
		pick := func(idx []int) []routing.Snap {
			var out []routing.Snap
			for _, k := range idx {
				out = append(out, snaps[k])
			}
			return out
		}
		tab, err := g.Matrix(ctx, routing.Fastest, pick(src), pick(dst))
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Durations) != 3 || len(a.Distances) != 3 || len(a.Sources) != 3 || len(a.Destinations) != 5 {
			t.Fatalf("shape: %s", body)
		}
		for i := range src {
			for j := range dst {
				d, m := tab.At(i, j)
				if a.Durations[i][j] == nil || *a.Durations[i][j] != float64(d) || *a.Distances[i][j] != float64(m) {
					t.Errorf("cell %d,%d: %v s %v m, routing %d s %d m", i, j, a.Durations[i][j], a.Distances[i][j], d, m)
				}
			}
		}
		if a.Sources[1].Location != round6pt(snaps[1].Point) || a.Destinations[4].Location != round6pt(snaps[1].Point) {
			t.Errorf("waypoints %+v %+v, snapped %v", a.Sources[1], a.Destinations[4], snaps[1].Point)
		}
		// scale_factor scales every duration.
		_, body = s.get(t, "/osrm/table/v1/driving/"+coordsPath(delawarePoints[:2])+"?scale_factor=2")
		var b osrmTableAnswer
		_ = json.Unmarshal([]byte(body), &b)
		d01, _ := tab.At(0, 4) // 0 -> 1
		if b.Durations == nil || *b.Durations[0][1] != float64(2*d01) || b.Distances != nil {
			t.Errorf("scale_factor=2: %s, want %d", body, 2*d01)
		}
	})

	t.Run("route", func(t *testing.T) {
		pts := delawarePoints[:3]
		code, body := s.get(t, "/osrm/route/v1/driving/"+coordsPath(pts)+"?overview=full&geometries=polyline6&steps=true")
		var a osrmRouteAnswer
		if err := json.Unmarshal([]byte(body), &a); err != nil || code != 200 || a.Code != "Ok" || len(a.Routes) != 1 {
			t.Fatalf("%d %s", code, body[:min(len(body), 500)])
		}
		var line []orb.Point
		for i, leg := range a.Routes[0].Legs {
			rt, err := g.Route(ctx, routing.Fastest, snaps[i], snaps[i+1])
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(leg.Duration-float64(rt.DurationS)) > 1 || math.Abs(leg.Distance-float64(rt.DistanceM)) > 1 {
				t.Errorf("leg %d: %v s %v m, routing %d s %d m", i, leg.Duration, leg.Distance, rt.DurationS, rt.DistanceM)
			}
			steps := rt.Steps()
			if len(leg.Steps) != len(steps) || leg.Steps[0].Maneuver.Type != "depart" || leg.Steps[len(leg.Steps)-1].Maneuver.Type != "arrive" {
				t.Errorf("leg %d: %d steps, routing %d", i, len(leg.Steps), len(steps))
			}
			for k, st := range leg.Steps {
				if st.Name != steps[k].Street || st.Maneuver.Location != round6pt(steps[k].Point) {
					t.Errorf("leg %d step %d: %q at %v, routing %q at %v", i, k, st.Name, st.Maneuver.Location, steps[k].Street, steps[k].Point)
				}
			}
			for k, p := range rt.Geometry {
				if k == 0 && len(line) > 0 && line[len(line)-1] == p {
					continue
				}
				line = append(line, p)
			}
		}
		got, err := decodePolyline(a.Routes[0].Geometry.(string), 6)
		if err != nil || len(got) != len(line) {
			t.Fatalf("geometry of %d points (%v), routing %d", len(got), err, len(line))
		}
		for k := range line {
			if math.Abs(got[k][0]-line[k][0]) > 1e-6 || math.Abs(got[k][1]-line[k][1]) > 1e-6 {
				t.Fatalf("point %d: %v, routing %v", k, got[k], line[k])
			}
		}
		// alternatives=2 between two points: the main route first, then
		// Graph.Alternatives' others.
		_, body = s.get(t, "/osrm/route/v1/driving/"+coordsPath(pts[:2])+"?alternatives=2&overview=false")
		var b osrmRouteAnswer
		_ = json.Unmarshal([]byte(body), &b)
		alts, err := g.Alternatives(ctx, routing.Fastest, snaps[0], snaps[1], 3)
		if err != nil || len(b.Routes) != len(alts) {
			t.Fatalf("%d routes, routing %d (%v)", len(b.Routes), len(alts), err)
		}
		for i, r := range b.Routes {
			if math.Abs(r.Duration-float64(alts[i].DurationS)) > 1 {
				t.Errorf("route %d: %v s, routing %d s", i, r.Duration, alts[i].DurationS)
			}
		}
	})

	t.Run("trip", func(t *testing.T) {
		pts := delawarePoints[:6]
		for _, q := range []string{"", "?roundtrip=true&source=first&destination=last", "?roundtrip=false&source=first&destination=last", "?roundtrip=false&source=first", "?roundtrip=false&destination=last"} {
			code, body := s.get(t, "/osrm/trip/v1/driving/"+coordsPath(pts)+q)
			var a osrmTripAnswer
			if err := json.Unmarshal([]byte(body), &a); err != nil || code != 200 || a.Code != "Ok" || len(a.Trips) != 1 || len(a.Waypoints) != len(pts) {
				t.Fatalf("%s: %d %s", q, code, body[:min(len(body), 300)])
			}
			order := make([]int, len(pts))
			for k, w := range a.Waypoints {
				order[*w.WaypointIndex] = k
			}
			sorted := slices.Clone(order)
			slices.Sort(sorted)
			if !slices.Equal(sorted, []int{0, 1, 2, 3, 4, 5}) {
				t.Fatalf("%s: waypoint places %v", q, order)
			}
			round := !strings.Contains(q, "roundtrip=false")
			if strings.Contains(q, "source=first") && order[0] != 0 || strings.Contains(q, "destination=last") && order[len(order)-1] != 5 {
				t.Errorf("%s: order %v", q, order)
			}
			cost := func(order []int) float64 {
				var c float64
				for k := 0; k+1 < len(order); k++ {
					rt, _ := g.Route(ctx, routing.Fastest, snaps[order[k]], snaps[order[k+1]])
					c += float64(rt.DurationS)
				}
				if round {
					rt, _ := g.Route(ctx, routing.Fastest, snaps[order[len(order)-1]], snaps[order[0]])
					c += float64(rt.DurationS)
				}
				return c
			}
			wantLegs := len(pts) - 1
			if round {
				wantLegs++
			}
			if got := cost(order); len(a.Trips[0].Legs) != wantLegs || math.Abs(a.Trips[0].Duration-got) > float64(wantLegs) {
				t.Errorf("%s: %d legs, %v s; the order's routes %v s", q, len(a.Trips[0].Legs), a.Trips[0].Duration, got)
			}
			if plain := cost([]int{0, 1, 2, 3, 4, 5}); a.Trips[0].Duration > plain+float64(wantLegs) {
				t.Errorf("%s: trip %v s is longer than the input order's %v s", q, a.Trips[0].Duration, plain)
			}
		}
	})

	t.Run("nearest", func(t *testing.T) {
		code, body := s.get(t, "/osrm/nearest/v1/driving/-75.55,39.74?number=4")
		var a osrmNearestAnswer
		if err := json.Unmarshal([]byte(body), &a); err != nil || code != 200 || len(a.Waypoints) != 4 {
			t.Fatalf("%d %s", code, body)
		}
		first := g.Snap(routing.Fastest, orb.Point{-75.55, 39.74}, routing.MaxSnapRadiusM)
		if a.Waypoints[0].Location != round6pt(first.Point) {
			t.Errorf("first %v, Snap %v", a.Waypoints[0].Location, first.Point)
		}
		for k := 1; k < len(a.Waypoints); k++ {
			if a.Waypoints[k].Distance < a.Waypoints[k-1].Distance || a.Waypoints[k].Hint == a.Waypoints[k-1].Hint {
				t.Errorf("waypoints not distinct roads nearest first: %s", body)
			}
		}
	})
}
