package routing

import (
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing/cch"
	"github.com/geosvc/geosvc/routing/profile"
)

// truck returns a truck metric of objective o with the default vehicle
// changed by set (API names and texts).
func truck(tb testing.TB, o Objective, set ...string) Metric {
	tb.Helper()
	m := Metric{Objective: o}
	m.SetProfile(ProfileTruck)
	for i := 0; i+1 < len(set); i += 2 {
		if err := m.Vehicle.Set(set[i], set[i+1]); err != nil {
			tb.Fatal(err)
		}
	}
	return m
}

// beyond returns the point m metres from a, on the side away from b.
func beyond(a, b orb.Point, m float64) orb.Point {
	d := geo.HaversineM(a, b)
	if d == 0 {
		return a
	}
	f := m / d
	return orb.Point{a[0] + (a[0]-b[0])*f, a[1] + (a[1]-b[1])*f}
}

// crossings returns, for every edge of edges, the two pairs of points
// 150 m beyond its ends (each way), snapped for a car.
func crossings(g *Graph, edges []uint32) [][2]Snap {
	var out [][2]Snap
	for _, e := range edges {
		sh := g.edgeShape(e)
		p := g.Snap(Fastest, beyond(sh[0], sh[1], 150), 0)
		q := g.Snap(Fastest, beyond(sh[len(sh)-1], sh[len(sh)-2], 150), 0)
		out = append(out, [2]Snap{p, q}, [2]Snap{q, p})
	}
	return out
}

// uses reports whether a route drives one of the edges.
func uses(r *Route, edges map[uint32]bool) (uint32, bool) {
	for _, s := range r.Segments {
		if edges[s.Edge] {
			return s.Edge, true
		}
	}
	return 0, false
}

// heightLimited returns the edges whose height limit is below cm, by id.
func heightLimited(g *Graph, cm uint32) map[uint32]bool {
	out := map[uint32]bool{}
	for k, e := range g.truckEdges {
		if h := g.truckLimits[k*numTruckLimits+limitHeight]; h > 0 && h < cm {
			out[e] = true
		}
	}
	return out
}

// TestTruckMaxheight: on Delaware, the railway underpasses of Wilmington
// tagged maxheight (South Market Street 13'7", South Tatnall Street
// 13'7", East 8th Street 13'10", East 7th Street 13'5", South French
// Street 13'2", 14th Street 12'8", ...) and the Dupont Parkway bridges
// (maxheight:physical 14 ft) are below 4.5 m. For every pair of points
// beyond the ends of such an edge whose car route drives it, a 4.5 m
// truck's route drives no edge lower than 4.5 m; a 3 m truck's route
// drives a limited edge on some of them.
func TestTruckMaxheight(t *testing.T) {
	g := testGraph(t, "delaware")
	low := heightLimited(g, 450)
	var names []string
	var edges []uint32
	for e := range low {
		edges = append(edges, e)
		names = append(names, g.names[g.edgeName[e]])
	}
	slices.Sort(edges)
	slices.Sort(names)
	names = slices.Compact(names)
	for _, want := range []string{"South Market Street", "South Tatnall Street", "East 8th Street", "East 7th Street", "South French Street", "14th Street", "North Dupont Parkway"} {
		if !slices.Contains(names, want) {
			t.Errorf("no edge of %s below 4.5 m (have %q)", want, names)
		}
	}
	tall, short := truck(t, ObjectiveFastest, "height_m", "4.5"), truck(t, ObjectiveFastest, "height_m", "3")
	carUses, shortUses, tallRoutes := 0, 0, 0
	for _, pq := range crossings(g, edges) {
		r, err := g.Route(bg, Fastest, pq[0], pq[1])
		if err != nil {
			continue
		}
		if _, ok := uses(r, low); !ok {
			continue
		}
		carUses++
		ts := g.SnapAll(tall, []orb.Point{pq[0].Input, pq[1].Input}, 0)
		if tr, err := g.Route(bg, tall, ts[0], ts[1]); err == nil {
			tallRoutes++
			if e, ok := uses(tr, low); ok {
				t.Fatalf("the 4.5 m truck drives %s (edge %d)", g.names[g.edgeName[e]], e)
			}
		} else if err != ErrNoRoute {
			t.Fatal(err)
		}
		ss := g.SnapAll(short, []orb.Point{pq[0].Input, pq[1].Input}, 0)
		if sr, err := g.Route(bg, short, ss[0], ss[1]); err == nil {
			if _, ok := uses(sr, low); ok {
				shortUses++
			}
		}
	}
	t.Logf("%d edges below 4.5 m on %d roads; %d car routes drive one, %d of the 3 m truck's; the 4.5 m truck has %d routes around", len(edges), len(names), carUses, shortUses, tallRoutes)
	if carUses < 10 || shortUses == 0 || tallRoutes < carUses/2 {
		t.Fatalf("%d car routes and %d 3 m truck routes drive a low edge", carUses, shortUses)
	}
}

// TestTruckHGVNo: in Porto, Rua da Chã, Rua Nova de Avilhó, Rua Monte de
// São Gens and Rua Soares dos Reis are hgv=no. No truck route between
// points beyond their ends drives an hgv=no edge, nor does any route of
// a 20 x 100 truck matrix's sample, while cars drive them.
func TestTruckHGVNo(t *testing.T) {
	g := testGraph(t, "porto_portugal")
	closed := map[uint32]bool{}
	var edges []uint32
	var names []string
	for e := range g.edgeTruck {
		for dir := uint32(0); dir < 2; dir++ {
			if g.hgvAccess(directedID(uint32(e), dir)) == profile.HGVNo && !closed[uint32(e)] {
				closed[uint32(e)] = true
				edges = append(edges, uint32(e))
				names = append(names, g.names[g.edgeName[e]])
			}
		}
	}
	for _, want := range []string{"Rua da Chã", "Rua Nova de Avilhó", "Rua Monte de São Gens", "Rua Soares dos Reis"} {
		if !slices.Contains(names, want) {
			t.Errorf("%s is not hgv=no (have %q)", want, names)
		}
	}
	tr := truck(t, ObjectiveFastest)
	carUses := 0
	for _, pq := range crossings(g, edges) {
		if r, err := g.Route(bg, Fastest, pq[0], pq[1]); err == nil {
			if _, ok := uses(r, closed); ok {
				carUses++
			}
		}
		ts := g.SnapAll(tr, []orb.Point{pq[0].Input, pq[1].Input}, 0)
		if r, err := g.Route(bg, tr, ts[0], ts[1]); err == nil {
			if e, ok := uses(r, closed); ok {
				t.Fatalf("a truck drives %s (edge %d, hgv=no)", g.names[g.edgeName[e]], e)
			}
		}
	}
	pts := roadPoints(g, 60, 3, 15)
	snaps := g.SnapAll(tr, inputs(pts), 0)
	for i := 0; i < 10; i++ {
		for j := 10; j < 60; j++ {
			if r, err := g.Route(bg, tr, snaps[i], snaps[j]); err == nil {
				if e, ok := uses(r, closed); ok {
					t.Fatalf("route %d,%d drives hgv=no edge %d", i, j, e)
				}
			}
		}
	}
	t.Logf("%d hgv=no edges (%q); %d car routes across them", len(edges), names, carUses)
	if carUses == 0 {
		t.Fatal("no car route drives an hgv=no edge: the test shows nothing")
	}
}

// truckOracle is an independent Dijkstra for a fastest truck metric: its
// own reading of the stored truck tags (closed nodes), its own truck
// times and destination penalties, the pair weights built from them.
type truckOracle struct {
	g      *Graph
	closed []bool
	ms     []int64
	w      []cch.Weight
}

func newTruckOracle(g *Graph, v Vehicle) *truckOracle {
	p := profile.DefaultTruck()
	b := &g.base
	n := len(b.nodeEdge)
	o := &truckOracle{g: g, closed: make([]bool, n), ms: make([]int64, n), w: make([]cch.Weight, len(b.turnHead))}
	limits := map[uint32][]uint32{}
	for k, e := range g.truckEdges {
		limits[e] = g.truckLimits[k*numTruckLimits : (k+1)*numTruckLimits]
	}
	mine := []float64{v.HeightM * 100, v.WidthM * 100, v.LengthM * 100, v.WeightT * 1000, v.AxleLoadT * 1000}
	dest := make([]bool, n)
	for x, id := range b.nodeEdge {
		e, bits := id/2, g.edgeTruck[id/2]
		acc := profile.HGVAccess(bits >> (3 * (id % 2)) & 7)
		o.closed[x] = acc == profile.HGVNo || v.Hazmat && bits>>6 != 0
		for i, l := range limits[e] {
			if l > 0 && math.Round(mine[i]) > float64(l) {
				o.closed[x] = true
			}
		}
		dest[x] = acc == profile.HGVDestination
		kmh := v.MaxSpeedKmh
		if c, ok := p.HighwaySpeedsKmh[g.classes[g.edgeClass[e]]]; ok && c < kmh {
			kmh = c
		}
		o.ms[x] = max(int64(b.nodeTime[x]), int64(math.Round(g.edgeLen[e]/(kmh/3.6)*1000)))
	}
	for x := 0; x < n; x++ {
		for i := b.turnFirst[x]; i < b.turnFirst[x+1]; i++ {
			h := b.turnHead[i]
			if o.closed[h] {
				o.w[i] = cch.Inf
				continue
			}
			t := int64(b.turnMS[i]) + o.ms[h]
			pen := int64(0)
			if dest[h] && !dest[x] {
				pen = int64(p.DestinationPenaltyS * 1000)
			}
			o.w[i] = cch.Weight{W: t + pen, S: weight(chFastest, t, int64(b.nodeDist[h]))}
		}
	}
	return o
}

func (o *truckOracle) phantoms(s Snap) []cchPhantom {
	var ph [2]phantom
	var out []cchPhantom
	for _, p := range o.g.withCopies(o.g.phantoms(chFastest, s, ph[:0])) {
		if o.closed[p.node] {
			continue
		}
		ms, dm := o.ms[p.node], int64(o.g.base.nodeDist[p.node])
		pms, pdm := int64(math.Round(float64(ms)*p.frac)), int64(math.Round(float64(dm)*p.frac))
		out = append(out, cchPhantom{node: p.node, whole: cch.Weight{W: ms, S: weight(chFastest, ms, dm)}, partial: cch.Weight{W: pms, S: weight(chFastest, pms, pdm)}})
	}
	return out
}

// TestTruckMatrixMatchesDijkstra: on Delaware, 20 x 100 matrices of the
// default truck, a 4.5 m hazmat truck at 60 km/h and a 3 m van equal the
// independent truck Dijkstra in every cell (weight, seconds, metres).
func TestTruckMatrixMatchesDijkstra(t *testing.T) {
	g := testGraph(t, "delaware")
	for _, spec := range []Metric{
		truck(t, ObjectiveFastest),
		truck(t, ObjectiveFastest, "height_m", "4.5", "hazmat", "true", "max_speed_kmh", "60", "weight_t", "40"),
		truck(t, ObjectiveFastest, "height_m", "3", "length_m", "7", "weight_t", "7.5"),
	} {
		t.Run(spec.String(), func(t *testing.T) {
			pts := roadPoints(g, 120, 21, 15)
			snaps := g.SnapAll(spec, inputs(pts), 0)
			src, dst := snaps[:20], snaps[20:]
			tab, err := g.Matrix(bg, spec, src, dst)
			if err != nil {
				t.Fatal(err)
			}
			cm, err := g.customMetric(bg, spec)
			if err != nil {
				t.Fatal(err)
			}
			o := newTruckOracle(g, spec.Vehicle)
			nodeW := o.ms
			rows := make([][]cch.Weight, len(src))
			var wg sync.WaitGroup
			for w := 0; w < 2; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := w; i < len(src); i += 2 {
						rows[i] = pairOracleRow(g, o.w, nodeW, o.phantoms, src[i], dst)
					}
				}()
			}
			wg.Wait()
			routes := checkTableAgainstRows(t, cm, tab, src, dst, rows)
			car := matrixOf(t, g, Fastest, g.SnapAll(Fastest, inputs(src), 0), g.SnapAll(Fastest, inputs(dst), 0))
			slower := 0
			for k := range car.Durations {
				if tab.Durations[k] > car.Durations[k] {
					slower++
				}
			}
			t.Logf("%d of %d cells routed; %d slower than the car's", routes, len(src)*len(dst), slower)
			if slower < routes/2 {
				t.Fatalf("only %d of %d truck cells are slower than the car's", slower, routes)
			}
		})
	}
}

// TestTruckKey: truck keys round-trip through String and ParseMetric,
// with speeds, avoid flags and areas; a truck key without a vehicle takes
// the default one; bad parts are errors naming the field.
func TestTruckKey(t *testing.T) {
	def := truck(t, ObjectiveFastest)
	if got, want := def.String(), "fastest;profile=truck;vehicle=h4.11,w2.6,l21.64,wt36.29,ax9.07,hz0,ms100"; got != want {
		t.Fatalf("key %q, want %q", got, want)
	}
	withAll := truck(t, ObjectiveShortest, "height_m", "4.5", "width_m", "2.55", "length_m", "16.5", "weight_t", "40", "axle_load_t", "10", "hazmat", "true", "max_speed_kmh", "90")
	withAll.Speeds[profile.Motorway] = 80
	withAll.Avoid = AvoidToll | AvoidFerry
	withAll.Areas = areasOfGeometry(t, orb.Polygon{box(orb.Point{-75.55, 39.74}, 0.01, 0.01)})
	for _, m := range []Metric{def, withAll, truck(t, ObjectiveEfficient, "height_m", "3.333")} {
		k := m.String()
		back, err := ParseMetric(k)
		if err != nil || back != m || back.String() != k {
			t.Fatalf("%q: read back %q, %v", k, back.String(), err)
		}
	}
	if got := withAll.String(); !startsWith(got, "shortest;profile=truck;vehicle=h4.5,w2.55,l16.5,wt40,ax10,hz1,ms90;speeds=Motorway:80;avoid=ferry,toll;areas=") {
		t.Fatalf("key %q", got)
	}
	if m, err := ParseMetric("fastest;profile=truck"); err != nil || m != def {
		t.Fatalf("no vehicle: %v %v", m, err)
	}
	if m, err := ParseMetric("fastest;profile=truck;vehicle=h3"); err != nil || m.Vehicle.HeightM != 3 || m.Vehicle.WeightT != def.Vehicle.WeightT {
		t.Fatalf("one field: %v %v", m, err)
	}
	if keyOf(def) == keyOf(truck(t, ObjectiveFastest, "height_m", "4")) || keyOf(def) == keyOf(Fastest) {
		t.Fatal("cache keys collide")
	}
	for _, bad := range []struct{ key, field string }{
		{"fastest;vehicle=h3", "vehicle"},
		{"fastest;profile=bus", "profile"},
		{"fastest;profile=truck;vehicle=h9", "vehicle.height_m"},
		{"fastest;profile=truck;vehicle=q3", "vehicle"},
		{"fastest;profile=truck;vehicle=hz2", "vehicle.hazmat"},
		{"fastest;profile=truck;vehicle=wtx", "vehicle.weight_t"},
	} {
		_, err := ParseMetric(bad.key)
		se, ok := err.(*SpecError)
		if !ok || se.Field != bad.field {
			t.Errorf("%q: %v, want a SpecError of %s", bad.key, err, bad.field)
		}
	}
}

// TestVehicleSet: each field's bounds and the messages naming it.
func TestVehicleSet(t *testing.T) {
	tests := []struct {
		name, text, msg string
	}{
		{"height_m", "4.5", ""},
		{"height_m", "6", ""},
		{"height_m", "12", "vehicle.height_m: 12 is out of range (0, 6]"},
		{"height_m", "0", "vehicle.height_m: 0 is out of range (0, 6]"},
		{"height_m", "-1", "vehicle.height_m: -1 is out of range (0, 6]"},
		{"height_m", "0.001", "vehicle.height_m: 0.001 is out of range (0, 6]"},
		{"height_m", "NaN", `vehicle.height_m: "NaN" is not a number`},
		{"weight_t", "101", "vehicle.weight_t: 101 is out of range (0, 100]"},
		{"max_speed_kmh", "131", "vehicle.max_speed_kmh: 131 is out of range (0, 130]"},
		{"axle_load_t", "x", `vehicle.axle_load_t: "x" is not a number`},
		{"hazmat", "maybe", `vehicle.hazmat: "maybe" is not true or false`},
		{"colour", "red", "vehicle.colour: unknown vehicle field (want height_m, width_m, length_m, weight_t, axle_load_t, hazmat, max_speed_kmh)"},
	}
	for _, tt := range tests {
		v := DefaultVehicle()
		err := v.Set(tt.name, tt.text)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if msg != tt.msg {
			t.Errorf("Set(%s, %s): %q, want %q", tt.name, tt.text, msg, tt.msg)
		}
	}
	if _, err := ParseProfile("Bicycle"); err == nil || err.Error() != `profile: "Bicycle" is not a profile (want car or truck)` {
		t.Errorf("ParseProfile: %v", err)
	}
}

// TestTruckSaveLoad: the truck sections survive Save and Load (Delaware:
// the limits of its 86 limited edges, the access of its hgv ways), and a
// truck matrix on the loaded graph equals the built one's.
func TestTruckSaveLoad(t *testing.T) {
	g := testGraph(t, "delaware")
	dir := t.TempDir()
	if err := g.Save(dir); err != nil {
		t.Fatal(err)
	}
	h, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.edgeTruck, g.edgeTruck) || !slices.Equal(h.truckEdges, g.truckEdges) || !slices.Equal(h.truckLimits, g.truckLimits) {
		t.Fatal("the truck sections differ after load")
	}
	if len(g.truckEdges) < 80 {
		t.Fatalf("%d limited edges", len(g.truckEdges))
	}
	spec := truck(t, ObjectiveFastest, "height_m", "4.5", "weight_t", "40")
	pts := roadPoints(g, 40, 9, 10)
	a := matrixOf(t, g, spec, g.SnapAll(spec, inputs(pts[:10]), 0), g.SnapAll(spec, inputs(pts[10:]), 0))
	b := matrixOf(t, h, spec, h.SnapAll(spec, inputs(pts[:10]), 0), h.SnapAll(spec, inputs(pts[10:]), 0))
	if !slices.Equal(a.Durations, b.Durations) || !slices.Equal(a.Distances, b.Distances) {
		t.Fatal("the truck matrix differs after load")
	}
}
