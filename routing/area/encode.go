package area

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
)

// keyVersion is the first byte of an encoded Set.
const keyVersion = 1

// Key returns the Set's canonical encoding ("" for the empty Set):
// unpadded base64url of a version byte, then the number of polygons, of
// each one's rings and of each ring's vertices (closing one left out) as
// unsigned varints, then every vertex as the zigzag varint differences of
// its lon and lat (1e-7 degrees) from the previous vertex. Equal Sets
// have equal keys; Decode reads a key back. It holds no ';' or ',' and
// 4 to 10 characters per vertex (fewer the closer the vertices: 20 kB
// for 2000 vertices spread over a degree).
func (s Set) Key() string {
	if len(s.polys) == 0 {
		return ""
	}
	b := []byte{keyVersion}
	b = binary.AppendUvarint(b, uint64(len(s.polys)))
	var prev vertex
	for _, p := range s.polys {
		b = binary.AppendUvarint(b, uint64(len(p)))
		for _, r := range p {
			b = binary.AppendUvarint(b, uint64(len(r)))
			for _, v := range r {
				b = binary.AppendVarint(b, int64(v[0])-int64(prev[0]))
				b = binary.AppendVarint(b, int64(v[1])-int64(prev[1]))
				prev = v
			}
		}
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// Hash returns the SHA-256 of the Set's key: what caches key it by.
func (s Set) Hash() [32]byte { return sha256.Sum256([]byte(s.Key())) }

// Decode reads a key written by Key, checking the polygons as
// ParseGeoJSON does (errors are *Error, whose paths count as in a
// MultiPolygon), and returns the canonical Set (whose Key is key when key
// was canonical).
func Decode(key string) (Set, error) {
	b, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil || len(b) == 0 || b[0] != keyVersion {
		return Set{}, &Error{Msg: "is not an encoded polygon set"}
	}
	r := keyReader{b: b[1:]}
	d := decoder{multi: true}
	np := r.count(MaxPositions / 4)
	if np == 0 {
		r.bad = true
	}
	var polys []polygon
	var prev [2]int64
	for p := 0; p < np && !r.bad; p++ {
		nr := r.count(MaxPositions / 4)
		if nr == 0 {
			r.bad = true
		}
		checked := make([]checkedRing, 0, nr)
		for k := 0; k < nr && !r.bad; k++ {
			nv := r.count(MaxPositions)
			d.positions += nv + 1
			if d.positions > MaxPositions {
				return Set{}, errorf("coordinates", "holds more than %d positions in all", MaxPositions)
			}
			pos := make([]vertex, 0, nv+1)
			for i := 0; i < nv && !r.bad; i++ {
				prev[0] += r.delta()
				prev[1] += r.delta()
				if prev[0] < -180*scale || prev[0] > 180*scale || prev[1] < -90*scale || prev[1] > 90*scale {
					r.bad = true
				}
				pos = append(pos, vertex{int32(prev[0]), int32(prev[1])})
			}
			if r.bad {
				break
			}
			if len(pos) > 0 {
				pos = append(pos, pos[0])
			}
			cr, err := checkRing(pos, d.ringPath(p, k))
			if err != nil {
				return Set{}, err
			}
			checked = append(checked, cr)
		}
		if r.bad {
			break
		}
		poly, err := checkPolygon(checked, d.polyPath(p))
		if err != nil {
			return Set{}, err
		}
		polys = append(polys, poly)
	}
	if r.bad || len(r.b) != 0 {
		return Set{}, &Error{Msg: "is not an encoded polygon set"}
	}
	return d.set(polys)
}

// keyReader reads a key's varints; bad records the first malformed one.
type keyReader struct {
	b   []byte
	bad bool
}

// count reads an unsigned varint of at most lim.
func (r *keyReader) count(lim int) int {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > uint64(lim) {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

// delta reads a signed varint of at most 360 degrees.
func (r *keyReader) delta() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 || v > 360*scale || v < -360*scale {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

// String describes the set for logs: its polygons and positions.
func (s Set) String() string {
	return fmt.Sprintf("%d polygon%s, %d positions", len(s.polys), plural(len(s.polys)), s.Positions())
}
