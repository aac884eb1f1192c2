package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"

	"github.com/geosvc/geosvc/routing"
)

// Limits of POST /matchv1/match (api/openapi.yaml documents them).
const (
	// minMatchPoints is the fewest points a trace may have.
	minMatchPoints = 2
	// maxMatchTidyM is the largest tidy distance, in metres.
	maxMatchTidyM = 1000
	// defaultMatchTidyM is the tidy distance of "tidy": true.
	defaultMatchTidyM = 10
)

// matchBody is the JSON of POST /matchv1/match, every field kept raw so
// that each problem can be named precisely.
type matchBody struct {
	Points   json.RawMessage `json:"points"`
	Radiuses json.RawMessage `json:"radiuses"`
	Gaps     json.RawMessage `json:"gaps"`
	Tidy     json.RawMessage `json:"tidy"`
	// The metric, as routev1's parameters of the same names.
	Routing       json.RawMessage `json:"routing"`
	Speeds        json.RawMessage `json:"speeds"`
	Avoid         json.RawMessage `json:"avoid"`
	AvoidPolygons json.RawMessage `json:"avoid_polygons"`
	Profile       json.RawMessage `json:"profile"`
	Vehicle       json.RawMessage `json:"vehicle"`
}

// matchPointBody is one point of a trace.
type matchPointBody struct {
	Lon       json.RawMessage `json:"lon"`
	Lat       json.RawMessage `json:"lat"`
	Time      json.RawMessage `json:"time"`
	AccuracyM json.RawMessage `json:"accuracy_m"`
}

// matchRequest is a parsed match request.
type matchRequest struct {
	points  []routing.TracePoint
	opts    routing.MatchOptions
	spec    routing.Metric
	profile requestProfile
}

// parseMatch validates a match body. It returns the request, or the
// first problem found, naming the field (and the point's index). Field
// names are matched exactly: an unknown key is a 400.
func parseMatch(body []byte) (matchRequest, *fieldError) {
	var r matchRequest
	var b matchBody
	if err := strictUnmarshal(body, &b); err != nil {
		return r, &fieldError{Field: "body", Reason: "must be a JSON object with points (and optional radiuses, gaps, tidy, routing, speeds, avoid, avoid_polygons, profile, vehicle): " + err.Error()}
	}
	if isAbsent(b.Points) {
		return r, &fieldError{Field: "points", Reason: "is required: a list of {lon, lat, time, accuracy_m}"}
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b.Points, &raw); err != nil {
		return r, &fieldError{Field: "points", Reason: "must be a list of {lon, lat, time, accuracy_m}"}
	}
	if len(raw) < minMatchPoints || len(raw) > routing.MaxTracePoints {
		return r, &fieldError{Field: "points", Reason: fmt.Sprintf("has %d points: a trace has %d to %d", len(raw), minMatchPoints, routing.MaxTracePoints)}
	}
	r.points = make([]routing.TracePoint, len(raw))
	for i, pb := range raw {
		if fe := parseMatchPoint(pb, i, &r.points[i]); fe != nil {
			return r, fe
		}
	}
	if fe := parseRadiuses(b.Radiuses, r.points); fe != nil {
		return r, fe
	}
	if err := routing.CheckTrace(r.points); err != nil {
		te := err.(*routing.TraceError)
		field := "points"
		if te.Index >= 0 {
			field = fmt.Sprintf("points[%d].%s", te.Index, te.Field)
			if te.Field == "radius" {
				field = fmt.Sprintf("radiuses[%d]", te.Index)
			}
		}
		return r, &fieldError{Field: field, Reason: te.Reason}
	}
	if !isAbsent(b.Gaps) {
		var g string
		if json.Unmarshal(b.Gaps, &g) != nil || (g != "split" && g != "ignore") {
			return r, &fieldError{Field: "gaps", Reason: fmt.Sprintf("must be \"split\" or \"ignore\", got %s", clip(b.Gaps))}
		}
		r.opts.IgnoreGaps = g == "ignore"
	}
	if !isAbsent(b.Tidy) {
		var on bool
		var m float64
		switch {
		case json.Unmarshal(b.Tidy, &on) == nil:
			if on {
				r.opts.TidyM = defaultMatchTidyM
			}
		case json.Unmarshal(b.Tidy, &m) == nil && m >= 0 && m <= maxMatchTidyM:
			r.opts.TidyM = m
		default:
			return r, &fieldError{Field: "tidy", Reason: fmt.Sprintf("must be true, false or a distance from 0 to %d metres, got %s", maxMatchTidyM, clip(b.Tidy))}
		}
	}
	return r, parseMatchMetric(b, &r)
}

// parseMatchPoint reads point i of the trace into p.
func parseMatchPoint(raw json.RawMessage, i int, p *routing.TracePoint) *fieldError {
	var pb matchPointBody
	if err := strictUnmarshal(raw, &pb); err != nil {
		return &fieldError{Field: fmt.Sprintf("points[%d]", i), Reason: "must be an object {lon, lat, time, accuracy_m}: " + err.Error()}
	}
	for k, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"lon", pb.Lon}, {"lat", pb.Lat}} {
		field := fmt.Sprintf("points[%d].%s", i, f.name)
		if isAbsent(f.raw) {
			return &fieldError{Field: field, Reason: "is required: a number of decimal degrees"}
		}
		v, ok := finiteNumber(f.raw)
		if !ok {
			return &fieldError{Field: field, Reason: fmt.Sprintf("must be a number of decimal degrees, got %s", clip(f.raw))}
		}
		p.Point[k] = v
	}
	if !isAbsent(pb.AccuracyM) {
		v, ok := finiteNumber(pb.AccuracyM)
		if !ok || v < 0 || v > routing.MaxSnapRadiusM {
			return &fieldError{Field: fmt.Sprintf("points[%d].accuracy_m", i), Reason: fmt.Sprintf("must be a number of metres from 0 to %d, got %s", routing.MaxSnapRadiusM, clip(pb.AccuracyM))}
		}
		p.AccuracyM = v
	}
	if !isAbsent(pb.Time) {
		t, ok := parseTraceTime(pb.Time)
		if !ok {
			return &fieldError{Field: fmt.Sprintf("points[%d].time", i), Reason: fmt.Sprintf("must be an RFC 3339 time (\"2026-05-01T08:00:00Z\") or Unix seconds, got %s", clip(pb.Time))}
		}
		p.Time = t
	}
	return nil
}

// parseRadiuses reads the per-point radiuses: a list as long as points,
// each null (the default) or a number of metres above 0.
func parseRadiuses(raw json.RawMessage, pts []routing.TracePoint) *fieldError {
	if isAbsent(raw) {
		return nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || len(list) != len(pts) {
		return &fieldError{Field: "radiuses", Reason: fmt.Sprintf("must be a list of %d entries (one per point), each null or metres", len(pts))}
	}
	for i, e := range list {
		if isAbsent(e) {
			continue
		}
		v, ok := finiteNumber(e)
		if !ok || v <= 0 || v > routing.MaxSnapRadiusM {
			return &fieldError{Field: fmt.Sprintf("radiuses[%d]", i), Reason: fmt.Sprintf("must be null or a number of metres above 0 and at most %d, got %s", routing.MaxSnapRadiusM, clip(e))}
		}
		pts[i].RadiusM = v
	}
	return nil
}

// parseMatchMetric reads the metric fields, strings with routev1's
// syntax (avoid_polygons: a GeoJSON object), through routeSpecOf.
func parseMatchMetric(b matchBody, r *matchRequest) *fieldError {
	q := url.Values{}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"routing", b.Routing}, {"speeds", b.Speeds}, {"avoid", b.Avoid}, {"profile", b.Profile}, {"vehicle", b.Vehicle}} {
		if isAbsent(f.raw) {
			continue
		}
		var s string
		if json.Unmarshal(f.raw, &s) != nil {
			return &fieldError{Field: f.name, Reason: fmt.Sprintf("must be a string as routev1's %s= takes it, got %s", f.name, clip(f.raw))}
		}
		q.Set(f.name, s)
	}
	if !isAbsent(b.AvoidPolygons) {
		q.Set("avoid_polygons", string(b.AvoidPolygons))
	}
	spec, msg := routeSpecOf(q)
	if msg != "" {
		field := "routing"
		for _, name := range []string{"avoid_polygons", "speeds", "avoid", "profile", "vehicle"} {
			if strings.HasPrefix(msg, name) {
				field = name
				break
			}
		}
		// The message names the field already ("profile: ..."): say it once.
		msg = strings.TrimPrefix(msg, field+": ")
		return &fieldError{Field: field, Reason: msg}
	}
	r.spec = spec
	r.profile, _ = parseProfile(q.Get("profile"))
	return nil
}

// strictUnmarshal decodes one JSON value into v, refusing unknown fields
// and anything after the value.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("data after the JSON value")
	}
	return nil
}

// isAbsent reports whether a raw field was left out or null.
func isAbsent(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// finiteNumber reads a JSON number (not a string) that is finite.
func finiteNumber(raw json.RawMessage) (float64, bool) {
	var v float64
	if json.Unmarshal(raw, &v) != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// parseTraceTime reads a point's time: an RFC 3339 string or a number of
// Unix seconds (fractions allowed), between 1970 and 9999.
func parseTraceTime(raw json.RawMessage) (time.Time, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		t, err := parseRFC3339(s)
		if err != nil || t.Year() < 1970 {
			return time.Time{}, false
		}
		return t, true
	}
	v, ok := finiteNumber(raw)
	if !ok || v < 0 || v > 253402300799 {
		return time.Time{}, false
	}
	sec, frac := math.Modf(v)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC(), true
}

// clip is a raw JSON value for a message, cut to 40 bytes.
func clip(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return s
}
