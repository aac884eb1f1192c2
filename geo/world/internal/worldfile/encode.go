package worldfile

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/geosvc/geosvc/internal/binfmt"
)

type meta struct {
	Sources []Source `json:"sources"`
}

// Encode returns the file of d. The same Data always gives the same bytes.
func Encode(d *Data) ([]byte, error) {
	if len(d.Topologies) > 255 {
		return nil, fmt.Errorf("worldfile: %d topologies", len(d.Topologies))
	}
	w := binfmt.NewWriter()
	m := meta{}
	for _, t := range d.Topologies {
		m.Sources = append(m.Sources, t.Source)
	}
	w.AddJSON("meta", m)
	for ti, t := range d.Topologies {
		if len(t.ArcStart) == 0 || t.ArcStart[0] != 0 || int(t.ArcStart[len(t.ArcStart)-1])*2 != len(t.XY) {
			return nil, fmt.Errorf("worldfile: topology %d: arc starts do not span the points", ti)
		}
		lens := make([]uint32, t.Arcs())
		var blob []byte
		for a := range lens {
			s, e := t.ArcStart[a], t.ArcStart[a+1]
			if e < s+2 {
				return nil, fmt.Errorf("worldfile: topology %d arc %d has %d points", ti, a, e-s)
			}
			lens[a] = e - s
			var px, py int64
			for p := s; p < e; p++ {
				x, y := int64(t.XY[2*p]), int64(t.XY[2*p+1])
				blob = binary.AppendVarint(blob, x-px)
				blob = binary.AppendVarint(blob, y-py)
				px, py = x, y
			}
		}
		prefix := fmt.Sprintf("t%d.", ti)
		w.AddFloat64s(prefix+"transform", []float64{t.Scale[0], t.Scale[1], t.Translate[0], t.Translate[1]})
		w.AddUint32s(prefix+"arc_len", lens)
		w.AddUint8s(prefix+"arcs", blob)
	}
	n := len(d.Features)
	kinds, topos := make([]uint8, n), make([]uint8, n)
	ids, iso2s, names := make([]string, n), make([]string, n), make([]string, n)
	fpoly, pring, rref := []uint32{0}, []uint32{0}, []uint32{0}
	var refs []int32
	for i, f := range d.Features {
		if int(f.Topology) >= len(d.Topologies) {
			return nil, fmt.Errorf("worldfile: feature %s: topology %d", f.ID, f.Topology)
		}
		arcs := d.Topologies[f.Topology].Arcs()
		kinds[i], topos[i], ids[i], iso2s[i], names[i] = f.Kind, f.Topology, f.ID, f.ISO2, f.Name
		for _, poly := range f.Polygons {
			for _, ring := range poly {
				for _, r := range ring {
					if arcIndex(r) >= arcs {
						return nil, fmt.Errorf("worldfile: feature %s: arc reference %d out of range", f.ID, r)
					}
				}
				refs = append(refs, ring...)
				rref = append(rref, uint32(len(refs)))
			}
			pring = append(pring, uint32(len(rref)-1))
		}
		fpoly = append(fpoly, uint32(len(pring)-1))
	}
	w.AddUint8s("f.kind", kinds)
	w.AddUint8s("f.topo", topos)
	w.AddStrings("f.id", ids)
	w.AddStrings("f.iso2", iso2s)
	w.AddStrings("f.name", names)
	w.AddUint32s("f.poly", fpoly)
	w.AddUint32s("p.ring", pring)
	w.AddUint32s("r.ref", rref)
	w.AddInt32s("refs", refs)
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf, Magic, Version); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// arcIndex returns the arc a reference names.
func arcIndex(r int32) int {
	if r < 0 {
		return int(^r)
	}
	return int(r)
}
