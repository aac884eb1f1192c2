package api

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/geosvc/geosvc/queue"
	"github.com/geosvc/geosvc/routing"
)

// The rules shared by tdmv1's per-point lists and routev1's semicolon
// lists, OSRM's radiuses, bearings and approaches.

// maxFallbackKmh is the largest fallback_speed, the limit of speeds.
const maxFallbackKmh = 250

// radiusReason says why v (written text) is not a snapping radius, "" when
// it is one.
func radiusReason(v float64, text string) string {
	if math.IsNaN(v) || v <= 0 || v > routing.MaxSnapRadiusM {
		return fmt.Sprintf("%s is out of range: a radius is more than 0 and at most %d metres", text, routing.MaxSnapRadiusM)
	}
	return ""
}

// bearingReason says why value, range (as written) are not a bearing, ""
// when they are one.
func bearingReason(value, rng float64, valueText, rangeText string) string {
	switch {
	case math.IsNaN(value) || value < 0 || value > 360:
		return valueText + " is out of 0..360"
	case math.IsNaN(rng) || rng < 0 || rng > 180:
		return "range " + rangeText + " is out of 0..180"
	}
	return ""
}

// approachWant lists the approaches for error messages.
const approachWant = `"curb" or "unrestricted"`

// parseApproach reads an approach: curb tells which, ok whether s is one.
func parseApproach(s string) (curb, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "curb":
		return true, true
	case "unrestricted":
		return false, true
	}
	return false, false
}

// orderSnapFields are the order's snapping and fallback fields.
var orderSnapFields = []string{
	"origin_radiuses", "destination_radiuses", "origin_bearings", "destination_bearings",
	"origin_approaches", "destination_approaches", "snapping", "fallback_speed", "fallback_coordinate",
}

// parseSnapping reads the body's "snapping" field: true for "any", false
// for "default" or no field.
func parseSnapping(fields map[string]json.RawMessage, errs []fieldError) (bool, []fieldError) {
	raw := fields["snapping"]
	if isNull(raw) {
		return false, errs
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "default":
		return false, errs
	case "any":
		return true, errs
	}
	return false, append(errs, fieldError{"snapping", fmt.Sprintf(`%s is not a snapping rule: want "default" (a road of the main component first) or "any"`, cutEcho(string(raw)))})
}

// parseOrderOptions reads an order's snapping and fallback fields; rows
// and cols are the numbers of addresses given (0 when the list is
// missing: its length is then not checked).
func parseOrderOptions(fields map[string]json.RawMessage, rows, cols int, errs []fieldError) (queue.Options, []fieldError) {
	var o queue.Options
	o.Origins, errs = parsePointOptions(fields, "origin", rows, errs)
	o.Destinations, errs = parsePointOptions(fields, "destination", cols, errs)
	o.SnapAny, errs = parseSnapping(fields, errs)
	if raw := fields["fallback_speed"]; !isNull(raw) {
		var v float64
		if err := json.Unmarshal(raw, &v); err != nil || v <= 0 || v > maxFallbackKmh {
			errs = append(errs, fieldError{"fallback_speed", fmt.Sprintf("%s is out of range: a speed in km/h, more than 0 and at most %d", cutEcho(string(raw)), maxFallbackKmh)})
		} else {
			o.FallbackKmh = v
		}
	}
	if raw := fields["fallback_coordinate"]; !isNull(raw) {
		var s string
		_ = json.Unmarshal(raw, &s)
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "input":
		case "snapped":
			o.FallbackSnapped = true
		default:
			errs = append(errs, fieldError{"fallback_coordinate", fmt.Sprintf(`%s is not a fallback coordinate: want "input" (default) or "snapped"`, cutEcho(string(raw)))})
		}
	}
	return o, errs
}

// parsePointOptions reads the radiuses, bearings and approaches of one
// side (side "origin" or "destination"), each a list as long as its n
// addresses with null for the default. It returns nil when no point has
// an option.
func parsePointOptions(fields map[string]json.RawMessage, side string, n int, errs []fieldError) ([]queue.PointOptions, []fieldError) {
	var out []queue.PointOptions
	set := func(i int, f func(*queue.PointOptions)) {
		if out == nil {
			out = make([]queue.PointOptions, n)
		}
		f(&out[i])
	}
	addresses := side + "_addresses"
	for _, kind := range []string{"radiuses", "bearings", "approaches"} {
		field := side + "_" + kind
		raw := fields[field]
		if isNull(raw) {
			continue
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			errs = append(errs, fieldError{field, fmt.Sprintf("must be an array as long as %s, one entry per point or null", addresses)})
			continue
		}
		if n == 0 {
			continue // the addresses themselves are the problem
		}
		if len(items) != n {
			errs = append(errs, fieldError{field, fmt.Sprintf("holds %d entries for %d %s: one per point, null for the default", len(items), n, addresses)})
			continue
		}
		for i, item := range items {
			if isNull(item) {
				continue
			}
			f := fmt.Sprintf("%s[%d]", field, i)
			switch kind {
			case "radiuses":
				var v float64
				if err := json.Unmarshal(item, &v); err != nil {
					errs = append(errs, fieldError{f, "must be a number of metres or null"})
				} else if r := radiusReason(v, string(item)); r != "" {
					errs = append(errs, fieldError{f, r})
				} else {
					set(i, func(p *queue.PointOptions) { p.RadiusM = v })
				}
			case "bearings":
				var pair []json.RawMessage
				var v [2]float64
				if err := json.Unmarshal(item, &pair); err != nil || len(pair) != 2 ||
					json.Unmarshal(pair[0], &v[0]) != nil || json.Unmarshal(pair[1], &v[1]) != nil {
					errs = append(errs, fieldError{f, "must be [value, range] in degrees (value 0..360, range 0..180) or null"})
				} else if r := bearingReason(v[0], v[1], string(pair[0]), string(pair[1])); r != "" {
					errs = append(errs, fieldError{f, r})
				} else {
					set(i, func(p *queue.PointOptions) { p.Bearing = &v })
				}
			case "approaches":
				var s string
				_ = json.Unmarshal(item, &s)
				if curb, ok := parseApproach(s); !ok {
					errs = append(errs, fieldError{f, fmt.Sprintf("%s is not an approach: want %s or null", cutEcho(string(item)), approachWant)})
				} else if curb {
					set(i, func(p *queue.PointOptions) { p.Curb = true })
				}
			}
		}
	}
	return out, errs
}

// routeSnapOptions reads routev1's radiuses, bearings and approaches
// (OSRM's semicolon lists, one entry per point, empty for the default)
// and snapping (default or any) for n points. It returns a message naming
// the bad parameter and entry.
func routeSnapOptions(get func(string) string, n int) ([]routing.SnapOptions, string) {
	opts := make([]routing.SnapOptions, n)
	switch v := strings.ToLower(strings.TrimSpace(get("snapping"))); v {
	case "", "default":
	case "any":
		for i := range opts {
			opts[i].Any = true
		}
	default:
		return nil, fmt.Sprintf("snapping %s is not a snapping rule: use default or any", quoteEcho(v))
	}
	radiuses, msg := parseRadiusList(get("radiuses"), n)
	if msg != "" {
		return nil, msg
	}
	bearings, msg := parseBearingList(get("bearings"), n)
	if msg != "" {
		return nil, msg
	}
	curbs, msg := parseApproachList(get("approaches"), n)
	if msg != "" {
		return nil, msg
	}
	for i := range opts {
		if radiuses != nil {
			opts[i].RadiusM = radiuses[i]
		}
		if bearings != nil && bearings[i] != nil {
			opts[i].HasBearing, opts[i].BearingDeg, opts[i].RangeDeg = true, bearings[i][0], bearings[i][1]
		}
		if curbs != nil {
			opts[i].Curb = curbs[i]
		}
	}
	return opts, ""
}

// splitOSRMList splits an OSRM semicolon list of n entries; nil for an empty
// parameter.
func splitOSRMList(param, s string, n int) ([]string, string) {
	if s == "" {
		return nil, ""
	}
	parts := strings.Split(s, ";")
	if len(parts) != n {
		return nil, fmt.Sprintf("%s has %d entries for %d points: one per point (from;to), separated by ';', empty for the default", param, len(parts), n)
	}
	return parts, ""
}

// parseRadiusList reads radiuses=R;R (metres, empty for the default: 0).
func parseRadiusList(s string, n int) ([]float64, string) {
	parts, msg := splitOSRMList("radiuses", s, n)
	if parts == nil {
		return nil, msg
	}
	out := make([]float64, n)
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || !isDecimal(p) {
			return nil, fmt.Sprintf("radiuses[%d]: %s is not a number of metres", i, quoteEcho(p))
		}
		if r := radiusReason(v, p); r != "" {
			return nil, fmt.Sprintf("radiuses[%d]: %s", i, r)
		}
		out[i] = v
	}
	return out, ""
}

// parseBearingList reads bearings=V,R;V,R (degrees, empty for none).
func parseBearingList(s string, n int) ([]*[2]float64, string) {
	parts, msg := splitOSRMList("bearings", s, n)
	if parts == nil {
		return nil, msg
	}
	out := make([]*[2]float64, n)
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		vs, rs, ok := strings.Cut(p, ",")
		vs, rs = strings.TrimSpace(vs), strings.TrimSpace(rs)
		v, err1 := strconv.ParseFloat(vs, 64)
		r, err2 := strconv.ParseFloat(rs, 64)
		if !ok || err1 != nil || err2 != nil || !isDecimal(vs) || !isDecimal(rs) {
			return nil, fmt.Sprintf("bearings[%d]: %s is not value,range in degrees (e.g. 90,20)", i, quoteEcho(p))
		}
		if reason := bearingReason(v, r, vs, rs); reason != "" {
			return nil, fmt.Sprintf("bearings[%d]: %s", i, reason)
		}
		out[i] = &[2]float64{v, r}
	}
	return out, ""
}

// parseApproachList reads approaches=curb;unrestricted (empty for the
// default, unrestricted): true where curb.
func parseApproachList(s string, n int) ([]bool, string) {
	parts, msg := splitOSRMList("approaches", s, n)
	if parts == nil {
		return nil, msg
	}
	out := make([]bool, n)
	for i, p := range parts {
		if strings.TrimSpace(p) == "" {
			continue
		}
		curb, ok := parseApproach(p)
		if !ok {
			return nil, fmt.Sprintf("approaches[%d]: %s is not an approach: use curb or unrestricted", i, quoteEcho(p))
		}
		out[i] = curb
	}
	return out, ""
}
