package geosvc

import (
	"context"
	"fmt"
	"net/http"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/geosvc/geosvc/sdk/go/openapi"
)

// MatrixOptions are the choices of a matrix order and of its wait; the
// zero value orders both matrices, fastest routes, and long-polls 20 s at
// a time.
type MatrixOptions struct {
	// Durations and Distances select the matrices; both false: both.
	Durations, Distances bool
	// Routing is Fastest (default) or Shortest.
	Routing Routing
	// Wait is how long one fetch waits for the job on the server (0: 20 s;
	// at most 30 s). The context bounds the whole wait.
	Wait time.Duration
	// OnOrder, when set, is called with the job's uuid once it is ordered.
	OnOrder func(uuid string)
	// OnProgress, when set, is called with each status fetched before the
	// job ends (Queued, Processing and its progress).
	OnProgress func(openapi.JobStatus)
	// KeepOnCancel leaves the job running on the server when the context
	// ends; by default Matrix cancels it (tdmv1/cancel).
	KeepOnCancel bool
}

// MatrixResult is a Finished matrix job: the durations (seconds) and
// distances (metres) asked for, one row per origin and one column per
// destination, nil where there is no route; and how far each point was
// moved to the road.
type MatrixResult = openapi.MatrixResult

// OrderMatrix orders the matrix from every origin to every destination
// (tdmv1/order; points are sent "lon,lat") and returns the job's uuid.
func (c *Client) OrderMatrix(ctx context.Context, origins, destinations []Point, opts *MatrixOptions) (string, error) {
	if opts == nil {
		opts = &MatrixOptions{}
	}
	order := openapi.TDMOrder{OriginAddresses: make([]string, len(origins)), DestinationAddresses: make([]string, len(destinations))}
	for i, p := range origins {
		if err := p.check(); err != nil {
			return "", fmt.Errorf("origin %d: %w", i, err)
		}
		order.OriginAddresses[i] = p.String()
	}
	for i, p := range destinations {
		if err := p.check(); err != nil {
			return "", fmt.Errorf("destination %d: %w", i, err)
		}
		order.DestinationAddresses[i] = p.String()
	}
	if opts.Durations != opts.Distances {
		res := []openapi.TDMOrderResult{"distance"}
		if opts.Durations {
			res = []openapi.TDMOrderResult{"duration"}
		}
		order.Result = &res
	}
	if opts.Routing != "" {
		r := openapi.TDMOrderRouting(opts.Routing)
		order.Routing = &r
	}
	r, err := c.raw.TdmOrderWithResponse(ctx, order)
	if err != nil {
		return "", wrap("tdm-order", err)
	}
	v, err := result("tdm-order", r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return "", err
	}
	return v.Uuid.String(), nil
}

// FetchMatrix fetches a job once (tdmv1/fetch), the server holding the
// request up to wait (0: not at all; at most 30 s) for the job to end. It
// returns the job's status, and its result when Finished. A Failed or
// Cancelled job is a *JobError, as is an expired one (410).
func (c *Client) FetchMatrix(ctx context.Context, uuid string, wait time.Duration) (*openapi.JobStatus, *MatrixResult, error) {
	id, err := parseUUID(uuid)
	if err != nil {
		return nil, nil, err
	}
	req := openapi.JobRequest{Uuid: id}
	if wait > 0 {
		w := min(wait, 30*time.Second).Seconds()
		req.Wait = &w
	}
	r, err := c.raw.TdmFetchWithResponse(ctx, req)
	if err != nil {
		return nil, nil, wrap("tdm-fetch", err)
	}
	if r.StatusCode() == http.StatusGone {
		return nil, nil, &JobError{UUID: uuid, Status: JobExpired, Err: newAPIError("tdm-fetch", r.HTTPResponse, r.Body)}
	}
	v, err := result("tdm-fetch", r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return nil, nil, err
	}
	disc, err := v.Discriminator()
	if err != nil {
		return nil, nil, fmt.Errorf("geosvc: tdm-fetch: %w", err)
	}
	if disc == string(JobFinished) {
		m, err := v.AsMatrixResult()
		if err != nil {
			return nil, nil, fmt.Errorf("geosvc: tdm-fetch: %w", err)
		}
		st := &openapi.JobStatus{Uuid: m.Uuid, Status: openapi.JobStatusStatus(JobFinished)}
		return st, &m, nil
	}
	st, err := v.AsJobStatus()
	if err != nil {
		return nil, nil, fmt.Errorf("geosvc: tdm-fetch: %w", err)
	}
	switch st.Status {
	case JobFailed, JobCancelled:
		e := &JobError{UUID: uuid, Status: st.Status}
		if st.Message != nil {
			e.Message = *st.Message
		}
		return &st, nil, e
	}
	return &st, nil, nil
}

// CancelMatrix cancels a Queued or Processing job (tdmv1/cancel); a job
// already Finished or Failed is an *APIError with status 409.
func (c *Client) CancelMatrix(ctx context.Context, uuid string) error {
	id, err := parseUUID(uuid)
	if err != nil {
		return err
	}
	r, err := c.raw.TdmCancelWithResponse(ctx, openapi.JobRequest{Uuid: id})
	if err != nil {
		return wrap("tdm-cancel", err)
	}
	_, err = result("tdm-cancel", r.HTTPResponse, r.Body, r.JSON200)
	return err
}

// Matrix orders the time-distance matrix from every origin to every
// destination, waits for it (long-polling tdmv1/fetch) and returns it. A
// job that Failed, was Cancelled or expired is a *JobError. When ctx ends
// first, Matrix cancels the job on the server (unless opts.KeepOnCancel)
// and returns ctx's error.
func (c *Client) Matrix(ctx context.Context, origins, destinations []Point, opts *MatrixOptions) (*MatrixResult, error) {
	if opts == nil {
		opts = &MatrixOptions{}
	}
	uuid, err := c.OrderMatrix(ctx, origins, destinations, opts)
	if err != nil {
		return nil, err
	}
	if opts.OnOrder != nil {
		opts.OnOrder(uuid)
	}
	wait := opts.Wait
	if wait <= 0 {
		wait = 20 * time.Second
	}
	for {
		st, res, err := c.FetchMatrix(ctx, uuid, wait)
		if ctx.Err() != nil {
			if !opts.KeepOnCancel {
				cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
				c.CancelMatrix(cctx, uuid) // best effort: the job may have ended
				cancel()
			}
			return nil, fmt.Errorf("geosvc: matrix %s: %w", uuid, ctx.Err())
		}
		if err != nil {
			return nil, err
		}
		if res != nil {
			return res, nil
		}
		if opts.OnProgress != nil {
			opts.OnProgress(*st)
		}
	}
}

func parseUUID(s string) (openapi_types.UUID, error) {
	var id openapi_types.UUID
	if err := id.UnmarshalText([]byte(s)); err != nil {
		return id, fmt.Errorf("geosvc: job uuid %q: %w", s, err)
	}
	return id, nil
}
