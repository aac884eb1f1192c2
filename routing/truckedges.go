package routing

import (
	"fmt"
	"slices"

	"github.com/geosvc/geosvc/internal/binfmt"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

// Per-edge truck bits (Graph.edgeTruck): the hgv access of each direction
// (a profile.HGVAccess in 3 bits, forward then backward) and the hazmat
// bans.
const (
	truckAccessBits        = 3
	truckAccessMask  uint8 = 1<<truckAccessBits - 1
	truckHazmat      uint8 = 1 << 6 // hazmat=no
	truckHazmatWater uint8 = 1 << 7 // hazmat:water=no
)

// The dimension limits of an edge, in the order Graph.truckLimits holds
// them (numTruckLimits per restricted edge): cm, cm, cm, kg, kg; 0 is
// none.
const (
	limitHeight = iota
	limitWidth
	limitLength
	limitWeight
	limitAxleLoad
	numTruckLimits
)

// truckBits packs an edge's access and hazmat bans.
func truckBits(t profile.TruckTags) uint8 {
	b := uint8(t.Fwd)&truckAccessMask | (uint8(t.Bwd)&truckAccessMask)<<truckAccessBits
	if t.HazmatNo {
		b |= truckHazmat
	}
	if t.HazmatWaterNo {
		b |= truckHazmatWater
	}
	return b
}

// hgvAccess returns the hgv access of directed edge id (2e+dir).
func (g *Graph) hgvAccess(id uint32) profile.HGVAccess {
	b := g.edgeTruck[id/2]
	if id%2 == 1 {
		b >>= truckAccessBits
	}
	return profile.HGVAccess(b & truckAccessMask)
}

// copyTruck keeps the network's truck tags: the bits of every edge, the
// limits of the few edges that have any.
func (g *Graph) copyTruck(edges []osmroad.Edge) {
	g.edgeTruck = make([]uint8, len(edges))
	g.truckEdges, g.truckLimits = nil, nil
	for i := range edges {
		t := edges[i].Truck
		g.edgeTruck[i] = truckBits(t)
		if t.HasLimit() {
			g.truckEdges = append(g.truckEdges, uint32(i))
			g.truckLimits = append(g.truckLimits, t.HeightCm, t.WidthCm, t.LengthCm, t.WeightKg, t.AxleLoadKg)
		}
	}
}

// writeTruck adds the truck sections.
func (g *Graph) writeTruck(w partSink) {
	w.AddUint8s("edge.truck", g.edgeTruck)
	w.AddUint32s("truck.edges", g.truckEdges)
	w.AddUint32s("truck.limits", g.truckLimits)
}

// readTruck reads the truck sections.
func (g *Graph) readTruck(r *sectionReader) {
	g.edgeTruck = r.u8("edge.truck")
	g.truckEdges = r.u32("truck.edges")
	g.truckLimits = r.u32("truck.limits")
}

// checkTruck checks the truck sections' sizes and order.
func (g *Graph) checkTruck() error {
	nE := len(g.edgeFrom)
	if len(g.edgeTruck) != nE || len(g.truckLimits) != numTruckLimits*len(g.truckEdges) {
		return fmt.Errorf("%w: truck arrays disagree in length", binfmt.ErrCorrupt)
	}
	return nil
}

// validateTruck checks the restricted edges' ids (a build's self-check).
func (g *Graph) validateTruck() error {
	if !slices.IsSorted(g.truckEdges) {
		return fmt.Errorf("%w: truck edges not sorted", binfmt.ErrCorrupt)
	}
	if n := len(g.truckEdges); n > 0 && int(g.truckEdges[n-1]) >= len(g.edgeFrom) {
		return fmt.Errorf("%w: truck edge out of range", binfmt.ErrCorrupt)
	}
	return nil
}
