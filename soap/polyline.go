package soap

import (
	"fmt"
	"math"
	"strings"

	"github.com/paulmach/orb"
)

// The RouteData of RoutePlanner results and Map requests is a route's
// line in Google's encoded polyline format: precision 5, latitude first,
// each value the difference to the previous point's as a zig-zag varint
// of 5-bit groups, each group plus 63 one printable byte.

// encodePolyline writes a lon/lat line as an encoded polyline.
func encodePolyline(ls orb.LineString) string {
	var b strings.Builder
	var plat, plon int64
	for _, p := range ls {
		lat, lon := int64(math.Round(p[1]*1e5)), int64(math.Round(p[0]*1e5))
		writeVarint(&b, lat-plat)
		writeVarint(&b, lon-plon)
		plat, plon = lat, lon
	}
	return b.String()
}

func writeVarint(b *strings.Builder, v int64) {
	u := uint64(v << 1)
	if v < 0 {
		u = ^u
	}
	for u >= 0x20 {
		b.WriteByte(byte((0x20 | (u & 0x1f)) + 63))
		u >>= 5
	}
	b.WriteByte(byte(u + 63))
}

// decodePolyline reads an encoded polyline into lon/lat points; text
// that is not one (a byte outside '?'..'~', a value cut short, a point
// off the globe) is an error.
func decodePolyline(s string) ([]orb.Point, error) {
	var out []orb.Point
	var lat, lon int64
	next := func(i *int) (int64, error) {
		var v, shift uint64
		for {
			if *i >= len(s) || shift > 60 {
				return 0, fmt.Errorf("truncated at byte %d", *i)
			}
			b := uint64(s[*i]) - 63
			*i++
			if b > 0x3f {
				return 0, fmt.Errorf("byte %d is not polyline text", *i-1)
			}
			v |= (b & 0x1f) << shift
			shift += 5
			if b < 0x20 {
				break
			}
		}
		if v&1 != 0 {
			return ^int64(v >> 1), nil
		}
		return int64(v >> 1), nil
	}
	for i := 0; i < len(s); {
		dlat, err := next(&i)
		if err != nil {
			return nil, err
		}
		dlon, err := next(&i)
		if err != nil {
			return nil, err
		}
		lat, lon = lat+dlat, lon+dlon
		p := orb.Point{float64(lon) / 1e5, float64(lat) / 1e5}
		if math.Abs(p[0]) > 180 || math.Abs(p[1]) > 90 {
			return nil, fmt.Errorf("point %v out of range", p)
		}
		out = append(out, p)
	}
	return out, nil
}
