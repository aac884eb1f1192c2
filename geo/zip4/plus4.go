package zip4

import (
	"math"
	"sort"

	"github.com/geosvc/geosvc/geo"
)

// The +4 rule.
//
// USPS numbers add-ons per block face, odd and even by side of the street.
// The derived layer imitates that, deterministically from the data alone:
// within each ZIP5, the faces with at least one side in that ZIP5 are put
// in order by street name (named streets A..Z by byte order, unnamed ones
// last), then along the street: by the coordinate of the face's midpoint
// along the longer axis of that street's extent in the ZIP5 (longitude
// when it runs more east-west than north-south, else latitude), then by
// the other coordinate, the OSM way id and the face's position along its
// way. The j-th face (from 1) gets add-on 2j-1 on its left side and 2j on
// its right, so left sides are odd and right sides even, as in USPS's
// block-face scheme; a side whose ZIP5 differs from this one is simply
// absent from this ZIP5. A ZIP5 with more than 4999 faces numbers its sides
// consecutively in the same order instead (0001..9999, parity lost; the
// report lists such ZIP5s), and sides beyond 9999 get no code and are
// dropped (counted in Report.Overflow). The same input file therefore
// always yields the same codes; a new extract may renumber a street whose
// faces changed.

// maxPlus4 is the largest add-on.
const maxPlus4 = 9999

// numberZip numbers the sides of ZIP5 z (number zi in the faces' table)
// by the +4 rule. fs are the faces
// with a side in z that has a polygon (each face once, in any order; they
// are sorted here); has tells which sides have one. set receives the
// add-on of every numbered side; rep counts the ZIP5, its sequential
// numbering and the sides beyond 9999.
func numberZip(roads []Road, faces []face, z string, zi int32, fs []int, has func(fi, side int) bool, rep *Report, set func(fi, side, add int)) {
	if len(fs) == 0 {
		return
	}
	rep.ZIP5s++
	orderFaces(roads, faces, fs)
	sequential := 2*len(fs) > maxPlus4
	if sequential {
		rep.SequentialZips = append(rep.SequentialZips, z)
	}
	n := 0
	for j, fi := range fs {
		for side := left; side <= right; side++ {
			if faces[fi].zip[side] != zi || !has(fi, side) {
				continue
			}
			var add int
			if sequential {
				n++
				add = n
			} else {
				add = 2*(j+1) - 1 + side
			}
			if add > maxPlus4 {
				rep.Overflow++
				continue
			}
			set(fi, side, add)
		}
	}
}

// orderFaces sorts the faces of one ZIP5 by the +4 rule's key.
func orderFaces(roads []Road, faces []face, fs []int) {
	type extent struct{ minX, minY, maxX, maxY float64 }
	ext := map[string]*extent{}
	for _, fi := range fs {
		name := roads[faces[fi].road].Name
		m := faces[fi].mid
		e := ext[name]
		if e == nil {
			e = &extent{m[0], m[1], m[0], m[1]}
			ext[name] = e
		}
		e.minX, e.minY = math.Min(e.minX, m[0]), math.Min(e.minY, m[1])
		e.maxX, e.maxY = math.Max(e.maxX, m[0]), math.Max(e.maxY, m[1])
	}
	byLon := map[string]bool{}
	for name, e := range ext {
		lp := geo.NewLocalProjection((e.minY + e.maxY) / 2)
		x0, y0 := lp.XY([2]float64{e.minX, e.minY})
		x1, y1 := lp.XY([2]float64{e.maxX, e.maxY})
		byLon[name] = x1-x0 >= y1-y0
	}
	sort.Slice(fs, func(i, j int) bool {
		a, b := &faces[fs[i]], &faces[fs[j]]
		na, nb := roads[a.road].Name, roads[b.road].Name
		if na != nb {
			if na == "" || nb == "" {
				return nb == ""
			}
			return na < nb
		}
		k1, k2 := 0, 1 // primary and secondary coordinate
		if !byLon[na] {
			k1, k2 = 1, 0
		}
		if a.mid[k1] != b.mid[k1] {
			return a.mid[k1] < b.mid[k1]
		}
		if a.mid[k2] != b.mid[k2] {
			return a.mid[k2] < b.mid[k2]
		}
		if roads[a.road].ID != roads[b.road].ID {
			return roads[a.road].ID < roads[b.road].ID
		}
		return a.index < b.index
	})
}
