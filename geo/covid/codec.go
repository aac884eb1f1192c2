package covid

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// decodePolygons rebuilds the polygons from their sections.
func decodePolygons(inputs, codes []string, parts, rings, points []uint32, coords []byte) ([]polygon, error) {
	bad := fmt.Errorf("%w: polygon sections", binfmt.ErrCorrupt)
	if len(parts) != len(codes)+1 || len(rings) == 0 || len(points) == 0 || parts[0] != 0 || rings[0] != 0 || points[0] != 0 ||
		int(points[len(points)-1]) > len(coords)/2 {
		return nil, bad
	}
	var plon, plat int64
	pos := 0
	next := func() (float64, float64, bool) {
		dl, n1 := binary.Uvarint(coords[pos:])
		if n1 <= 0 {
			return 0, 0, false
		}
		pos += n1
		dt, n2 := binary.Uvarint(coords[pos:])
		if n2 <= 0 {
			return 0, 0, false
		}
		pos += n2
		plon += unzigzag(dl)
		plat += unzigzag(dt)
		return float64(plon) / coordScale, float64(plat) / coordScale, true
	}
	out := make([]polygon, len(codes))
	for i, code := range codes {
		if parts[i] > parts[i+1] || int(parts[i+1]) >= len(rings) {
			return nil, bad
		}
		var mp orb.MultiPolygon
		for pi := parts[i]; pi < parts[i+1]; pi++ {
			if rings[pi] > rings[pi+1] || int(rings[pi+1]) >= len(points) {
				return nil, bad
			}
			var poly orb.Polygon
			for ri := rings[pi]; ri < rings[pi+1]; ri++ {
				if points[ri] > points[ri+1] {
					return nil, bad
				}
				ring := make(orb.Ring, 0, points[ri+1]-points[ri])
				for k := points[ri]; k < points[ri+1]; k++ {
					lon, lat, ok := next()
					if !ok {
						return nil, bad
					}
					ring = append(ring, orb.Point{lon, lat})
				}
				poly = append(poly, ring)
			}
			mp = append(mp, poly)
		}
		out[i] = newPolygon(inputs[i], code, mp)
	}
	return out, nil
}

// encodeKeys joins a row's keys in role order.
func encodeKeys(keys map[string]string) string {
	parts := make([]string, 0, len(keys))
	for _, k := range sortedKeys(keys) {
		parts = append(parts, k+"="+keys[k])
	}
	return strings.Join(parts, keySep)
}

// decodeKeys splits encodeKeys' output.
func decodeKeys(s string) map[string]string {
	out := map[string]string{}
	if s == "" {
		return out
	}
	for _, p := range strings.Split(s, keySep) {
		k, v, _ := strings.Cut(p, "=")
		out[k] = v
	}
	return out
}

// appendValues encodes a series' values as uvarint tokens: 0 is a
// missing value; an odd token t is a run of t/2+1 values equal to the
// previous present value (cumulative series stand still for weeks: before
// the first case, and where reporting became weekly); an even token t is
// one value, previous + unzigzag(t/2 − 1). Most values of the JHU series
// take one byte, runs of equal values one byte together.
func appendValues(b []byte, vals []int32) []byte {
	var prev int64
	run := uint64(0)
	flush := func() {
		if run > 0 {
			b = binary.AppendUvarint(b, (run-1)*2+1)
			run = 0
		}
	}
	for _, v := range vals {
		if v == missing {
			flush()
			b = append(b, 0)
			continue
		}
		d := int64(v) - prev
		prev = int64(v)
		if d == 0 {
			run++
			continue
		}
		flush()
		b = binary.AppendUvarint(b, (zigzag(d)+1)*2)
	}
	flush()
	return b
}

// maxSeriesLen bounds a series' length (newCalendar's limit too).
const maxSeriesLen = 1 << 20

// decodeValues decodes n values written by appendValues.
func decodeValues(b []byte, n int) ([]int32, error) {
	if n < 0 || n > maxSeriesLen {
		return nil, fmt.Errorf("%w: series of %d values", binfmt.ErrCorrupt, n)
	}
	out := make([]int32, 0, min(n, 8*len(b)+1))
	var prev int64
	pos := 0
	for len(out) < n {
		t, k := binary.Uvarint(b[pos:])
		if k <= 0 {
			return nil, fmt.Errorf("%w: value %d", binfmt.ErrCorrupt, len(out))
		}
		pos += k
		switch {
		case t == 0:
			out = append(out, missing)
		case t&1 == 1:
			run := t/2 + 1
			if run > uint64(n-len(out)) {
				return nil, fmt.Errorf("%w: run of %d values past the end", binfmt.ErrCorrupt, run)
			}
			for range run {
				out = append(out, int32(prev))
			}
		default:
			v := prev + unzigzag(t/2-1)
			if v > math.MaxInt32 || v <= missing {
				return nil, fmt.Errorf("%w: value %d out of range", binfmt.ErrCorrupt, len(out))
			}
			out = append(out, int32(v))
			prev = v
		}
	}
	if pos != len(b) {
		return nil, fmt.Errorf("%w: %d trailing bytes", binfmt.ErrCorrupt, len(b)-pos)
	}
	return out, nil
}

func zigzag(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }
