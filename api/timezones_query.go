package api

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"

	"github.com/paulmach/orb"
)

// tzCoord describes one coordinate parameter of xy2tzdata.
type tzCoord struct {
	param, what string
	limit       float64
}

var (
	tzLon = tzCoord{"x", "longitude", 180}
	tzLat = tzCoord{"y", "latitude", 90}
)

// maxEcho is the longest piece of a bad value quoted back in a message.
const maxEcho = 32

// parseTZPoint reads x (longitude) and y (latitude) of an xy2tzdata query
// into a point; the error message says which parameter is wrong and why
// (missing, not a number, not finite, out of range). When a parameter is
// repeated, the first value counts.
func parseTZPoint(q url.Values) (orb.Point, string) {
	lon, msg := tzLon.parse(q)
	if msg != "" {
		return orb.Point{}, msg
	}
	lat, msg := tzLat.parse(q)
	if msg != "" {
		return orb.Point{}, msg
	}
	return orb.Point{lon, lat}, ""
}

func (c tzCoord) parse(q url.Values) (float64, string) {
	vs, ok := q[c.param]
	if !ok || len(vs) == 0 || vs[0] == "" {
		return 0, fmt.Sprintf("%s is required: the %s in decimal degrees, -%g to %g", c.param, c.what, c.limit, c.limit)
	}
	s := vs[0]
	v, err := strconv.ParseFloat(s, 64)
	if errors.Is(err, strconv.ErrRange) {
		if math.IsInf(v, 0) { // overflow; an underflow is a valid 0
			return 0, fmt.Sprintf("%s (%s) must be between -%g and %g", c.param, c.what, c.limit, c.limit)
		}
		err = nil
	}
	if err != nil {
		if len(s) > maxEcho {
			s = s[:maxEcho] + "..."
		}
		return 0, fmt.Sprintf("%s must be a number (the %s in decimal degrees), got %q", c.param, c.what, s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Sprintf("%s must be a finite number (the %s in decimal degrees)", c.param, c.what)
	}
	if v < -c.limit || v > c.limit {
		return 0, fmt.Sprintf("%s (%s) must be between -%g and %g, got %g", c.param, c.what, c.limit, c.limit, v)
	}
	return v, ""
}
