package api

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
)

// Shared query parsing of the point lookups (adminv1, geoboundariesv1,
// timezonesv1): every function returns a message for a 400
// answer that names the parameter, what was wrong and what is allowed, or
// "" when the input is good. When a parameter is repeated, the first value
// counts.

// lookupMaxEcho is the longest piece of a bad value quoted back.
const lookupMaxEcho = 32

// lookupCoord describes one coordinate query parameter.
type lookupCoord struct {
	// Param is the query parameter ("x").
	Param string
	// What names the coordinate ("longitude").
	What string
	// Limit is the largest absolute value allowed (180 or 90).
	Limit float64
}

// The coordinate parameters of adminv1 and geoboundariesv1 (x is the
// longitude, y the latitude; zip4v1 swaps them).
var (
	lookupLonX = lookupCoord{"x", "longitude", 180}
	lookupLatY = lookupCoord{"y", "latitude", 90}
)

// parseLookupPoint reads a point from the query's lon and lat parameters.
func parseLookupPoint(q url.Values, lon, lat lookupCoord) (orb.Point, string) {
	x, msg := lon.Parse(q)
	if msg != "" {
		return orb.Point{}, msg
	}
	y, msg := lat.Parse(q)
	if msg != "" {
		return orb.Point{}, msg
	}
	return orb.Point{x, y}, ""
}

// Parse reads the coordinate: required, a finite decimal number within
// -Limit..Limit.
func (c lookupCoord) Parse(q url.Values) (float64, string) {
	s := q.Get(c.Param)
	if s == "" {
		return 0, fmt.Sprintf("%s is required: the %s in decimal degrees, -%g to %g", c.Param, c.What, c.Limit, c.Limit)
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case err == nil && (math.IsNaN(v) || math.IsInf(v, 0)):
		return 0, fmt.Sprintf("%s must be a finite number (the %s in decimal degrees), got %s", c.Param, c.What, quoteEcho(s))
	case !isDecimal(s):
		return 0, fmt.Sprintf("%s must be a number (the %s in decimal degrees), got %s", c.Param, c.What, quoteEcho(s))
	case errors.Is(err, strconv.ErrRange) && !math.IsInf(v, 0):
		v = 0 // underflow: a valid 0
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Sprintf("%s (%s) must be between -%g and %g, got %s", c.Param, c.What, c.Limit, c.Limit, cutEcho(s))
	case err != nil:
		return 0, fmt.Sprintf("%s must be a number (the %s in decimal degrees), got %s", c.Param, c.What, quoteEcho(s))
	case math.IsNaN(v), math.IsInf(v, 0):
		return 0, fmt.Sprintf("%s must be a finite number (the %s in decimal degrees), got %s", c.Param, c.What, quoteEcho(s))
	}
	if v < -c.Limit || v > c.Limit {
		return 0, fmt.Sprintf("%s (%s) must be between -%g and %g, got %s", c.Param, c.What, c.Limit, c.Limit, cutEcho(s))
	}
	return v, ""
}

// cutEcho cuts a value for a message to lookupMaxEcho bytes.
func cutEcho(s string) string {
	if len(s) > lookupMaxEcho {
		s = s[:lookupMaxEcho] + "..."
	}
	return s
}

// quoteEcho quotes a bad value for a message, cut to lookupMaxEcho bytes.
func quoteEcho(s string) string {
	return strconv.Quote(cutEcho(s))
}

// adminTypes lists the allowed values of adminv1's type.
const adminTypes = "admin0, admin1, admin2, admin3, admin4, admin5, admin6, admin7, admin8"

// parseAdminType reads adminv1's type parameter ("admin0".."admin8",
// required) and returns the level 0..8.
func parseAdminType(q url.Values) (int, string) {
	s := q.Get("type")
	if s == "" {
		return 0, "type is required: one of " + adminTypes
	}
	if len(s) == 6 && strings.HasPrefix(s, "admin") && s[5] >= '0' && s[5] <= '8' {
		return int(s[5] - '0'), ""
	}
	return 0, fmt.Sprintf("type %s is not allowed: use one of %s", quoteEcho(s), adminTypes)
}

// parseCategoryCode reads an optional integer category code parameter;
// ok is false when it is absent.
func parseCategoryCode(q url.Values, param string) (code int, ok bool, msg string) {
	vs, present := q[param]
	if !present || len(vs) == 0 {
		return 0, false, ""
	}
	s := vs[0]
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, false, fmt.Sprintf("%s must be an integer category code, got %s", param, quoteEcho(s))
	}
	return n, true, ""
}
