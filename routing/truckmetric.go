package routing

import (
	"math"

	"github.com/geosvc/geosvc/routing/profile"
)

// truckRules is what a truck metric's customization reads of the truck
// profile for one graph: the speed cap of each of its classes (0: none),
// and the destination penalty in the metric's weight.
type truckRules struct {
	classKmh []float64
	penaltyW int64
	vehicle  Vehicle
	// dest[v]: node v's edge direction is destination-only for trucks.
	dest []bool
}

// truckRulesOf returns the truck rules of spec on g, nil for a car.
func (g *Graph) truckRulesOf(spec Metric, tab *metricTables) *truckRules {
	if spec.Profile != ProfileTruck {
		return nil
	}
	p := profile.DefaultTruck()
	r := &truckRules{classKmh: make([]float64, len(g.classes)), vehicle: spec.Vehicle}
	for i, c := range g.classes {
		r.classKmh[i] = p.HighwaySpeedsKmh[c]
	}
	// The penalty in the objective's units: seconds for fastest, else
	// what a drive of as many seconds at 36 km/h on a local road weighs.
	s := p.DestinationPenaltyS
	switch spec.Objective {
	case ObjectiveShortest:
		r.penaltyW = int64(math.Round(s * 100)) // dm at 10 m/s
	case ObjectiveEfficient:
		r.penaltyW = tab.fuel(s*10, 36)
	case ObjectiveSafest:
		r.penaltyW = tab.risk(s*10, profile.LocalRoad)
	default:
		r.penaltyW = int64(math.Round(s * 1000))
	}
	r.dest = make([]bool, len(g.base.nodeEdge))
	for v, id := range g.base.nodeEdge {
		r.dest[v] = g.hgvAccess(id) == profile.HGVDestination
	}
	return r
}

// truckMS caps a node's time (ms) of edge e to the truck's speeds: the
// class speed unless the request gave the edge's speed (given), and the
// vehicle's max_speed_kmh.
func (r *truckRules) truckMS(g *Graph, e uint32, ms uint32, given bool) uint32 {
	cap := r.vehicle.MaxSpeedKmh
	if c := r.classKmh[g.edgeClass[e]]; !given && c > 0 && c < cap {
		cap = c
	}
	if min := math.Round(g.edgeLen[e] / (cap / 3.6) * 1000); float64(ms) < min {
		return uint32(min)
	}
	return ms
}

// turnPenalty is the weight added to the turn from node v into node h:
// the destination penalty when h is destination-only and v is not.
func (r *truckRules) turnPenalty(v int, h uint32) int64 {
	if r.dest[h] && !r.dest[v] {
		return r.penaltyW
	}
	return 0
}

// closeForTruck marks unusable the nodes a truck of vehicle v may not
// use: hgv access no, a hazmat ban for a hazmat vehicle, a dimension
// limit the vehicle exceeds.
func (g *Graph) closeForTruck(v Vehicle, usable []bool) {
	for n, id := range g.base.nodeEdge {
		bits := g.edgeTruck[id/2]
		if g.hgvAccess(id) == profile.HGVNo || v.Hazmat && bits&(truckHazmat|truckHazmatWater) != 0 {
			usable[n] = false
		}
	}
	have := [numTruckLimits]uint32{
		limitHeight: cm(v.HeightM), limitWidth: cm(v.WidthM), limitLength: cm(v.LengthM),
		limitWeight: kg(v.WeightT), limitAxleLoad: kg(v.AxleLoadT),
	}
	for k, e := range g.truckEdges {
		lim := g.truckLimits[k*numTruckLimits : (k+1)*numTruckLimits]
		if !exceeds(have, lim) {
			continue
		}
		for dir := uint32(0); dir < 2; dir++ {
			if n := g.edgeNode[directedID(e, dir)]; n >= 0 {
				usable[n] = false
			}
		}
	}
	// Copies stand for their originals' directed edges.
	for n := len(g.base.nodeEdge) - g.meta.Copies; n < len(g.base.nodeEdge); n++ {
		if o := g.edgeNode[g.base.nodeEdge[n]]; o >= 0 && !usable[o] {
			usable[n] = false
		}
	}
}

// exceeds reports whether a vehicle's dimensions exceed an edge's limits.
func exceeds(have [numTruckLimits]uint32, lim []uint32) bool {
	for i, l := range lim {
		if l > 0 && have[i] > l {
			return true
		}
	}
	return false
}

func cm(m float64) uint32 { return uint32(math.Round(m * 100)) }
func kg(t float64) uint32 { return uint32(math.Round(t * 1000)) }
