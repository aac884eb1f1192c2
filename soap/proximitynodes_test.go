package soap

import (
	"encoding/xml"
	"sort"
	"strings"
	"testing"
)

// TestProximityNodes: junctions of the crossing fixture
// (routing/testdata/no_left_turn.osm) around P (10.0005, 0.001), halfway
// between W and X on West Street. The junctions are X (four roads), W
// (three: West Street twice and the Diagonal) and the dead ends W2, S and
// E; N, where North Street meets the Diagonal, joins two roads only.
// Straight and by road, X and W are 55.6 m from P, W2, E 166.8 m (S is
// 124.3 m away in a straight line, 166.8 m by road).
// Back to P: X, W, W2 and E by the way they came; S only round the
// banned left turn at X: a U-turn at the dead end E (S-X-E-X-W-P,
// 389.2 m, 3 x 16.0121 + 8.006 s and a U-turn's 20 s penalty and more)
// or by N and the Diagonal (435.2 m, 62.7 s and more).
func TestProximityNodes(t *testing.T) {
	f := newFixture(t, false)
	g := crossingGraph(t)
	f.setGraph(g)
	type hit struct{ name, typ, radius, time string }
	var (
		x  = hit{"South Street / North Street / East Street / West Street", "junction", "56", ""}
		w  = hit{"West Street / Diagonal", "junction", "56", ""}
		w2 = hit{"West Street", "dead end", "167", ""}
		e  = hit{"East Street", "dead end", "167", ""}
		s  = hit{"South Street", "dead end", "124", ""}
	)
	timed := func(h hit, radius, minutes string) hit { h.radius, h.time = radius, minutes; return h }
	for _, tc := range []struct {
		name, nodeType, searchType, max string
		want                            []hit
	}{
		{"node radius", "Node", "Radius", "100", []hit{x, w}},
		{"node radius wider", "Node", "Radius", "200", []hit{x, w, s, w2, e}},
		// By road: S is 55.6 + 111.2 m away.
		{"node road distance", "Node", "RoadDistance", "300", []hit{timed(x, "56", "0.1"), timed(w, "56", "0.1"), timed(w2, "167", "0.4"), timed(e, "167", "0.4"), timed(s, "167", "0.4")}},
		// Driving times: X and W 8.0 s; W2 and E 24.0 s (straight on
		// at W or X); S 26.1 s (right at X, 2.1053 s).
		{"node road time", "Node", "RoadTimeMinutes", "1", []hit{timed(x, "56", "0.1"), timed(w, "56", "0.1"), timed(w2, "167", "0.4"), timed(e, "167", "0.4"), timed(s, "167", "0.4")}},
		// S is 389.2 m and over a minute back: not reachable.
		{"reachable road distance", "ReachableNode", "RoadDistance", "300", []hit{timed(x, "56", "0.1"), timed(w, "56", "0.1"), timed(w2, "167", "0.4"), timed(e, "167", "0.4")}},
		{"reachable road time", "ReachableNode", "RoadTimeMinutes", "1", []hit{timed(x, "56", "0.1"), timed(w, "56", "0.1"), timed(w2, "167", "0.4"), timed(e, "167", "0.4")}},
		{"reachable radius", "ReachableNode", "Radius", "300", []hit{x, w, w2, e}},
		// Back by the U-turn at E: 389.2 m.
		{"reachable road distance 400", "ReachableNode", "RoadDistance", "400", []hit{timed(x, "56", "0.1"), timed(w, "56", "0.1"), timed(w2, "167", "0.4"), timed(e, "167", "0.4"), timed(s, "167", "0.4")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := proximitySimpleBody(f.key, map[string]string{"X": "10.0005", "Y": "0.001", "NodeType": tc.nodeType, "SearchType": tc.searchType, "MaxDistanceMeters": tc.max})
			rec := f.post("text/xml", envelope11(body))
			var env struct {
				Locs []locationInput `xml:"Body>ProximitySimpleResponse>ProximitySimpleResult>LocationInput"`
			}
			if err := xml.Unmarshal(rec.Body.Bytes(), &env); err != nil {
				t.Fatal(err)
			}
			var got, want []string
			for _, l := range env.Locs {
				got = append(got, strings.Join([]string{l.Name, l.Type, l.Radius, l.Time}, "|"))
				if !strings.HasPrefix(l.FID, "vertex/") || l.X == "" || l.Encoding != encodingWGS84 {
					t.Errorf("location %+v", l)
				}
			}
			for _, h := range tc.want {
				want = append(want, strings.Join([]string{h.name, h.typ, h.radius, h.time}, "|"))
			}
			// Equal distances may come in either order.
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for i := 1; i < len(env.Locs); i++ {
				if len(env.Locs[i-1].Radius) > len(env.Locs[i].Radius) || len(env.Locs[i-1].Radius) == len(env.Locs[i].Radius) && env.Locs[i-1].Radius > env.Locs[i].Radius {
					t.Errorf("not nearest first: %s before %s", env.Locs[i-1].Radius, env.Locs[i].Radius)
				}
			}
		})
	}
	// MaxNofResults keeps the nearest.
	rec := f.post("text/xml", envelope11(proximitySimpleBody(f.key, map[string]string{"X": "10.0005", "Y": "0.001", "NodeType": "Node", "SearchType": "RoadDistance", "MaxDistanceMeters": "300", "MaxNofResults": "2"})))
	var env struct {
		Locs []locationInput `xml:"Body>ProximitySimpleResponse>ProximitySimpleResult>LocationInput"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &env); err != nil || len(env.Locs) != 2 || env.Locs[0].Radius != "56" || env.Locs[1].Radius != "56" {
		t.Errorf("two nearest: %+v %v", env.Locs, err)
	}
}
