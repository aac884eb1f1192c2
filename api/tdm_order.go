package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/routing"
)

// maxListedErrors caps the field errors one 400 answer lists.
const maxListedErrors = 50

// fieldError names one invalid input and says what is wrong with it.
type fieldError struct {
	// Field is the JSON path of the input, e.g. "origin_addresses[17]".
	Field string `json:"field"`
	// Reason says what is wrong and what is expected.
	Reason string `json:"reason"`
}

// validationError is the body of a 400 answer to an invalid request:
// {"message": ..., "errors": [{"field": ..., "reason": ...}]}.
type validationError struct {
	Message string       `json:"message"`
	Errors  []fieldError `json:"errors"`
}

// newValidationError summarises errs (at least one) in a message and lists
// the first maxListedErrors of them.
func newValidationError(what string, errs []fieldError) *validationError {
	msg := fmt.Sprintf("invalid %s: %s: %s", what, errs[0].Field, errs[0].Reason)
	if n := len(errs) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more problem%s", n, plural(n))
		if len(errs) > maxListedErrors {
			msg += fmt.Sprintf("; the first %d are listed", maxListedErrors)
			errs = errs[:maxListedErrors]
		}
		msg += ")"
	}
	return &validationError{Message: msg, Errors: errs}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// orderBody is the JSON of POST /tdmv1/order, every field kept raw so that
// each problem can be named precisely.
type orderBody struct {
	Result       json.RawMessage `json:"result"`
	Origins      json.RawMessage `json:"origin_addresses"`
	Destinations json.RawMessage `json:"destination_addresses"`
	Routing      json.RawMessage `json:"routing"`
	Speeds       json.RawMessage `json:"speeds"`
	Avoid        json.RawMessage `json:"avoid"`
	AvoidAreas   json.RawMessage `json:"avoid_polygons"`
	Profile      json.RawMessage `json:"profile"`
	Vehicle      json.RawMessage `json:"vehicle"`
}

// parseOrder validates an order body. It returns the order (without owner)
// or the problems found; a body that is not a JSON object is a single
// problem of the field "body".
// Field names are matched exactly: an unknown or differently cased key
// (a typo such as "results") is a 400, never silently ignored.
// limit is the most origins, and the most destinations, an order may hold.
// The departure_time, when given (parseTripTime against now), is
// returned beside the order: the bucket it selects depends on the graph.
func parseOrder(body []byte, limit int, now time.Time) (queue.Order, *time.Time, []fieldError) {
	o, errs := parseOrderFields(body, limit)
	raw, ok := orderField(body, "departure_time")
	if !ok || isNull(raw) {
		return o, nil, errs
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return o, nil, append(errs, fieldError{"departure_time", "must be a string: " + tripTimeWant})
	}
	t, reason := parseTripTime(v, now)
	if reason != "" {
		return o, nil, append(errs, fieldError{"departure_time", reason})
	}
	return o, &t, errs
}

// orderField returns a member of a JSON object body.
func orderField(body []byte, name string) (json.RawMessage, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) != nil {
		return nil, false
	}
	raw, ok := fields[name]
	return raw, ok
}

// parseOrderFields is parseOrder without the departure time.
func parseOrderFields(body []byte, limit int) (queue.Order, []fieldError) {
	var o queue.Order
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return o, []fieldError{{Field: "body", Reason: bodyReason(err)}}
	}
	if fields == nil {
		return o, []fieldError{{Field: "body", Reason: "the body must be a JSON object"}}
	}
	var errs []fieldError
	b := orderBody{
		Result:       fields["result"],
		Origins:      fields["origin_addresses"],
		Destinations: fields["destination_addresses"],
		Routing:      fields["routing"],
		Speeds:       fields["speeds"],
		Avoid:        fields["avoid"],
		AvoidAreas:   fields["avoid_polygons"],
		Profile:      fields["profile"],
		Vehicle:      fields["vehicle"],
	}
	var unknown []string
	for k := range fields {
		switch k {
		case "result", "origin_addresses", "destination_addresses", "routing", "speeds", "avoid", "avoid_polygons", "profile", "vehicle", "departure_time":
		default:
			if !slices.Contains(orderSnapFields, k) {
				unknown = append(unknown, k)
			}
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		errs = append(errs, fieldError{k, "unknown field: an order takes result, origin_addresses, destination_addresses, routing, profile, vehicle, speeds, avoid, avoid_polygons, departure_time, " +
			strings.Join(orderSnapFields, ", ") + " (names are case-sensitive)"})
	}
	o.Outputs, errs = parseOutputs(b.Result, errs)
	o.Origins, o.OriginPoints, errs = parseAddresses("origin_addresses", "origins", b.Origins, limit, errs)
	o.Destinations, o.DestinationPoints, errs = parseAddresses("destination_addresses", "destinations", b.Destinations, limit, errs)
	o.Routing, errs = parseMetric(b, errs)
	o.Profile, errs = parseOrderProfile(fields["profile"], errs)
	o.Options, errs = parseOrderOptions(fields, len(o.Origins), len(o.Destinations), errs)
	return o, errs
}

// parseOrderProfile reads "profile" (parseProfile): absent or null is
// the car.
func parseOrderProfile(raw json.RawMessage, errs []fieldError) (string, []fieldError) {
	var v string
	if !isNull(raw) {
		if err := json.Unmarshal(raw, &v); err != nil {
			return "", append(errs, fieldError{"profile", "must be a string: " + profileValues})
		}
	}
	p, reason := parseProfile(v)
	if reason != "" {
		return "", append(errs, fieldError{"profile", reason})
	}
	return p.graph, errs
}

// bodyReason explains why a body is not the JSON object expected.
func bodyReason(err error) string {
	if _, ok := err.(*json.UnmarshalTypeError); ok {
		return "the body must be a JSON object"
	}
	return "malformed JSON: " + err.Error()
}

// isNull reports whether a raw field is absent or null.
func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// parseOutputs reads "result": absent or null is both matrices; "cost" is
// an alias of "duration".
func parseOutputs(raw json.RawMessage, errs []fieldError) (queue.Outputs, []fieldError) {
	const want = `"duration", "distance" or "cost" (an alias of duration)`
	if isNull(raw) {
		return queue.OutBoth, errs
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return 0, append(errs, fieldError{"result", "must be an array of strings, each " + want})
	}
	if len(items) == 0 {
		return 0, append(errs, fieldError{"result", "is empty: name at least one of " + want + ", or leave result out for both matrices"})
	}
	var out queue.Outputs
	for i, item := range items {
		field := fmt.Sprintf("result[%d]", i)
		var s string
		if err := json.Unmarshal(item, &s); err != nil {
			errs = append(errs, fieldError{field, "must be a string, one of " + want})
			continue
		}
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "duration", "cost":
			out |= queue.OutDuration
		case "distance":
			out |= queue.OutDistance
		default:
			errs = append(errs, fieldError{field, fmt.Sprintf("unknown output %q: want %s", s, want)})
		}
	}
	return out, errs
}

// parseAddresses reads a list of 1..limit "lon,lat" strings.
func parseAddresses(field, what string, raw json.RawMessage, limit int, errs []fieldError) ([]string, []orb.Point, []fieldError) {
	if isNull(raw) {
		return nil, nil, append(errs, fieldError{field, fmt.Sprintf(`is required: an array of 1 to %d %s, each "lon,lat"`, limit, what)})
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, nil, append(errs, fieldError{field, fmt.Sprintf(`must be an array of 1 to %d strings, each "lon,lat"`, limit)})
	}
	switch {
	case len(items) == 0:
		return nil, nil, append(errs, fieldError{field, fmt.Sprintf("is empty: an order needs 1 to %d %s", limit, what)})
	case len(items) > limit:
		return nil, nil, append(errs, fieldError{field, fmt.Sprintf("holds %d %s: the limit is %d", len(items), what, limit)})
	}
	addrs := make([]string, len(items))
	pts := make([]orb.Point, len(items))
	for i, item := range items {
		f := fmt.Sprintf("%s[%d]", field, i)
		if err := json.Unmarshal(item, &addrs[i]); err != nil {
			errs = append(errs, fieldError{f, `must be a string "lon,lat"`})
			continue
		}
		p, reason := parseLonLat(addrs[i])
		if reason != "" {
			errs = append(errs, fieldError{f, reason})
			continue
		}
		pts[i] = p
	}
	return addrs, pts, errs
}

// parseLonLat reads "lon,lat" in decimal degrees, spaces around either
// number tolerated. It returns the point or the reason it is invalid.
func parseLonLat(s string) (orb.Point, string) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return orb.Point{}, fmt.Sprintf(`%q is not "lon,lat": want two decimal numbers separated by a comma, longitude first`, s)
	}
	var p orb.Point
	for k, name := range []string{"longitude", "latitude"} {
		t := strings.TrimSpace(parts[k])
		if !isDecimal(t) {
			return p, fmt.Sprintf("%s %q is not a decimal number", name, t)
		}
		v, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return p, fmt.Sprintf("%s %q is not a finite number", name, t)
		}
		p[k] = v
	}
	switch {
	case p[0] < -180 || p[0] > 180:
		return p, fmt.Sprintf("longitude %s is out of range [-180, 180]", strings.TrimSpace(parts[0]))
	case p[1] < -90 || p[1] > 90:
		reason := fmt.Sprintf("latitude %s is out of range [-90, 90]", strings.TrimSpace(parts[1]))
		if p[0] >= -90 && p[0] <= 90 {
			reason += ` (the order is "lon,lat", longitude first)`
		}
		return p, reason
	}
	return p, ""
}

// isDecimal reports whether s is a plain decimal number: an optional sign,
// digits with at most one decimal point, and an optional exponent. It
// refuses what strconv.ParseFloat would also take: NaN, Inf, hexadecimal
// and underscores.
func isDecimal(s string) bool {
	i, n := 0, len(s)
	if i < n && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < n && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
	}
	if i < n && s[i] == '.' {
		for i++; i < n && s[i] >= '0' && s[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for ; i < n && s[i] >= '0' && s[i] <= '9'; i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == n
}

// routingWant lists the routing options for error messages.
const routingWant = `"fastest" (default), "shortest", "efficient" (or "most_efficient") or "safest"`

// parseMetric reads the optional "routing", "speeds" (km/h by RoadType
// name), "avoid" (ferry, motorway, toll, unpaved), "avoid_polygons" (a
// GeoJSON Polygon or MultiPolygon), "profile" (car or truck) and
// "vehicle" (a truck's dimensions) into the canonical key of a
// routing.Metric (its String), the job's own stored value.
func parseMetric(b orderBody, errs []fieldError) (string, []fieldError) {
	n := len(errs)
	var base string
	if !isNull(b.Routing) {
		if err := json.Unmarshal(b.Routing, &base); err != nil {
			errs = append(errs, fieldError{"routing", "must be a string: " + routingWant})
		} else if _, err := routing.ParseObjective(base); err != nil {
			errs = append(errs, fieldError{"routing", fmt.Sprintf("unknown routing %q: want %s", base, routingWant)})
		}
	}
	var speeds map[string]json.RawMessage
	if !isNull(b.Speeds) {
		if err := json.Unmarshal(b.Speeds, &speeds); err != nil {
			errs = append(errs, fieldError{"speeds", `must be an object of speeds in km/h by RoadType, e.g. {"Motorway": 80, "LocalRoadCity": 20}`})
		}
	}
	kmh := make(map[string]float64, len(speeds))
	names := make([]string, 0, len(speeds))
	for name := range speeds {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		var v float64
		if err := json.Unmarshal(speeds[name], &v); err != nil {
			errs = append(errs, fieldError{"speeds." + name, "must be a number of km/h"})
			continue
		}
		var probe routing.Metric
		if err := probe.SetSpeed(name, v); err != nil {
			var se *routing.SpecError
			if errors.As(err, &se) {
				errs = append(errs, fieldError{se.Field, se.Msg})
				continue
			}
		}
		kmh[name] = v
	}
	var avoid []string
	if !isNull(b.Avoid) {
		if err := json.Unmarshal(b.Avoid, &avoid); err != nil {
			errs = append(errs, fieldError{"avoid", `must be an array of strings: "ferry", "motorway", "toll" or "unpaved"`})
		}
	}
	for i, a := range avoid {
		if _, err := routing.ParseAvoid(a); err != nil {
			errs = append(errs, fieldError{fmt.Sprintf("avoid[%d]", i), fmt.Sprintf(`%q is not an avoid option: want "ferry", "motorway", "toll" or "unpaved"`, a)})
		}
	}
	var prof routing.Metric
	errs = parseProfileVehicle(b.Profile, b.Vehicle, &prof, errs)
	var areas routing.Areas
	if !isNull(b.AvoidAreas) {
		var err error
		if areas, err = routing.ParseAreas(b.AvoidAreas); err != nil {
			errs = append(errs, specFieldError(err, "avoid_polygons"))
		}
	}
	if len(errs) > n {
		return "", errs
	}
	spec, err := routing.NewMetric(base, kmh, avoid)
	if err != nil {
		return "", append(errs, fieldError{"routing", err.Error()})
	}
	spec.Areas = areas
	spec.Profile, spec.Vehicle = prof.Profile, prof.Vehicle
	return spec.String(), errs
}

// specFieldError names a routing.SpecError's field (field when err is
// not one).
func specFieldError(err error, field string) fieldError {
	var se *routing.SpecError
	if errors.As(err, &se) {
		return fieldError{se.Field, se.Msg}
	}
	return fieldError{field, err.Error()}
}
