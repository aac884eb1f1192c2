package api

import (
	"fmt"
	"math"
	"net/url"
	"strconv"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/zip4"
)

// zip4Query is a parsed /zip4v1/xy2zip query: either a point or a code.
type zip4Query struct {
	// Point is the point asked for (lon/lat), when ByCode is false.
	Point orb.Point
	// Zip9 is the code asked for, when ByCode is true.
	Zip9   string
	ByCode bool
}

// zip4MaxNumberLen bounds a coordinate parameter's length.
const zip4MaxNumberLen = 32

// parseZip4Query reads the two forms of xy2zip: x (latitude) and y
// (longitude), both required; or zip9 (nine digits) as the only
// parameter. The spec's quirk (x is the latitude here, unlike every other
// interface) ends at this edge: the query holds a lon/lat point. Other
// parameters are ignored; a parameter given twice is an error.
func parseZip4Query(q url.Values) (zip4Query, error) {
	for _, k := range []string{"x", "y", "zip9"} {
		if len(q[k]) > 1 {
			return zip4Query{}, fmt.Errorf("%s is given %d times; give it once", k, len(q[k]))
		}
	}
	_, hasX := q["x"]
	_, hasY := q["y"]
	if _, ok := q["zip9"]; ok {
		if hasX || hasY {
			return zip4Query{}, fmt.Errorf("zip9 is the only parameter of a code lookup: leave out x and y")
		}
		code := q.Get("zip9")
		if !zip4.ValidZip9(code) {
			return zip4Query{}, fmt.Errorf("zip9 must be exactly 9 digits (ZIP5 and +4, e.g. 199010001), got %q", zip4Clip(code))
		}
		return zip4Query{Zip9: code, ByCode: true}, nil
	}
	if !hasX && !hasY {
		return zip4Query{}, fmt.Errorf("give x (latitude) and y (longitude), or zip9 alone")
	}
	lat, err := zip4Coord(q, "x", "latitude", 90)
	if err != nil {
		return zip4Query{}, err
	}
	lon, err := zip4Coord(q, "y", "longitude", 180)
	if err != nil {
		return zip4Query{}, err
	}
	return zip4Query{Point: orb.Point{lon, lat}}, nil
}

// zip4Coord reads a decimal-degree parameter in [-limit, limit].
func zip4Coord(q url.Values, name, what string, limit float64) (float64, error) {
	rangeErr := fmt.Errorf("%s is a %s in [-%g, %g]", name, what, limit, limit)
	vs, ok := q[name]
	if !ok {
		return 0, fmt.Errorf("%s (%s) is required", name, what)
	}
	s := vs[0]
	if !zip4Decimal(s) {
		return 0, fmt.Errorf("%s must be a decimal number (%s in degrees), got %q", name, what, zip4Clip(s))
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || v < -limit || v > limit {
		return 0, rangeErr
	}
	return v, nil
}

// zip4Decimal reports whether s is a plain decimal number (see isDecimal)
// of at most zip4MaxNumberLen bytes.
func zip4Decimal(s string) bool {
	return len(s) <= zip4MaxNumberLen && isDecimal(s)
}

// zip4Clip shortens a value quoted in an error message.
func zip4Clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
