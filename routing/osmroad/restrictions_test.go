package osmroad

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"
	"github.com/paulmach/osm/osmxml"
)

// describeWay renders the via-way restrictions as lines naming vertices
// by OSM node id: the path's vertices in driving order, then the to
// edges' far vertices.
func describeWay(net *Network, ids map[orb.Point]int64) []string {
	vname := func(v uint32) string { return fmt.Sprint(ids[net.Vertices[v]]) }
	ends := func(d DirEdge) (tail, head uint32) {
		e := net.Edges[d.Edge]
		if d.Reverse {
			return e.To, e.From
		}
		return e.From, e.To
	}
	var out []string
	for _, r := range net.WayRestrictions {
		tail, _ := ends(r.Path[0])
		path := []string{vname(tail)}
		for _, d := range r.Path {
			_, h := ends(d)
			path = append(path, vname(h))
		}
		var tos []string
		for _, d := range r.To {
			_, h := ends(d)
			tos = append(tos, vname(h))
		}
		slices.Sort(tos)
		line := fmt.Sprintf("%s to %s %s only=%v", strings.Join(path, "-"), strings.Join(tos, ","), r.Kind, r.Only)
		if r.Cond != nil {
			line += " when " + describeCond(r.Cond)
		}
		out = append(out, line)
	}
	slices.Sort(out)
	return out
}

// TestWayRestrictionFixtures maps the via-way fixtures of testdata (see
// their comments): the paths of directed edges, the to edges, and the
// report's counts.
func TestWayRestrictionFixtures(t *testing.T) {
	tests := []struct {
		file string
		want []string
		// applied, via way, not for cars, conditional, skipped
		counts [5]int
	}{
		{"via_way_no.osm", []string{"5-2-3 to 6 no_right_turn only=false"}, [5]int{1, 1, 0, 0, 0}},
		{"via_way_only.osm", []string{"5-2-3 to 4 only_straight_on only=true"}, [5]int{1, 1, 0, 0, 0}},
		{"via_way_two.osm", []string{"5-2-9-3 to 6 no_right_turn only=false"}, [5]int{1, 1, 0, 0, 0}},
		{"via_way_froms.osm", []string{"1-2-3 to 6 no_right_turn only=false", "5-2-3 to 6 no_right_turn only=false"}, [5]int{1, 1, 0, 0, 0}},
		{"via_way_tos.osm", []string{"5-2-3 to 4,6 no_right_turn only=false"}, [5]int{1, 1, 0, 0, 0}},
		// 919's conditional value applies by time: Monday to Friday
		// 07:00-09:00 (minutes of the week from Monday 00:00).
		{"via_way_vehicles.osm", []string{"1-2-3 to 4 no_straight_on only=false when [420-540 1860-1980 3300-3420 4740-4860 6180-6300]", "5-2-3 to 6 no_right_turn only=false"}, [5]int{2, 2, 2, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			net, ids := fixture(t, tc.file)
			if got := describeWay(net, ids); !slices.Equal(got, tc.want) {
				t.Errorf("way restrictions:\ngot\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
			r := net.Report
			got := [5]int{r.RestrictionsApplied, r.RestrictionsViaWay, r.RestrictionsNotCar, r.RestrictionsConditional, r.RestrictionsSkipped}
			if got != tc.counts {
				t.Errorf("applied, via way, not for cars, conditional, skipped = %v, want %v", got, tc.counts)
			}
			if len(net.Restrictions) != 0 {
				t.Errorf("%d via-node restrictions, want none", len(net.Restrictions))
			}
		})
	}
}

// skipFixture is the via-way fixture's roads (via_way_no.osm) with
// relations that cannot apply, each for one reason, and two that apply
// to several from ways at a via node.
const skipFixture = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6" generator="geosvc test">
  <node id="1" lat="0.001" lon="9.998"/>
  <node id="2" lat="0.001" lon="10.001"/>
  <node id="9" lat="0.001" lon="10.0015"/>
  <node id="3" lat="0.001" lon="10.002"/>
  <node id="4" lat="0.001" lon="10.005"/>
  <node id="5" lat="0.000" lon="10.001"/>
  <node id="6" lat="0.000" lon="10.002"/>
  <node id="7" lat="0.003" lon="10.001"/>
  <node id="8" lat="0.003" lon="10.002"/>
  <way id="101"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/></way>
  <way id="102"><nd ref="2"/><nd ref="9"/><nd ref="3"/><tag k="highway" v="residential"/></way>
  <way id="103"><nd ref="3"/><nd ref="4"/><tag k="highway" v="residential"/></way>
  <way id="104"><nd ref="5"/><nd ref="2"/><tag k="highway" v="residential"/></way>
  <way id="105"><nd ref="3"/><nd ref="6"/><tag k="highway" v="residential"/></way>
  <way id="106"><nd ref="2"/><nd ref="7"/><nd ref="8"/><nd ref="3"/><tag k="highway" v="residential"/></way>
  <way id="108"><nd ref="3"/><nd ref="9"/><tag k="highway" v="residential"/><tag k="oneway" v="yes"/></way>
  <way id="109"><nd ref="6"/><nd ref="99"/><tag k="highway" v="residential"/></way>
  <way id="110"><nd ref="5"/><nd ref="6"/><tag k="highway" v="footway"/></way>
  <relation id="1"><member type="way" ref="104" role="from"/><member type="node" ref="2" role="via"/>
    <tag k="type" v="restriction"/><tag k="restriction" v="no_left_turn"/></relation>
  <relation id="2"><member type="way" ref="104" role="from"/><member type="way" ref="102" role="to"/>
    <tag k="type" v="restriction"/><tag k="restriction" v="no_left_turn"/></relation>
  <relation id="3"><member type="way" ref="104" role="from"/><member type="way" ref="105" role="via"/><member type="way" ref="103" role="to"/>
    <tag k="type" v="restriction"/><tag k="restriction" v="no_left_turn"/></relation>
  <relation id="4"><member type="way" ref="102" role="from"/><member type="way" ref="108" role="via"/><member type="way" ref="105" role="to"/>
    <tag k="type" v="restriction"/><tag k="restriction" v="no_left_turn"/></relation>
  <relation id="5"><member type="way" ref="104" role="from"/><member type="way" ref="110" role="via"/><member type="way" ref="105" role="to"/>
    <tag k="type" v="restriction"/><tag k="restriction" v="no_left_turn"/></relation>
  <relation id="6"><member type="way" ref="104" role="from"/><member type="way" ref="109" role="via"/><member type="way" ref="105" role="to"/>
    <tag k="type" v="restriction"/><tag k="restriction" v="no_left_turn"/></relation>
  <relation id="7"><member type="way" ref="104" role="from"/><member type="way" ref="101" role="from"/><member type="node" ref="2" role="via"/><member type="way" ref="106" role="to"/>
    <tag k="type" v="restriction"/><tag k="restriction" v="no_left_turn"/></relation>
  <relation id="8"><member type="way" ref="103" role="from"/><member type="way" ref="104" role="from"/><member type="node" ref="3" role="via"/><member type="way" ref="105" role="to"/>
    <tag k="type" v="restriction"/><tag k="restriction" v="no_right_turn"/></relation>
  <relation id="9"><member type="way" ref="102" role="from"/><member type="node" ref="9" role="via"/><member type="way" ref="102" role="to"/>
    <tag k="type" v="restriction"/><tag k="restriction" v="no_u_turn"/></relation>
  <relation id="10"><member type="way" ref="104" role="from"/><member type="node" ref="2" role="via"/><member type="node" ref="3" role="via"/><member type="way" ref="105" role="to"/>
    <tag k="type" v="restriction"/><tag k="restriction" v="no_left_turn"/></relation>
  <relation id="11"><member type="way" ref="104" role="from"/><member type="way" ref="102" role="to"/>
    <tag k="type" v="restriction"/><tag k="restriction" v="give_way"/></relation>
</osm>
`

// TestRestrictionSkips: every relation is applied or skipped with its
// reason in the report, and several from ways at a via node give a
// record per from way that reaches it.
func TestRestrictionSkips(t *testing.T) {
	path := t.TempDir() + "/skips.osm"
	if err := os.WriteFile(path, []byte(skipFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	net, err := Read(path, carProfile(t))
	if err != nil {
		t.Fatal(err)
	}
	checkNetwork(t, net)
	r := net.Report
	want := map[string]int{
		skipNoFromTo:     1, // 1
		skipNoVia:        1, // 2
		skipNotConnected: 1, // 3: Turn Street does not join South Street
		skipViaWayOneway: 1, // 4: from Via Street at Z, 108 is one-way from Y to Z
		skipViaWayNotCar: 1, // 5: a footway
		skipViaWayCut:    1, // 6: node 99 is missing
		skipSeveralVia:   1, // 10
		skipUnknownKind:  1, // 11
	}
	if !maps.Equal(r.RestrictionsSkippedBy, want) {
		t.Errorf("skipped by reason %v, want %v", r.RestrictionsSkippedBy, want)
	}
	if r.RestrictionsRead != 11 || r.RestrictionsApplied != 3 || r.RestrictionsSkipped != 8 {
		t.Errorf("read %d applied %d skipped %d, want 11, 3, 8", r.RestrictionsRead, r.RestrictionsApplied, r.RestrictionsSkipped)
	}
	// 7: both from ways end at X; 8: East Street's edge reaches Y, South
	// Street does not (a partial restriction); 9: the U-turn at Z on both
	// edges of Via Street, not the straight on through it (Z is a vertex
	// as a via node).
	_, _, rs := describe(net, mapIDs(t, path))
	wantRs := []string{
		"1-2/101 via 2 to 2-3/106 no_left_turn only=false",
		"2-9/102 via 9 to 2-9/102 no_u_turn only=false",
		"3-4/103 via 3 to 3-6/105 no_right_turn only=false",
		"5-2/104 via 2 to 2-3/106 no_left_turn only=false",
		"9-3/102 via 9 to 9-3/102 no_u_turn only=false",
	}
	if !slices.Equal(rs, wantRs) {
		t.Errorf("restrictions:\ngot\n  %s\nwant\n  %s", strings.Join(rs, "\n  "), strings.Join(wantRs, "\n  "))
	}
	if !strings.Contains(r.String(), "turn restrictions  11 read: 3 applied (0 via way), 0 not for this vehicle, 0 conditional (ignored), 8 skipped") {
		t.Errorf("report:\n%s", r)
	}
}

// mapIDs returns the OSM node ids of an OSM XML file by coordinates.
func mapIDs(t *testing.T, path string) map[orb.Point]int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids := map[orb.Point]int64{}
	s := osmxml.New(context.Background(), f)
	defer s.Close()
	for s.Scan() {
		if n, ok := s.Object().(*osm.Node); ok {
			ids[n.Point()] = int64(n.ID)
		}
	}
	return ids
}

// describeCond renders a condition as its closed minutes of the week
// ("420-540 ...") and "!" when it holds without a time.
func describeCond(c *TurnCond) string {
	var parts []string
	for _, s := range c.Closed {
		parts = append(parts, fmt.Sprintf("%d-%d", s.From, s.To))
	}
	out := "[" + strings.Join(parts, " ") + "]"
	if c.NoTime {
		out += "!"
	}
	return out
}
