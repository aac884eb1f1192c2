package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/geocode"
)

// maxGeocodeBatch is the most addresses or points of one POST
// /geocoderv1/batch: openapi.yaml's maxItems.
const maxGeocodeBatch = 1000

// geocoderBatch serves POST /geocoderv1/batch.
type geocoderBatch struct{ opts BatchOptions }

// geocodeBatchBody is the body: exactly one of the lists.
type geocodeBatchBody struct {
	Addresses json.RawMessage `json:"addresses"`
	Reverse   json.RawMessage `json:"reverse"`
}

// geocodeBatchItem is one parsed item: an address, or a point for the
// reverse geocoder, or the message of an invalid item.
type geocodeBatchItem struct {
	address string
	point   orb.Point
	msg     string
}

// parseGeocodeBatch reads the body's list into items; errs lists what
// makes the whole request invalid (the body, the list), not a bad item.
func parseGeocodeBatch(b geocodeBatchBody) (items []geocodeBatchItem, reverse bool, errs []fieldError) {
	hasA, hasR := !isAbsent(b.Addresses), !isAbsent(b.Reverse)
	switch {
	case hasA && hasR:
		return nil, false, []fieldError{{"reverse", "give addresses or reverse, not both"}}
	case !hasA && !hasR:
		return nil, false, []fieldError{{"addresses", "is required: a list of addresses, or reverse: a list of points {\"x\": lon, \"y\": lat}"}}
	}
	field, raw := "addresses", b.Addresses
	if hasR {
		field, raw, reverse = "reverse", b.Reverse, true
	}
	list, msg := batchList(raw, maxGeocodeBatch)
	if msg != "" {
		return nil, reverse, []fieldError{{field, msg}}
	}
	items = make([]geocodeBatchItem, len(list))
	for i, r := range list {
		if reverse {
			items[i].point, items[i].msg = batchPoint(r, field, i)
			continue
		}
		items[i].address, items[i].msg = batchAddress(r, i)
	}
	return items, reverse, nil
}

// batchAddress reads addresses[i]: a string, not empty, at most
// maxAddressLen characters once trimmed (the GET geocoder's rules).
func batchAddress(raw json.RawMessage, i int) (string, string) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || isAbsent(raw) {
		return "", fmt.Sprintf("addresses[%d] must be a string, got %s", i, clip(raw))
	}
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", fmt.Sprintf("addresses[%d] is empty", i)
	case utf8.RuneCountInString(s) > maxAddressLen:
		return "", fmt.Sprintf("addresses[%d] is longer than %d characters", i, maxAddressLen)
	}
	return s, ""
}

// serve answers {"results": [one geocoder response per item, in order]}:
// each the answer GET /geocoderv1/geocoder?address= (or rev-geocoder?x=&y=)
// gives for the item, an invalid item INVALID_REQUEST with a message
// naming it (addresses[3], reverse[7].y). The request counts as its
// valid items in geocoderv1's usage and quota.
func (h *geocoderBatch) serve(c echo.Context) error {
	var body geocodeBatchBody
	if err := readBatchBody(c, "geocoder batch", &body); err != nil {
		return err
	}
	items, reverse, errs := parseGeocodeBatch(body)
	if len(errs) > 0 {
		return echo.NewHTTPError(http.StatusBadRequest, newValidationError("geocoder batch", errs))
	}
	var ix *geocode.Index
	if b := h.opts.Bundle.Load(); b != nil {
		ix = b.Geocoder
	}
	if ix == nil {
		c.Response().Header().Set("Retry-After", "5")
		return httpError(http.StatusServiceUnavailable, "data bundle loading")
	}
	valid := 0
	for _, it := range items {
		if it.msg == "" {
			valid++
		}
	}
	if err := countItems(c, valid); err != nil {
		return err
	}
	ropts := geocode.ReverseOptions{AddressTolerance: h.opts.AddressTolerance, StreetTolerance: h.opts.StreetTolerance}
	ndjson := acceptsNDJSON(c.Request().Header.Get(echo.HeaderAccept))
	return writeBatch(c, len(items), func(i int, dst []byte) []byte {
		it := items[i]
		var r geocodeResponse
		switch {
		case it.msg != "":
			r = geocodeResponse{Status: geocodeInvalidRequest, ErrorMessage: it.msg, Results: []geocodeResult{}}
		case reverse:
			r = newGeocodeResponse(ix.Reverse(it.point, ropts))
		default:
			r = newGeocodeResponse(ix.Forward(geocode.Query{Text: it.address}))
		}
		b, err := json.Marshal(r)
		if err != nil { // cannot happen: strings and numbers only
			b = []byte(`{"status":"` + geocodeUnknownError + `","results":[]}`)
		}
		if ndjson {
			// Each line names its item: {"index":i, then the response.
			dst = append(dst, `{"index":`...)
			dst = strconv.AppendInt(dst, int64(i), 10)
			dst = append(dst, ',')
			return append(dst, b[1:]...)
		}
		return append(dst, b...)
	})
}
