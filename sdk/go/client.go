// Package geosvc is the Go client of geosvc's REST interfaces.
//
// It wraps the client generated from api/openapi.yaml (package openapi)
// in typed methods, one per operation, that take points as longitude and
// latitude (Point) and write each interface's own convention on the wire:
// zip4v1's x is the latitude, tdmv1 and routev1 write "lon,lat", adminv1
// and zip4v1 answer their top-level bbox latitude first. Every call sends
// the API key, retries 429 and 503 answers with backoff (honouring
// Retry-After), stops when its context ends, and returns an *APIError
// (*ForbiddenError for a 403) carrying the status and the server's
// message. Matrix orders a time-distance matrix, long-polls its job and
// returns the matrices.
//
//	c, err := geosvc.New("http://localhost:8080", key)
//	tz, err := c.TimeZone(ctx, geosvc.Point{Lon: -75.5244, Lat: 39.1582})
//	fmt.Println(tz.Name) // America/New_York
package geosvc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/geosvc/geosvc/sdk/go/openapi"
)

// Client calls one geosvc server with one API key. It is safe for
// concurrent use.
type Client struct {
	raw *openapi.ClientWithResponses
}

// Option configures a Client.
type Option func(*config)

type config struct {
	http       *http.Client
	maxRetries int
	minBackoff time.Duration
	maxWait    time.Duration
	userAgent  string
}

// WithHTTPClient sends the requests through hc (default: a client of its
// own without a timeout: every call is bounded by its context).
func WithHTTPClient(hc *http.Client) Option { return func(c *config) { c.http = hc } }

// WithRetries sets how often a 429 or 503 answer is retried (default 4;
// 0 turns retrying off) and the first backoff when the answer has no
// Retry-After (default 500 ms, doubled at each retry, with jitter).
func WithRetries(max int, backoff time.Duration) Option {
	return func(c *config) { c.maxRetries, c.minBackoff = max, backoff }
}

// WithMaxRetryWait sets the longest wait before a retry (default 30 s): an
// answer whose Retry-After is longer (a daily quota that resets at
// midnight) is returned at once as an *APIError with RetryAfter set.
func WithMaxRetryWait(d time.Duration) Option { return func(c *config) { c.maxWait = d } }

// WithUserAgent sets the User-Agent header (default "geosvc-go").
func WithUserAgent(ua string) Option { return func(c *config) { c.userAgent = ua } }

// New returns a client of the server at baseURL (such as
// "http://localhost:8080") that sends key in the x-api-key header.
func New(baseURL, key string, opts ...Option) (*Client, error) {
	cfg := config{http: &http.Client{}, maxRetries: 4, minBackoff: 500 * time.Millisecond, maxWait: 30 * time.Second, userAgent: "geosvc-go"}
	for _, o := range opts {
		o(&cfg)
	}
	doer := &retryDoer{hc: cfg.http, max: cfg.maxRetries, backoff: cfg.minBackoff, maxWait: cfg.maxWait}
	raw, err := openapi.NewClientWithResponses(strings.TrimRight(baseURL, "/"),
		openapi.WithHTTPClient(doer),
		openapi.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			if key != "" {
				req.Header.Set("x-api-key", key)
			}
			req.Header.Set("User-Agent", cfg.userAgent)
			return nil
		}))
	if err != nil {
		return nil, fmt.Errorf("geosvc: %w", err)
	}
	return &Client{raw: raw}, nil
}

// Raw returns the generated client, for what the typed methods do not
// cover; it shares the key, the retries and the HTTP client.
func (c *Client) Raw() *openapi.ClientWithResponses { return c.raw }

// retryDoer sends a request again after a 429 or 503 answer.
type retryDoer struct {
	hc      *http.Client
	max     int
	backoff time.Duration
	maxWait time.Duration
}

// Do implements openapi.HttpRequestDoer.
func (d *retryDoer) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	for attempt := 0; ; attempt++ {
		r := req
		if attempt > 0 {
			r = req.Clone(ctx)
			if req.GetBody != nil {
				body, err := req.GetBody()
				if err != nil {
					return nil, err
				}
				r.Body = body
			}
		}
		resp, err := d.hc.Do(r)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
			return resp, nil
		}
		if attempt >= d.max || (req.Body != nil && req.GetBody == nil) {
			return resp, nil
		}
		wait, ok := retryAfter(resp.Header)
		if !ok {
			wait = d.backoff << attempt
			wait += time.Duration(rand.Int64N(int64(wait)/4 + 1))
		}
		if wait > d.maxWait {
			return resp, nil
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// retryAfter reads a Retry-After header in seconds or as an HTTP date.
func retryAfter(h http.Header) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil && s >= 0 {
		return time.Duration(min(s, 1<<31)) * time.Second, true // 68 years at most: no overflow
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t)), true
	}
	return 0, false
}

// wrap makes the error of a call that got no answer say so.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var apiErr *APIError
	var fe *ForbiddenError
	var je *JobError
	if errors.As(err, &apiErr) || errors.As(err, &fe) || errors.As(err, &je) {
		return err
	}
	return fmt.Errorf("geosvc: %s: %w", op, err)
}

// result returns v when resp is a 200 with a decoded body, else the
// answer's error.
func result[T any](op string, resp *http.Response, body []byte, v *T) (*T, error) {
	if resp.StatusCode == http.StatusOK && v != nil {
		return v, nil
	}
	return nil, newAPIError(op, resp, body)
}
