package routing

import (
	"path/filepath"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/osmroad"
)

// TestDrivingSideByCountry: on testdata/driving_side.osm (see its
// comment) a curb point on the British street is reached and left with it
// on the left, one on the French street with it on the right, in one
// graph built with the car profile (driving_side: right), while the
// unrestricted routes arrive the other way.
func TestDrivingSideByCountry(t *testing.T) {
	prof := carProfile(t)
	path := filepath.Join("testdata", "driving_side.osm")
	net, err := osmroad.Read(path, prof)
	if err != nil {
		t.Fatal(err)
	}
	if want := []osmroad.CountrySide{{ISO2: "GB", Left: true}}; len(net.Sides) != 1 || net.Sides[0] != want[0] {
		t.Fatalf("sides %+v, want %+v", net.Sides, want)
	}
	if n := net.Report.DrivingSidesIgnored; n != 1 {
		t.Errorf("DrivingSidesIgnored %d, want 1 (the relation without a code)", n)
	}
	g, rep, err := Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	if g.meta.DrivingSide != "right" || rep.LeftHandEdges != g.meta.LeftHandEdges {
		t.Errorf("meta side %q, left-hand edges %d (report %d)", g.meta.DrivingSide, g.meta.LeftHandEdges, rep.LeftHandEdges)
	}
	nodes := fixtureNodes(t, path)
	// A point 11 m north of the street, off its shape points (a leg of
	// the route from or to it then has a length).
	mid := func(a, b int64) orb.Point {
		return orb.Point{nodes[a][0] + 0.3*(nodes[b][0]-nodes[a][0]), nodes[a][1] + 0.0001}
	}
	for _, tc := range []struct {
		name     string
		point    orb.Point
		from     int64 // a node on the other side of the ferry
		leftHand bool
		kerb     string // the side of travel the point must be on
	}{
		{"Castle Street, Dover", mid(1, 3), 13, true, "left"},
		{"Rue Royale, Calais", mid(11, 13), 1, false, "right"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plain := g.Snap(Fastest, tc.point, 0)
			curb := g.SnapWith(Fastest, tc.point, 0, SnapOptions{Curb: true})
			if !plain.OK || !curb.OK || plain.Edge != curb.Edge {
				t.Fatalf("snapped %+v and %+v", plain, curb)
			}
			if got := g.edgeFlags[curb.Edge]&edgeLeftHand != 0; got != tc.leftHand {
				t.Errorf("edge %s left-hand %v, want %v", g.names[g.edgeName[curb.Edge]], got, tc.leftHand)
			}
			src := g.Snap(Fastest, nodes[tc.from], 0)
			rp, err := g.Route(bg, Fastest, src, plain)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := lastLeg(rp); sideOf(a, b, tc.point) == tc.kerb {
				t.Fatalf("the unrestricted route already arrives with the point on the %s: not a test", tc.kerb)
			}
			rc, err := g.Route(bg, Fastest, src, curb)
			if err != nil {
				t.Fatal(err)
			}
			if last := rc.Segments[len(rc.Segments)-1]; last.LeftHand != tc.leftHand {
				t.Errorf("the route's last segment (%s) says left-hand %v, want %v", last.Name, last.LeftHand, tc.leftHand)
			}
			if a, b := lastLeg(rc); sideOf(a, b, tc.point) != tc.kerb {
				t.Errorf("curb route arrives with the point on the %s, want %s", sideOf(a, b, tc.point), tc.kerb)
			}
			if rc.DurationS <= rp.DurationS {
				t.Errorf("curb route %d s, unrestricted %d s: the curb one turns round, it should be longer", rc.DurationS, rp.DurationS)
			}
			back, err := g.Route(bg, Fastest, curb, src)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := firstLeg(back); sideOf(a, b, tc.point) != tc.kerb {
				t.Errorf("curb origin leaves with the point on the %s, want %s", sideOf(a, b, tc.point), tc.kerb)
			}
		})
	}
}

// TestLeftHandEdges: the side of each edge from the countries an extract
// states and the profile's default, including edges the world layer
// places in no country (at sea), which take a neighbour's side.
func TestLeftHandEdges(t *testing.T) {
	// Three edges in a chain: Dover (GB), a stretch at sea, Calais (FR);
	// and a lone edge at sea.
	dover := []orb.Point{{1.250, 51.150}, {1.254, 51.150}}
	sea := []orb.Point{{1.254, 51.150}, {1.500, 51.050}}
	calais := []orb.Point{{1.900, 50.930}, {1.904, 50.930}}
	lone := []orb.Point{{0.0, 50.5}, {0.01, 50.5}}
	mk := func(sides []osmroad.CountrySide, def string) *osmroad.Network {
		net := &osmroad.Network{Vertices: make([]orb.Point, 6), Sides: sides, DrivingSide: def}
		for i, sh := range [][]orb.Point{dover, sea, calais, lone} {
			from, to := []uint32{0, 1, 2, 4}[i], []uint32{1, 2, 3, 5}[i]
			if i == 2 {
				from, to = 3, 2 // Calais joins the sea edge at its far end
			}
			start := uint32(len(net.Shape))
			net.Shape = append(net.Shape, sh...)
			net.Edges = append(net.Edges, osmroad.Edge{From: from, To: to, ShapeStart: start, ShapeEnd: uint32(len(net.Shape))})
		}
		return net
	}
	gbLeft := []osmroad.CountrySide{{ISO2: "GB", Left: true}}
	for _, tc := range []struct {
		name  string
		sides []osmroad.CountrySide
		def   string
		want  []bool // nil: right everywhere
		count int
	}{
		{"no country stated, right", nil, "right", nil, 0},
		{"no country stated, left profile", nil, "left", []bool{true, true, true, true}, 4},
		{"GB left in a right profile", gbLeft, "right", []bool{true, true, false, false}, 2},
		{"GB stated as the profile's side", gbLeft, "left", []bool{true, true, true, true}, 4},
		{"FR right in a left profile", []osmroad.CountrySide{{ISO2: "FR"}}, "left", []bool{true, true, false, true}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, n, err := leftHandEdges(mk(tc.sides, tc.def), tc.def)
			if err != nil {
				t.Fatal(err)
			}
			if n != tc.count {
				t.Errorf("count %d, want %d", n, tc.count)
			}
			if (got == nil) != (tc.want == nil) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range tc.want {
				if got[i] != tc.want[i] {
					t.Errorf("edge %d left %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}
