package mapdata

import (
	"fmt"
	"sort"
	"unsafe"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// placeTable is a layer's places in label order (sortPlaces), as columns
// that a loaded layer reads in place from the mapped file, with their
// numbers by longitude (byLon).
type placeTable struct {
	nameOff []uint32 // name i is nameStr[nameOff[i]:nameOff[i+1]]
	nameStr []byte
	kind    []uint8
	capital []uint8
	pop     []int64
	xy      []float64 // lon, lat
	byLon   []uint32
}

// newPlaceTable returns the table of ps (not modified).
func newPlaceTable(ps []Place) placeTable {
	ps = append([]Place(nil), ps...)
	sortPlaces(ps)
	t := placeTable{nameOff: make([]uint32, 1, len(ps)+1), kind: make([]uint8, len(ps)), capital: make([]uint8, len(ps)),
		pop: make([]int64, len(ps)), xy: make([]float64, 0, 2*len(ps)), byLon: make([]uint32, len(ps))}
	for i, p := range ps {
		t.nameStr = append(t.nameStr, p.Name...)
		t.nameOff = append(t.nameOff, uint32(len(t.nameStr)))
		t.kind[i], t.pop[i] = uint8(p.Kind), int64(p.Population)
		if p.Capital {
			t.capital[i] = 1
		}
		t.xy = append(t.xy, p.Point[0], p.Point[1])
		t.byLon[i] = uint32(i)
	}
	sort.SliceStable(t.byLon, func(i, j int) bool { return t.xy[2*t.byLon[i]] < t.xy[2*t.byLon[j]] })
	return t
}

// len returns the number of places.
func (t *placeTable) len() int { return len(t.kind) }

// place returns place i; its name aliases the table.
func (t *placeTable) place(i int) Place {
	p := Place{Kind: PlaceKind(t.kind[i]), Population: int(t.pop[i]), Capital: t.capital[i] != 0,
		Point: orb.Point{t.xy[2*i], t.xy[2*i+1]}}
	if lo, hi := t.nameOff[i], t.nameOff[i+1]; hi > lo {
		p.Name = unsafe.String(&t.nameStr[lo], hi-lo)
	}
	return p
}

// write adds the table's sections to w.
func (t *placeTable) write(w *binfmt.Writer) {
	off := t.nameOff
	if len(off) == 0 {
		off = []uint32{0}
	}
	w.AddUint32s("place.name.off", off)
	w.AddUint8s("place.name.str", t.nameStr)
	w.AddUint8s("place.kind", t.kind)
	w.AddUint8s("place.capital", t.capital)
	w.AddInt64s("place.pop", t.pop)
	w.AddFloat64s("place.xy", t.xy)
	w.AddUint32s("place.bylon", t.byLon)
}

// read reads the table of f, aliasing it, and checks it.
func (t *placeTable) read(f *binfmt.File) error {
	var err error
	get := func(fn func() error) {
		if err == nil {
			err = fn()
		}
	}
	get(func() (e error) { t.nameOff, e = f.Uint32s("place.name.off"); return })
	get(func() (e error) { t.nameStr, e = f.Uint8s("place.name.str"); return })
	get(func() (e error) { t.kind, e = f.Uint8s("place.kind"); return })
	get(func() (e error) { t.capital, e = f.Uint8s("place.capital"); return })
	get(func() (e error) { t.pop, e = f.Int64s("place.pop"); return })
	get(func() (e error) { t.xy, e = f.Float64s("place.xy"); return })
	get(func() (e error) { t.byLon, e = f.Uint32s("place.bylon"); return })
	if err != nil {
		return err
	}
	n := len(t.kind)
	if len(t.nameOff) != n+1 || len(t.capital) != n || len(t.pop) != n || len(t.xy) != 2*n || len(t.byLon) != n {
		return fmt.Errorf("%w: place arrays of different lengths", errCorrupt)
	}
	if t.nameOff[0] != 0 || int(t.nameOff[n]) != len(t.nameStr) {
		return fmt.Errorf("%w: place names do not span their bytes", errCorrupt)
	}
	for i := 0; i < n; i++ {
		if t.nameOff[i+1] < t.nameOff[i] {
			return fmt.Errorf("%w: place name %d", errCorrupt, i)
		}
		if int(t.kind[i]) >= len(placeKindNames) {
			return fmt.Errorf("%w: place %d has kind %d", errCorrupt, i, t.kind[i])
		}
		if int(t.byLon[i]) >= n {
			return fmt.Errorf("%w: place %d by longitude is %d", errCorrupt, i, t.byLon[i])
		}
	}
	return nil
}
