package api

import (
	"fmt"
	"math"
	"strings"

	"github.com/paulmach/orb"
)

// Google's encoded polyline format, as OSRM reads coordinates
// (polyline(...), polyline6(...)) and writes geometries
// (geometries=polyline|polyline6): each point latitude first, each value
// the signed difference to the previous point's at the given precision
// (1e5 or 1e6), zig-zag encoded in 5-bit groups offset by 63.

// encodePolyline writes line (lon, lat points) as an encoded polyline at
// precision 10^digits.
func encodePolyline(line []orb.Point, digits int) string {
	f := math.Pow10(digits)
	var b strings.Builder
	var pLat, pLon int64
	for _, p := range line {
		lat, lon := int64(math.Round(p[1]*f)), int64(math.Round(p[0]*f))
		writePolylineValue(&b, lat-pLat)
		writePolylineValue(&b, lon-pLon)
		pLat, pLon = lat, lon
	}
	return b.String()
}

// writePolylineValue appends one signed value.
func writePolylineValue(b *strings.Builder, v int64) {
	u := uint64(v) << 1
	if v < 0 {
		u = ^u
	}
	for u >= 0x20 {
		b.WriteByte(byte(0x20|(u&0x1f)) + 63)
		u >>= 5
	}
	b.WriteByte(byte(u) + 63)
}

// maxPolylineValue bounds one decoded value (degrees times 10^digits) so
// that sums cannot overflow: more than any coordinate at precision 1e6.
const maxPolylineValue = 1 << 40

// decodePolyline reads an encoded polyline at precision 10^digits into
// lon, lat points, or says why s is not one.
func decodePolyline(s string, digits int) ([]orb.Point, error) {
	f := math.Pow10(digits)
	var out []orb.Point
	var lat, lon int64
	i := 0
	next := func() (int64, error) {
		var u uint64
		for shift := uint(0); ; shift += 5 {
			if i >= len(s) {
				return 0, fmt.Errorf("it ends inside a value at character %d", i)
			}
			c := s[i]
			if c < 63 || c > 127 {
				return 0, fmt.Errorf("character %d (%q) is not of the encoding", i, c)
			}
			i++
			if shift > 40 {
				return 0, fmt.Errorf("a value is too long at character %d", i)
			}
			u |= uint64(c-63) & 0x1f << shift
			if c-63 < 0x20 {
				break
			}
		}
		v := int64(u >> 1)
		if u&1 != 0 {
			v = ^v
		}
		return v, nil
	}
	for i < len(s) {
		dLat, err := next()
		if err != nil {
			return nil, err
		}
		if i >= len(s) {
			return nil, fmt.Errorf("point %d has a latitude but no longitude", len(out))
		}
		dLon, err := next()
		if err != nil {
			return nil, err
		}
		lat += dLat
		lon += dLon
		if lat > maxPolylineValue || lat < -maxPolylineValue || lon > maxPolylineValue || lon < -maxPolylineValue {
			return nil, fmt.Errorf("point %d is far outside the world", len(out))
		}
		out = append(out, orb.Point{float64(lon) / f, float64(lat) / f})
	}
	return out, nil
}
