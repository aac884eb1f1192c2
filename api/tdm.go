package api

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/keys"
	"github.com/geosvc/geosvc/queue"
)

// tdmInterface is the interface name of the matrix endpoints, as keys and
// usage counters know it.
const tdmInterface = keys.TDMV1

// CellCounter counts matrix cells in a key's usage; *keys.Store is one.
type CellCounter interface {
	AddCells(ctx context.Context, id, iface string, n int64) error
}

// TDMOptions configures the tdmv1 endpoints.
type TDMOptions struct {
	// Queue stores jobs and enqueues their chunks (required).
	Queue *queue.Queue
	// Usage counts the cells of every accepted order under the ordering
	// key; nil counts nothing.
	Usage CellCounter
	// Logger receives errors; default slog.Default().
	Logger *slog.Logger
	// Inline computes small orders in this process before the order
	// returns (see InlineCells); nil queues every order for the workers.
	Inline InlineComputer
	// InlineCells is the largest order, in cells (origins x
	// destinations), that Inline computes; 0 means DefaultInlineCells,
	// a negative value none.
	InlineCells int
	// MaxLocations is the most origins, and the most destinations, one
	// order may hold; 0 means DefaultMaxLocations (the specification's
	// limit).
	MaxLocations int
	// Closing, when closed, ends the waits of fetches with "wait": they
	// answer the job's current status (Server.Closing, so that a
	// shutdown is not held up); nil: waits run their course.
	Closing <-chan struct{}
	// Bundle is the data bundle the API serves: an order records the id
	// of its current bundle (queue.Order.Bundle), on which the workers
	// compute the job, a swap later notwithstanding; nil records none.
	Bundle *bundle.Current
	// GzipLevel compresses finished results for clients that accept gzip,
	// as in compress/gzip; 0 means gzip.HuffmanOnly (-2), which on matrix
	// JSON (digits and commas, little for LZ77 to find) compresses as well
	// as BestSpeed in half the time.
	GzipLevel int
}

// DefaultInlineCells is the default of TDMOptions.InlineCells: an order
// of up to 10,000 cells (100 x 100) is computed in about 4 ms on one core,
// less than the queue's round trips (enqueue, a worker's poll, the
// client's fetch) cost it; see BENCHMARKS.md.
const DefaultInlineCells = 10_000

// DefaultMaxLocations is the default of TDMOptions.MaxLocations, the
// specification's limit.
const DefaultMaxLocations = 1000

// InlineComputer computes every chunk of a job in the API process;
// *worker.Computer's ComputeAll is what the workers run per chunk.
type InlineComputer interface {
	// Ready reports whether it can compute now (its graph is loaded);
	// orders are queued until it is.
	Ready() bool
	// ComputeAll computes every chunk of spec, in chunk order.
	ComputeAll(ctx context.Context, spec *queue.Spec) ([]queue.ChunkResult, error)
}

// RegisterTDM adds POST /tdmv1/order, /tdmv1/fetch and /tdmv1/cancel to g,
// which must authenticate requests (Server.Protected): jobs belong to the
// key that ordered them.
//
// order answers 200 {"uuid": ...}, not 202: the specification's example
// answer is a plain JSON {uuid}, and clients written against it check for
// 200. The job runs asynchronously all the same; fetch reads it.
func RegisterTDM(g *echo.Group, opts TDMOptions) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.GzipLevel == 0 {
		opts.GzipLevel = gzip.HuffmanOnly
	}
	if opts.InlineCells == 0 {
		opts.InlineCells = DefaultInlineCells
	}
	if opts.MaxLocations <= 0 {
		opts.MaxLocations = DefaultMaxLocations
	}
	h := &tdmHandler{opts: opts, q: opts.Queue, log: opts.Logger}
	g.POST("/"+tdmInterface+"/order", h.order)
	g.POST("/"+tdmInterface+"/fetch", h.fetch)
	g.POST("/"+tdmInterface+"/cancel", h.cancel)
}

// tdmHandler serves the tdmv1 endpoints.
type tdmHandler struct {
	opts TDMOptions
	q    *queue.Queue
	log  *slog.Logger
}

// orderAnswer is the body of an accepted order.
type orderAnswer struct {
	UUID string `json:"uuid"`
}

// progress is how far a running job is.
type progress struct {
	RowsDone  int `json:"rows_done"`
	RowsTotal int `json:"rows_total"`
}

// statusAnswer is the body of fetch and cancel for a job that is not
// Finished.
type statusAnswer struct {
	UUID     string       `json:"uuid"`
	Status   queue.Status `json:"status"`
	Message  string       `json:"message,omitempty"`
	Progress progress     `json:"progress"`
	// Bundle is the id of the data bundle the job is computed on (an
	// extension).
	Bundle string `json:"bundle,omitempty"`
	// SpeedVersion is the version of the speed data the job is computed
	// on, for an order with a departure_time on a bundle with speed data.
	SpeedVersion string `json:"speed_version,omitempty"`
	// DepartureTime is the order's departure_time as resolved (RFC 3339
	// local to the first origin, "now" as the instant it was), TimeZone
	// that origin's zone; absent for an order without one.
	DepartureTime string `json:"departure_time,omitempty"`
	TimeZone      string `json:"time_zone,omitempty"`
}

// order validates a matrix order, stores it and enqueues its chunks.
func (h *tdmHandler) order(c echo.Context) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return err // a body over the limit becomes 413
	}
	b := h.opts.Bundle.Load()
	o, departure, errs := parseOrder(body, h.opts.MaxLocations, nowOf(b))
	if len(errs) > 0 {
		return echo.NewHTTPError(http.StatusBadRequest, newValidationError("order", errs))
	}
	o.Owner = keyIDOf(c)
	if b != nil {
		o.Bundle = b.ID
		if msg := profileMissing(b, o.Profile); msg != "" {
			return echo.NewHTTPError(http.StatusBadRequest, newValidationError("order", []fieldError{{"profile", msg}}))
		}
		if departure != nil {
			// The bucket of the departure's local hour at the first
			// origin, on the speed data served now: the job is
			// computed on that version to the end (its key names it).
			if err := timedOrder(b, &o, *departure); err != nil {
				return err
			}
		}
	}
	// The matrix-cell quota of the key's plan (api/quota.go), checked
	// before the order is accepted; given back if it is not.
	if err := takeQuota(c, keys.TDMV1+keys.CellsSuffix, int64(len(o.Origins))*int64(len(o.Destinations))); err != nil {
		return err
	}
	ctx := c.Request().Context()
	var j *queue.Job
	if cells := len(o.Origins) * len(o.Destinations); h.opts.Inline != nil && cells <= h.opts.InlineCells && h.opts.Inline.Ready() {
		// Small: computed here and stored Finished, the same job a
		// worker would have finished.
		j, err = h.q.SubmitNow(ctx, o, h.opts.Inline.ComputeAll)
	} else {
		j, err = h.q.Submit(ctx, o)
	}
	if err != nil {
		h.log.Error("tdm order not stored", slog.String("request_id", requestIDOf(c)), slog.Any("error", err))
		return httpError(http.StatusServiceUnavailable, "the job queue is unavailable, retry later")
	}
	if h.opts.Usage != nil {
		if err := h.opts.Usage.AddCells(ctx, o.Owner, tdmInterface, int64(j.Rows)*int64(j.Cols)); err != nil {
			h.log.Warn("matrix cells not counted", slog.String("request_id", requestIDOf(c)),
				slog.String("key_id", o.Owner), slog.Any("error", err))
		}
	}
	return c.JSON(http.StatusOK, orderAnswer{UUID: j.ID})
}

// fetch answers a job's status and progress, or its result when Finished.
// With "wait" it first waits up to that many seconds for the job to end.
func (h *tdmHandler) fetch(c echo.Context) error {
	j, wait, err := h.lookupWait(c)
	if err != nil {
		return err
	}
	if wait > 0 && !j.Status.Terminal() {
		// The wait ends early when the server begins to shut down: the
		// client gets the current status, as when the wait runs out.
		waitCtx, cancel := context.WithCancel(c.Request().Context())
		defer cancel()
		if closing := h.opts.Closing; closing != nil {
			go func() {
				select {
				case <-closing:
					cancel()
				case <-waitCtx.Done():
				}
			}()
		}
		aj, err := h.q.Await(waitCtx, j.ID, keyIDOf(c), wait)
		if c.Request().Context().Err() != nil {
			// The client went away while waiting: nobody to answer.
			return nil
		}
		if err != nil && waitCtx.Err() != nil {
			aj, err = h.q.Get(c.Request().Context(), j.ID, keyIDOf(c))
		}
		if err != nil {
			return h.storeError(c, j.ID, err)
		}
		j = aj
	}
	if j.Status != queue.StatusFinished {
		return c.JSON(http.StatusOK, newStatusAnswer(j))
	}
	ctx := c.Request().Context()
	res, err := h.q.Result(ctx, j)
	if err != nil {
		return h.storeError(c, j.ID, err)
	}
	rs, err := newResultStream(ctx, res, res)
	if err != nil {
		return h.storeError(c, j.ID, err)
	}
	write, contentType := rs.WriteTo, echo.MIMEApplicationJSON
	if acceptsNDJSON(c.Request().Header.Get(echo.HeaderAccept)) {
		write, contentType = rs.WriteNDJSON, mimeNDJSON
	}
	resp := c.Response()
	resp.Header().Set(echo.HeaderContentType, contentType)
	resp.Header().Add(echo.HeaderVary, echo.HeaderAccept)
	resp.Header().Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	gz := acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding))
	if gz {
		resp.Header().Set(echo.HeaderContentEncoding, "gzip")
	}
	resp.WriteHeader(http.StatusOK)
	if gz {
		err = writeGzip(resp, h.opts.GzipLevel, func(w io.Writer) error { return write(ctx, w) })
	} else {
		err = write(ctx, resp)
	}
	if err != nil {
		// The status line is out: cut the connection so that the client
		// sees a broken response rather than truncated JSON.
		h.log.Warn("tdm result stream broken", slog.String("request_id", requestIDOf(c)),
			slog.String("uuid", j.ID), slog.Any("error", err))
		panic(http.ErrAbortHandler)
	}
	return nil
}

// mimeNDJSON is the media type of the newline-delimited JSON result.
const mimeNDJSON = "application/x-ndjson"

// acceptsNDJSON reports whether an Accept header asks for the
// newline-delimited result: application/x-ndjson listed (with a quality
// above 0) before any application/json.
func acceptsNDJSON(header string) bool {
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == echo.MIMEApplicationJSON {
			return false
		}
		if name != mimeNDJSON {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

// cancel stops a Queued or Processing job.
func (h *tdmHandler) cancel(c echo.Context) error {
	j, _, err := h.lookupWait(c)
	if err != nil {
		return err
	}
	if !j.Status.Terminal() {
		cj, err := h.q.Cancel(c.Request().Context(), j.ID, keyIDOf(c))
		if err != nil {
			return h.storeError(c, j.ID, err)
		}
		j = cj
	}
	if j.Status != queue.StatusCancelled {
		return echo.NewHTTPError(http.StatusConflict, statusAnswer{
			UUID: j.ID, Status: j.Status, Progress: progress{j.RowsDone, j.Rows},
			Message: fmt.Sprintf("job %s is already %s; only Queued and Processing jobs can be cancelled", j.ID, j.Status),
		})
	}
	return c.JSON(http.StatusOK, newStatusAnswer(j))
}

// newStatusAnswer describes a job that is not Finished.
func newStatusAnswer(j *queue.Job) statusAnswer {
	return statusAnswer{UUID: j.ID, Status: j.Status, Message: j.Message, Progress: progress{j.RowsDone, j.Rows}, Bundle: j.Bundle, SpeedVersion: speedVersionOf(j.Routing),
		DepartureTime: j.Departure, TimeZone: j.TimeZone}
}

// uuidBody is the body of fetch and cancel.
type uuidBody struct {
	UUID json.RawMessage `json:"uuid"`
	// Wait (fetch only, an extension) is how many seconds, 0..30, the
	// fetch may wait for the job to end before it answers.
	Wait json.RawMessage `json:"wait"`
}

// lookupWait reads the {uuid, wait} body and returns the caller's job and
// the wait: 400 for a malformed body, uuid or wait, 404 for an unknown job
// or one of another key, 410 for an expired one.
func (h *tdmHandler) lookupWait(c echo.Context) (*queue.Job, time.Duration, error) {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return nil, 0, err
	}
	var b uuidBody
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, 0, echo.NewHTTPError(http.StatusBadRequest, newValidationError("request", []fieldError{{"body", bodyReason(err)}}))
	}
	var wait time.Duration
	if !isNull(b.Wait) {
		var secs float64
		if err := json.Unmarshal(b.Wait, &secs); err != nil || secs < 0 || secs > queue.MaxWait.Seconds() {
			return nil, 0, echo.NewHTTPError(http.StatusBadRequest, newValidationError("request",
				[]fieldError{{"wait", fmt.Sprintf("must be a number of seconds from 0 to %g", queue.MaxWait.Seconds())}}))
		}
		wait = time.Duration(secs * float64(time.Second))
	}
	j, err := h.lookupBody(c, b)
	return j, wait, err
}

// lookupBody returns the caller's job of a {uuid} body.
func (h *tdmHandler) lookupBody(c echo.Context, b uuidBody) (*queue.Job, error) {
	var s string
	if isNull(b.UUID) {
		return nil, echo.NewHTTPError(http.StatusBadRequest, newValidationError("request",
			[]fieldError{{"uuid", "is required: the uuid that order returned"}}))
	}
	if err := json.Unmarshal(b.UUID, &s); err != nil {
		return nil, echo.NewHTTPError(http.StatusBadRequest, newValidationError("request",
			[]fieldError{{"uuid", "must be a string: the uuid that order returned"}}))
	}
	id, err := uuid.Parse(strings.TrimSpace(s))
	if err != nil {
		return nil, echo.NewHTTPError(http.StatusBadRequest, newValidationError("request",
			[]fieldError{{"uuid", fmt.Sprintf("%q is not a uuid", s)}}))
	}
	j, err := h.q.Get(c.Request().Context(), id.String(), keyIDOf(c))
	if err != nil {
		return nil, h.storeError(c, id.String(), err)
	}
	return j, nil
}

// storeError turns a queue error into the answer: 404, 410 or 503.
func (h *tdmHandler) storeError(c echo.Context, id string, err error) error {
	switch {
	case errors.Is(err, queue.ErrNotFound):
		return httpErrorf(http.StatusNotFound, "no job %s for this key", id)
	case errors.Is(err, queue.ErrExpired):
		return httpErrorf(http.StatusGone, "job %s has expired: results are kept for %s after the order",
			id, shortDuration(h.q.Config().Retention))
	}
	h.log.Error("tdm job store", slog.String("request_id", requestIDOf(c)), slog.String("uuid", id), slog.Any("error", err))
	return httpError(http.StatusServiceUnavailable, "the job store is unavailable, retry later")
}

// shortDuration formats d without trailing zero units: "24h", "1h30m".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
