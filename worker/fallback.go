package worker

import (
	"math"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/routing"
)

// snapOptions turns a job's stored options of one side into the routing
// engine's (nil when the side has none, nor the job snapping=any).
func snapOptions(o *queue.Options, pts []queue.PointOptions, n int) []routing.SnapOptions {
	if pts == nil && !o.SnapAny {
		return nil
	}
	out := make([]routing.SnapOptions, n)
	for i := range out {
		var p queue.PointOptions
		if pts != nil {
			p = pts[i]
		}
		out[i] = p.SnapOptions(o.SnapAny)
	}
	return out
}

// fallbackPoints returns where a side's fallback distances are measured
// from: the input coordinates, or with snapped the snapped ones where the
// point snapped (the input where it did not).
func fallbackPoints(snaps []routing.Snap, snapped bool) []orb.Point {
	out := make([]orb.Point, len(snaps))
	for i, s := range snaps {
		out[i] = s.Input
		if snapped && s.OK {
			out[i] = s.Point
		}
	}
	return out
}

// fillFallback fills the cells of tab (rows from origin row lo on) that
// have no route with the great-circle distance between the fallback
// points, rounded to metres, and that distance at kmh, rounded to
// seconds; it returns the cells filled as [row, column] of the whole
// matrix (empty, not nil, when none).
func fillFallback(tab routing.Table, lo int, origins, dests []orb.Point, kmh float64) [][2]int {
	out := [][2]int{}
	mps := kmh / 3.6
	for i := range tab.Rows {
		for j := range tab.Cols {
			k := i*tab.Cols + j
			if tab.Durations[k] != routing.NoRoute && tab.Distances[k] != routing.NoRoute {
				continue
			}
			m := geo.HaversineM(origins[lo+i], dests[j])
			tab.Distances[k] = int32(min(math.Round(m), math.MaxInt32))
			tab.Durations[k] = int32(min(math.Round(m/mps), math.MaxInt32))
			out = append(out, [2]int{lo + i, j})
		}
	}
	return out
}
