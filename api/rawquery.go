package api

import (
	"fmt"
	"net/url"
	"strings"
)

// semicolonQuery parses a raw query string as url.ParseQuery does, except
// that a semicolon is part of a value rather than an error: OSRM's lists
// (`radiuses=50;`, `bearings=90,20;`) are written with bare semicolons,
// which net/url (since Go 1.17) refuses, dropping the whole parameter. An
// escape that does not decode is an error naming the parameter.
func semicolonQuery(raw string) (url.Values, error) {
	q := url.Values{}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			return nil, fmt.Errorf("the query's parameter %q is not URL-encoded correctly", k)
		}
		val, err := url.QueryUnescape(v)
		if err != nil {
			return nil, fmt.Errorf("%s: the value is not URL-encoded correctly", key)
		}
		q[key] = append(q[key], val)
	}
	return q, nil
}

// routeParams are routev1's query parameters (api/openapi.yaml's
// /routev1/route), each taken once.
var routeParams = []string{"from", "to", "routing", "speeds", "avoid", "avoid_polygons", "profile", "vehicle", "alternatives",
	"departure_time", "arrival_time", "radiuses", "bearings", "approaches", "snapping", "lang"}

// repeatedParam returns the message refusing the first of names that q
// holds more than once, as zip4v1 and the OSRM API refuse them ("" when
// none is): a repeated parameter is ambiguous, and taking the first would
// silently drop the second, malformed or not.
func repeatedParam(q url.Values, names []string) string {
	for _, k := range names {
		if n := len(q[k]); n > 1 {
			return fmt.Sprintf("%s is given %d times; give it once", k, n)
		}
	}
	return ""
}
