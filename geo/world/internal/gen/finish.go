package main

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/geosvc/geosvc/geo/world/internal/lonlat"
	"github.com/geosvc/geosvc/geo/world/internal/topojson"
	"github.com/geosvc/geosvc/geo/world/internal/worldfile"
)

// gridTopology returns t's arcs as a worldfile topology: the grid
// positions as they are (the source's quantization is kept).
func gridTopology(t *topojson.Topology, src worldfile.Source) (worldfile.Topology, error) {
	if t.Transform == nil {
		return worldfile.Topology{}, errors.New("topology not quantized")
	}
	wt := worldfile.Topology{Source: src, Scale: t.Transform.Scale, Translate: t.Transform.Translate, ArcStart: []uint32{0}}
	for _, arc := range t.Arcs {
		for _, p := range arc {
			if math.Abs(p[0]) > math.MaxInt32 || math.Abs(p[1]) > math.MaxInt32 {
				return wt, fmt.Errorf("grid position %v beyond int32", p)
			}
			wt.XY = append(wt.XY, int32(p[0]), int32(p[1]))
		}
		wt.ArcStart = append(wt.ArcStart, uint32(len(wt.XY)/2))
	}
	return wt, nil
}

// dropDegenerate removes the rings without area (lonlat.ErrDegenerate):
// a hole alone, or a whole polygon when its exterior ring has none. Every
// other ring must assemble and repair without error.
func dropDegenerate(d *worldfile.Data) (notes []string, err error) {
	for i := range d.Features {
		f := &d.Features[i]
		polys := f.Polygons[:0]
		for _, poly := range f.Polygons {
			var rings [][]int32
			for k, refs := range poly {
				_, err := d.Ring(int(f.Topology), refs)
				if errors.Is(err, lonlat.ErrDegenerate) {
					if k == 0 {
						notes = append(notes, fmt.Sprintf("%s %s: polygon dropped: %v", f.ID, f.Name, err))
						rings = nil
						break
					}
					notes = append(notes, fmt.Sprintf("%s %s: hole dropped: %v", f.ID, f.Name, err))
					continue
				}
				if err != nil {
					return nil, fmt.Errorf("%s %s: %w", f.ID, f.Name, err)
				}
				rings = append(rings, refs)
			}
			if len(rings) > 0 {
				polys = append(polys, rings)
			}
		}
		f.Polygons = polys
		if len(polys) == 0 {
			notes = append(notes, fmt.Sprintf("%s %s: no area left: kept without geometry", f.ID, f.Name))
		}
	}
	return notes, nil
}

// pruneArcs keeps only the arcs some feature uses, in their order, and
// renumbers the references.
func pruneArcs(d *worldfile.Data) {
	for ti := range d.Topologies {
		t := &d.Topologies[ti]
		used := make([]bool, t.Arcs())
		for _, f := range d.Features {
			if int(f.Topology) != ti {
				continue
			}
			for _, poly := range f.Polygons {
				for _, ring := range poly {
					for _, r := range ring {
						used[arcOf(r)] = true
					}
				}
			}
		}
		renum := make([]int32, t.Arcs())
		kept := worldfile.Topology{Source: t.Source, Scale: t.Scale, Translate: t.Translate, ArcStart: []uint32{0}}
		for a, u := range used {
			if !u {
				continue
			}
			renum[a] = int32(kept.Arcs())
			kept.XY = append(kept.XY, t.XY[2*t.ArcStart[a]:2*t.ArcStart[a+1]]...)
			kept.ArcStart = append(kept.ArcStart, uint32(len(kept.XY)/2))
		}
		for _, f := range d.Features {
			if int(f.Topology) != ti {
				continue
			}
			for _, poly := range f.Polygons {
				for _, ring := range poly {
					for k, r := range ring {
						if r < 0 {
							ring[k] = ^renum[^r]
						} else {
							ring[k] = renum[r]
						}
					}
				}
			}
		}
		*t = kept
	}
}

func arcOf(r int32) int32 {
	if r < 0 {
		return ^r
	}
	return r
}

// sortFeatures orders features by kind, then id (fixed-width digits, so
// numerically).
func sortFeatures(fs []worldfile.Feature) {
	slices.SortStableFunc(fs, func(a, b worldfile.Feature) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.ID, b.ID))
	})
}

// closeRings closes every ring whose last point is not its first by
// appending the shortest arc of the topology that joins them and that the
// ring does not use yet. us-atlas
// needs it once: topojson's merge of Illinois' counties into the state
// dropped the one-unit arc at 88.41°W 37.42°N that Hardin County (17069)
// runs along both ways, so Illinois' ring stops one grid step short of
// its start; Kentucky's ring has the arc.
func closeRings(d *worldfile.Data) (notes []string, err error) {
	for i := range d.Features {
		f := &d.Features[i]
		t := &d.Topologies[f.Topology]
		for _, poly := range f.Polygons {
			for k, ring := range poly {
				first, last := end(t, ring[0], false), end(t, ring[len(ring)-1], true)
				if first == last {
					continue
				}
				ref, ok := joining(t, ring, last, first)
				if !ok {
					return nil, fmt.Errorf("%s %s: ring not closed (%v to %v) and no arc joins its ends", f.ID, f.Name, last, first)
				}
				poly[k] = append(ring, ref)
				notes = append(notes, fmt.Sprintf("%s %s: ring closed with arc %d (%v to %v)", f.ID, f.Name, ref, last, first))
			}
		}
	}
	return notes, nil
}

// end returns the grid position where reference r starts (or ends, when
// last).
func end(t *worldfile.Topology, r int32, last bool) [2]int32 {
	a := arcOf(r)
	s, e := t.ArcStart[a], t.ArcStart[a+1]-1
	if (r < 0) != last {
		s = e
	}
	return [2]int32{t.XY[2*s], t.XY[2*s+1]}
}

// joining returns the reference of the shortest arc from a to b that
// ring does not use already.
func joining(t *worldfile.Topology, ring []int32, a, b [2]int32) (ref int32, ok bool) {
	best := uint32(0)
	for i := range int32(t.Arcs()) {
		if slices.Contains(ring, i) || slices.Contains(ring, ^i) {
			continue
		}
		n := t.ArcStart[i+1] - t.ArcStart[i]
		for _, r := range []int32{i, ^i} {
			if end(t, r, false) == a && end(t, r, true) == b && (!ok || n < best) {
				ref, ok, best = r, true, n
			}
		}
	}
	return ref, ok
}
