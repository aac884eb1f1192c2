package geo

import (
	"math"

	"github.com/paulmach/orb"
)

// Round7 rounds a coordinate in degrees to 7 decimals (1e-7 degree, about
// 1 cm): OSM's own precision. It drops the binary noise of decoding and
// projecting (39.104563000000006 becomes 39.104563), so that stored and
// answered coordinates are short and equal to OSM's.
func Round7(v float64) float64 { return math.Round(v*1e7) / 1e7 }

// Round7Point returns p with both coordinates rounded by Round7.
func Round7Point(p orb.Point) orb.Point { return orb.Point{Round7(p[0]), Round7(p[1])} }
