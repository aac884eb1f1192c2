package worldfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// Decode parses a file written by Encode and checks its consistency, so
// that a damaged file is an error rather than a panic later.
func Decode(b []byte) (*Data, error) {
	f, err := binfmt.Parse(b, Magic, Version)
	if err != nil {
		return nil, fmt.Errorf("worldfile: %w", err)
	}
	var m meta
	if err := f.JSON("meta", &m); err != nil {
		return nil, fmt.Errorf("worldfile: %w", err)
	}
	d := &Data{Topologies: make([]Topology, len(m.Sources))}
	for ti := range d.Topologies {
		if d.Topologies[ti], err = decodeTopology(f, ti); err != nil {
			return nil, fmt.Errorf("worldfile: topology %d: %w", ti, err)
		}
		d.Topologies[ti].Source = m.Sources[ti]
	}
	if d.Features, err = decodeFeatures(f, d.Topologies); err != nil {
		return nil, fmt.Errorf("worldfile: %w", err)
	}
	return d, nil
}

func decodeTopology(f *binfmt.File, ti int) (Topology, error) {
	var t Topology
	prefix := fmt.Sprintf("t%d.", ti)
	tr, err := f.Float64s(prefix + "transform")
	if err != nil {
		return t, err
	}
	if len(tr) != 4 {
		return t, errors.New("transform of other than 4 numbers")
	}
	t.Scale, t.Translate = [2]float64{tr[0], tr[1]}, [2]float64{tr[2], tr[3]}
	lens, err := f.Uint32s(prefix + "arc_len")
	if err != nil {
		return t, err
	}
	blob, err := f.Uint8s(prefix + "arcs")
	if err != nil {
		return t, err
	}
	var total uint64
	for _, n := range lens {
		if n < 2 {
			return t, errors.New("arc of fewer than 2 points")
		}
		total += uint64(n)
	}
	// Every point takes two bytes or more.
	if total > uint64(len(blob))/2 || total > math.MaxUint32 {
		return t, fmt.Errorf("%d points in %d bytes", total, len(blob))
	}
	t.ArcStart = make([]uint32, 0, len(lens)+1)
	t.XY = make([]int32, 0, 2*total)
	t.ArcStart = append(t.ArcStart, 0)
	pos := 0
	for _, n := range lens {
		var x, y int64
		for range n {
			dx, k := binary.Varint(blob[pos:])
			if k <= 0 {
				return t, errors.New("bad varint")
			}
			pos += k
			dy, k := binary.Varint(blob[pos:])
			if k <= 0 {
				return t, errors.New("bad varint")
			}
			pos += k
			x, y = x+dx, y+dy
			if x != int64(int32(x)) || y != int64(int32(y)) {
				return t, errors.New("grid position beyond int32")
			}
			t.XY = append(t.XY, int32(x), int32(y))
		}
		t.ArcStart = append(t.ArcStart, uint32(len(t.XY)/2))
	}
	if pos != len(blob) {
		return t, fmt.Errorf("%d bytes after the last arc", len(blob)-pos)
	}
	return t, nil
}

func decodeFeatures(f *binfmt.File, topos []Topology) ([]Feature, error) {
	var err error
	u8 := func(name string) []uint8 {
		var v []uint8
		if err == nil {
			v, err = f.Uint8s(name)
		}
		return v
	}
	u32 := func(name string) []uint32 {
		var v []uint32
		if err == nil {
			v, err = f.Uint32s(name)
		}
		return v
	}
	strs := func(name string) []string {
		var v []string
		if err == nil {
			v, err = f.Strings(name)
		}
		return v
	}
	kinds, topo := u8("f.kind"), u8("f.topo")
	ids, iso2s, names := strs("f.id"), strs("f.iso2"), strs("f.name")
	fpoly, pring, rref := u32("f.poly"), u32("p.ring"), u32("r.ref")
	if err != nil {
		return nil, err
	}
	refs, err := f.Int32s("refs")
	if err != nil {
		return nil, err
	}
	n := len(kinds)
	switch {
	case len(topo) != n || len(ids) != n || len(iso2s) != n || len(names) != n || len(fpoly) != n+1:
		return nil, errors.New("feature tables of different lengths")
	case !spans(fpoly, len(pring)-1) || !spans(pring, len(rref)-1) || !spans(rref, len(refs)):
		return nil, errors.New("polygon, ring or reference offsets out of order")
	}
	out := make([]Feature, n)
	for i := range out {
		if int(topo[i]) >= len(topos) {
			return nil, fmt.Errorf("feature %d: topology %d", i, topo[i])
		}
		arcs := topos[topo[i]].Arcs()
		ft := Feature{Kind: kinds[i], Topology: topo[i], ID: ids[i], ISO2: iso2s[i], Name: names[i]}
		ft.Polygons = make([][][]int32, 0, fpoly[i+1]-fpoly[i])
		for p := fpoly[i]; p < fpoly[i+1]; p++ {
			rings := make([][]int32, 0, pring[p+1]-pring[p])
			for r := pring[p]; r < pring[p+1]; r++ {
				ring := refs[rref[r]:rref[r+1]:rref[r+1]]
				if len(ring) == 0 {
					return nil, fmt.Errorf("feature %s: ring without arcs", ft.ID)
				}
				for _, ref := range ring {
					if arcIndex(ref) >= arcs {
						return nil, fmt.Errorf("feature %s: arc reference %d out of range", ft.ID, ref)
					}
				}
				rings = append(rings, ring)
			}
			if len(rings) == 0 {
				return nil, fmt.Errorf("feature %s: polygon without rings", ft.ID)
			}
			ft.Polygons = append(ft.Polygons, rings)
		}
		out[i] = ft
	}
	return out, nil
}

// spans reports whether offsets start at 0, never decrease and end at
// end.
func spans(offsets []uint32, end int) bool {
	if len(offsets) == 0 || offsets[0] != 0 || int(offsets[len(offsets)-1]) != end {
		return false
	}
	for i := 1; i < len(offsets); i++ {
		if offsets[i] < offsets[i-1] {
			return false
		}
	}
	return true
}
