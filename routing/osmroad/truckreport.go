package osmroad

import (
	"fmt"
	"strings"

	"github.com/geosvc/geosvc/routing/profile"
)

// TruckCounts counts ways or edges by truck restriction: HGVTagged those
// with an hgv=* tag; HGVNo, HGVDestination and HGVDesignated those whose
// access (either direction) is closed, destination-only or designated for
// trucks; one per dimension limit; Hazmat hazmat=no or hazmat:water=no.
type TruckCounts struct {
	HGVTagged, HGVNo, HGVDestination, HGVDesignated int
	Height, Width, Length, Weight, AxleLoad         int
	Hazmat                                          int
}

// TruckReport counts the truck restrictions of car ways and of the
// network's edges, and the limit values that could not be read.
type TruckReport struct {
	Ways, Edges TruckCounts
	// Unparsed counts the limit tags of car ways whose value is garbage
	// (ignored).
	Unparsed int
}

func (c *TruckCounts) add(t profile.TruckTags) {
	either := func(a profile.HGVAccess) bool { return t.Fwd == a || t.Bwd == a }
	inc := func(n *int, b bool) {
		if b {
			*n++
		}
	}
	inc(&c.HGVNo, either(profile.HGVNo))
	inc(&c.HGVDestination, either(profile.HGVDestination))
	inc(&c.HGVDesignated, either(profile.HGVDesignated))
	inc(&c.Height, t.HeightCm > 0)
	inc(&c.Width, t.WidthCm > 0)
	inc(&c.Length, t.LengthCm > 0)
	inc(&c.Weight, t.WeightKg > 0)
	inc(&c.AxleLoad, t.AxleLoadKg > 0)
	inc(&c.Hazmat, t.HazmatNo || t.HazmatWaterNo)
}

// countWay counts a car way's truck tags (hgv: whether it has an hgv=*
// tag).
func (r *TruckReport) countWay(t profile.TruckTags, hgv bool) {
	r.Ways.add(t)
	if hgv {
		r.Ways.HGVTagged++
	}
	r.Unparsed += t.Unparsed
}

// countEdge counts an edge's truck tags.
func (r *TruckReport) countEdge(t profile.TruckTags) {
	r.Edges.add(t)
	if t.Fwd != profile.HGVUnset || t.Bwd != profile.HGVUnset {
		r.Edges.HGVTagged++ // access from any key of the hierarchy
	}
}

// String formats the counts as one line.
func (c TruckCounts) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "hgv no %d, destination %d, designated %d; maxheight %d, maxwidth %d, maxlength %d, maxweight %d, maxaxleload %d; hazmat %d",
		c.HGVNo, c.HGVDestination, c.HGVDesignated, c.Height, c.Width, c.Length, c.Weight, c.AxleLoad, c.Hazmat)
	return b.String()
}

// String formats the report as two lines.
func (r TruckReport) String() string {
	return fmt.Sprintf("truck ways   %d hgv-tagged; %s; %d limit values unreadable\ntruck edges  %d with truck access tags; %s",
		r.Ways.HGVTagged, r.Ways, r.Unparsed, r.Edges.HGVTagged, r.Edges)
}
