package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/timezone"
	"github.com/geosvc/geosvc/keys"
)

// lookupsInterface is the interface name of the batch point lookups, as
// keys and usage counters know it.
const lookupsInterface = keys.LookupsV1

// maxLookupsBatch is the most points of one POST /lookupsv1/batch:
// openapi.yaml's maxItems.
const maxLookupsBatch = 10000

// The layers a lookups batch can ask for, in the order an item answers
// them; each is the answer of one GET endpoint at the point.
const (
	layerTimezone      = "timezone"      // timezonesv1/xy2tzdata
	layerAdmin         = "admin"         // adminv1/xy2hierarchy
	layerGeoBoundaries = "geoboundaries" // geoboundariesv1/xy2bounddata
	layerZip4          = "zip4"          // zip4v1/xy2zip
	layerCovid         = "covid"         // covidv1/xy2data?admin=8
)

// lookupsLayers lists the layers in answer order.
var lookupsLayers = []string{layerTimezone, layerAdmin, layerGeoBoundaries, layerZip4, layerCovid}

// lookupsBatch serves POST /lookupsv1/batch.
type lookupsBatch struct {
	opts  BatchOptions
	admin *adminHandler
	tz    tzEncoder
}

// lookupsBatchBody is the body.
type lookupsBatchBody struct {
	Points    json.RawMessage `json:"points"`
	Layers    json.RawMessage `json:"layers"`
	Timestamp json.RawMessage `json:"timestamp"`
}

// lookupsRequest is a parsed body: the points (msgs[i] non-empty for an
// invalid one), the layers asked for, and the timezone layer's instant.
type lookupsRequest struct {
	points []orb.Point
	msgs   []string
	layers map[string]bool
	at     time.Time
	hasAt  bool
}

// parseLookupsBatch reads the body; errs lists what makes the whole
// request invalid (not a bad point).
func parseLookupsBatch(b lookupsBatchBody) (lookupsRequest, []fieldError) {
	var r lookupsRequest
	var errs []fieldError
	if isAbsent(b.Points) {
		errs = append(errs, fieldError{"points", `is required: a list of points {"x": lon, "y": lat}`})
	} else if list, msg := batchList(b.Points, maxLookupsBatch); msg != "" {
		errs = append(errs, fieldError{"points", msg})
	} else {
		r.points, r.msgs = make([]orb.Point, len(list)), make([]string, len(list))
		for i, raw := range list {
			r.points[i], r.msgs[i] = batchPoint(raw, "points", i)
		}
	}
	want := strings.Join(lookupsLayers, ", ")
	var layers []json.RawMessage
	switch {
	case isAbsent(b.Layers):
		errs = append(errs, fieldError{"layers", "is required: a list of one or more of " + want})
	case json.Unmarshal(b.Layers, &layers) != nil:
		errs = append(errs, fieldError{"layers", "must be an array of strings, each one of " + want})
	case len(layers) == 0:
		errs = append(errs, fieldError{"layers", "is empty: name one or more of " + want})
	default:
		r.layers = map[string]bool{}
		for i, raw := range layers {
			var s string
			if json.Unmarshal(raw, &s) != nil || !isLookupsLayer(s) {
				errs = append(errs, fieldError{fmt.Sprintf("layers[%d]", i), fmt.Sprintf("%s is not a layer: use %s", clip(raw), want)})
				continue
			}
			r.layers[s] = true
		}
	}
	if !isAbsent(b.Timestamp) {
		var s string
		if json.Unmarshal(b.Timestamp, &s) != nil {
			errs = append(errs, fieldError{"timestamp", "must be a string: " + tzTimestampWant})
		} else if at, ok, msg := parseTZTimestamp(url.Values{"timestamp": {s}}); msg != "" {
			errs = append(errs, fieldError{"timestamp", strings.TrimPrefix(msg, "timestamp ")})
		} else {
			r.at, r.hasAt = at, ok
		}
	}
	return r, errs
}

// isLookupsLayer reports whether s names a layer.
func isLookupsLayer(s string) bool {
	for _, l := range lookupsLayers {
		if s == l {
			return true
		}
	}
	return false
}

// loaded reports whether the bundle has every layer r asks for.
func (r lookupsRequest) loaded(bd *bundle.Bundle) bool {
	if bd == nil {
		return false
	}
	switch {
	case r.layers[layerTimezone] && bd.TimeZones == nil,
		(r.layers[layerAdmin] || r.layers[layerGeoBoundaries] || r.layers[layerCovid]) && bd.Boundaries == nil,
		r.layers[layerZip4] && bd.Zip4 == nil,
		r.layers[layerCovid] && bd.Covid == nil:
		return false
	}
	return true
}

// serve answers {"results": [one object per point, in order]}: {"index",
// "status": 200, then per layer asked the answer its GET endpoint gives
// at the point}; an invalid point {"index", "status": 400, "message"}
// naming it (points[7].y). The request counts as its valid points in
// lookupsv1's usage and quota.
func (h *lookupsBatch) serve(c echo.Context) error {
	var body lookupsBatchBody
	if err := readBatchBody(c, "lookups batch", &body); err != nil {
		return err
	}
	r, errs := parseLookupsBatch(body)
	if len(errs) > 0 {
		return echo.NewHTTPError(http.StatusBadRequest, newValidationError("lookups batch", errs))
	}
	bd := h.opts.Bundle.Load()
	if !r.loaded(bd) {
		return errBundleLoading
	}
	valid := 0
	for _, m := range r.msgs {
		if m == "" {
			valid++
		}
	}
	if err := countItems(c, valid); err != nil {
		return err
	}
	return writeBatch(c, len(r.points), func(i int, dst []byte) []byte {
		dst = append(dst, `{"index":`...)
		dst = strconv.AppendInt(dst, int64(i), 10)
		if m := r.msgs[i]; m != "" {
			dst = append(dst, `,"status":400,"message":`...)
			dst = appendJSONString(dst, m)
			return append(dst, '}')
		}
		dst = append(dst, `,"status":200`...)
		for _, l := range lookupsLayers {
			if r.layers[l] {
				dst = append(dst, `,"`...)
				dst = append(dst, l...)
				dst = append(dst, `":`...)
				dst = h.appendLayer(dst, bd, l, r, r.points[i])
			}
		}
		return append(dst, '}')
	})
}

// appendLayer appends the answer of layer l at p: the body of its GET
// endpoint, or {"status", "message"} where that endpoint answers an error
// (a point in no time zone: 404).
func (h *lookupsBatch) appendLayer(dst []byte, bd *bundle.Bundle, l string, r lookupsRequest, p orb.Point) []byte {
	switch l {
	case layerTimezone:
		var res timezone.Result
		var err error
		if r.hasAt {
			res, err = bd.TimeZones.LookupAt(p, r.at)
		} else {
			res, err = bd.TimeZones.Lookup(p)
		}
		switch {
		case errors.Is(err, timezone.ErrNoZone):
			return append(dst, `{"status":404,"message":"no time zone at this point"}`...)
		case err != nil:
			h.opts.Logger.Error("time zone lookup failed", "error", err)
			return append(dst, `{"status":500,"message":"internal error"}`...)
		}
		start := len(dst)
		dst, err = h.tz.encode(dst, res)
		if err != nil {
			return append(dst[:start], `{"status":500,"message":"internal error"}`...)
		}
		if res.At != nil {
			dst = appendTZInstant(dst, res.At)
		}
		return dst
	case layerAdmin:
		return h.admin.appendHierarchy(dst, bd.Boundaries, p, false, nil)
	case layerGeoBoundaries:
		return appendJSON(dst, geoBoundariesAt(bd.Boundaries, p, nil))
	case layerZip4:
		return appendJSON(dst, newZip4Collection(bd.Zip4, bd.Zip4.At(make([]int, 0, 4), p)))
	case layerCovid:
		return appendCovidXY(dst, bd.Covid, bd.Boundaries, p, 8, time.Time{})
	}
	return append(dst, "null"...)
}

// appendJSON appends v encoded by encoding/json (as echo's c.JSON writes
// it, without the newline).
func appendJSON(dst []byte, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return append(dst, `{"status":500,"message":"internal error"}`...)
	}
	return append(dst, b...)
}
