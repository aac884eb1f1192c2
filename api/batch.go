package api

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/keys"
)

// Shared machinery of the batch endpoints (POST /geocoderv1/batch and
// POST /lookupsv1/batch): the body's lists, each item's point, usage per
// item, and the answer computed in parallel windows of items and written
// in order, as one JSON object or as NDJSON.

// BatchOptions configures the batch endpoints.
type BatchOptions struct {
	// Bundle is the data bundle answered from; nil, or holding none yet,
	// while it loads (the endpoints then answer 503).
	Bundle *bundle.Current
	// AddressTolerance and StreetTolerance are the reverse geocoder's, as
	// GeocoderOptions has them (0: geocode's defaults).
	AddressTolerance, StreetTolerance float64
	// Now is the clock of adminv1's timeStamp in lookups; default
	// time.Now.
	Now func() time.Time
	// Logger receives errors; default slog.Default().
	Logger *slog.Logger
}

// RegisterBatch adds POST /geocoderv1/batch and POST /lookupsv1/batch to
// g, which must authenticate requests (Server.Protected).
func RegisterBatch(g *echo.Group, opts BatchOptions) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	g.POST("/"+geocoderInterface+"/batch", (&geocoderBatch{opts: opts}).serve)
	lb := &lookupsBatch{opts: opts, admin: &adminHandler{opts: BoundaryOptions{Bundle: opts.Bundle, Now: opts.Now}}}
	lb.tz.bufs.New = func() any { b := make([]byte, 0, 4096); return &b }
	g.POST("/"+lookupsInterface+"/batch", lb.serve)
}

// batchWindow is how many items are computed in parallel before they are
// written: the answer goes out a window at a time, never held whole.
const batchWindow = 512

// readBatchBody reads the request body into fields (unknown members
// refused), or returns the 400 to answer.
func readBatchBody(c echo.Context, what string, v any) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return err // over the body limit: 413
	}
	if err := strictUnmarshal(body, v); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, newValidationError(what, []fieldError{{Field: "body", Reason: bodyReason(err)}}))
	}
	return nil
}

// batchList reads the list member field of a body: a JSON array of 1 to
// max items. msg is the reason it is not.
func batchList(raw json.RawMessage, max int) ([]json.RawMessage, string) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, "must be an array"
	}
	switch {
	case len(items) == 0:
		return nil, "is empty: give at least one item"
	case len(items) > max:
		return nil, fmt.Sprintf("has %d items: at most %d in one request", len(items), max)
	}
	return items, ""
}

// batchPoint reads an item {"x": lon, "y": lat} (numbers, in range) of
// list field at index i; msg names the item and its field.
func batchPoint(raw json.RawMessage, field string, i int) (orb.Point, string) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return orb.Point{}, fmt.Sprintf("%s[%d] must be an object {\"x\": longitude, \"y\": latitude}", field, i)
	}
	var p orb.Point
	for k, c := range []lookupCoord{lookupLonX, lookupLatY} {
		v, ok := m[c.Param]
		if !ok || isAbsent(v) {
			return orb.Point{}, fmt.Sprintf("%s[%d].%s is required: the %s in decimal degrees, -%g to %g", field, i, c.Param, c.What, c.Limit, c.Limit)
		}
		f, ok := finiteNumber(v)
		if !ok {
			return orb.Point{}, fmt.Sprintf("%s[%d].%s must be a number (the %s in decimal degrees), got %s", field, i, c.Param, c.What, clip(v))
		}
		if f < -c.Limit || f > c.Limit {
			return orb.Point{}, fmt.Sprintf("%s[%d].%s (%s) must be between -%g and %g, got %s", field, i, c.Param, c.What, c.Limit, c.Limit, clip(v))
		}
		p[k] = f
	}
	return p, ""
}

// countItems counts the request as n units of its interface in usage and
// quota (keys.Pass.CountItems), or returns the 429 of a quota it would
// pass.
func countItems(c echo.Context, n int) error {
	pass, ok := c.Get(ctxPass).(*keys.Pass)
	if !ok {
		return nil
	}
	if err := pass.CountItems(c.Request().Context(), int64(n)); err != nil {
		if s, ok := c.Get(ctxServer).(*Server); ok {
			return s.gateError(c, err)
		}
		return err
	}
	return nil
}

// writeBatch answers n items: item(i, dst) appends item i's JSON object
// to dst. Items are computed in parallel, a window at a time, and written
// in order: {"results":[...]} or, when the request accepts
// application/x-ndjson first, one line per item; gzip-compressed (fastest
// level) when the request accepts gzip.
func writeBatch(c echo.Context, n int, item func(i int, dst []byte) []byte) error {
	ndjson := acceptsNDJSON(c.Request().Header.Get(echo.HeaderAccept))
	resp := c.Response()
	resp.Header().Add(echo.HeaderVary, echo.HeaderAccept)
	if ndjson {
		resp.Header().Set(echo.HeaderContentType, mimeNDJSON)
	} else {
		resp.Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	}
	resp.Header().Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	if acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
		resp.Header().Set(echo.HeaderContentEncoding, "gzip")
		resp.WriteHeader(http.StatusOK)
		return writeGzip(resp, gzip.BestSpeed, func(w io.Writer) error { return writeBatchItems(c, w, n, ndjson, item) })
	}
	resp.WriteHeader(http.StatusOK)
	return writeBatchItems(c, resp, n, ndjson, item)
}

// writeBatchItems writes the n items to w (see writeBatch).
func writeBatchItems(c echo.Context, w io.Writer, n int, ndjson bool, item func(i int, dst []byte) []byte) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if !ndjson {
		bw.WriteString(`{"results":[`)
	}
	bufs := make([][]byte, min(n, batchWindow))
	workers := runtime.GOMAXPROCS(0)
	for from := 0; from < n; from += batchWindow {
		m := min(batchWindow, n-from)
		var wg sync.WaitGroup
		var next sync.Mutex
		k := 0
		for range min(workers, m) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					next.Lock()
					j := k
					k++
					next.Unlock()
					if j >= m {
						return
					}
					bufs[j] = item(from+j, bufs[j][:0])
				}
			}()
		}
		wg.Wait()
		for j := range m {
			if !ndjson && from+j > 0 {
				bw.WriteByte(',')
			}
			bw.Write(bufs[j])
			if ndjson {
				bw.WriteByte('\n')
			}
		}
		if err := c.Request().Context().Err(); err != nil {
			return nil // the client is gone
		}
	}
	if !ndjson {
		bw.WriteString("]}")
	}
	return bw.Flush()
}
