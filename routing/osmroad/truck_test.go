package osmroad

import "testing"

// TestTruckTagsDelaware reads Delaware and counts the truck restrictions
// of its car ways and edges. osmium counts 802 ways with an hgv tag (800
// designated, 2 yes), 12 with maxheight (the lowest 12'8"), 7 with
// maxweight (18 and 30 tons) and 17 with maxheight:physical (one of 9
// feet, not a car way): 801 of the hgv ways are car ways, and 28 car ways
// have a height limit, the lowest 12'8" (386 cm). Ways with
// access=destination (or motor_vehicle=destination) are destination-only
// for trucks too; access=designated counts as designated.
func TestTruckTagsDelaware(t *testing.T) {
	if testing.Short() {
		t.Skip("real extracts are slow; -short skips them")
	}
	net, err := Read(extract(t, "delaware"), carProfile(t))
	if err != nil {
		t.Fatal(err)
	}
	r := net.Report.Truck
	t.Logf("%s", r)
	w := r.Ways
	if w.HGVTagged != 801 || w.HGVDesignated < 800 || w.HGVNo != 0 || w.HGVDestination == 0 {
		t.Errorf("hgv: %d tagged, %d designated, %d no", w.HGVTagged, w.HGVDesignated, w.HGVNo)
	}
	if w.Height != 28 || w.Weight != 7 || r.Unparsed != 0 {
		t.Errorf("%d ways with a height limit, %d with a weight limit, %d unreadable", w.Height, w.Weight, r.Unparsed)
	}
	if e := r.Edges; e.Height < w.Height || e.Weight < w.Weight || e.HGVDesignated < w.HGVDesignated {
		t.Errorf("edges %+v fewer than ways %+v", e, w)
	}
	// The limits are on the edges of the ways that carry them.
	lowest := uint32(0)
	for i := range net.Edges {
		if h := net.Edges[i].Truck.HeightCm; h > 0 && (lowest == 0 || h < lowest) {
			lowest = h
		}
	}
	if lowest != 386 { // maxheight=12'8"
		t.Errorf("lowest height limit %d cm, want 386", lowest)
	}
}
