package geosvc

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/geosvc/geosvc/sdk/go/openapi"
)

// APIError is an answer other than success: its HTTP status and the
// server's message (every error body of geosvc is JSON with a message).
type APIError struct {
	// Op is the operation, such as "xy2tzdata".
	Op string
	// StatusCode is the HTTP status (200 for a geocoder status other than
	// OK and ZERO_RESULTS).
	StatusCode int
	// Message is the server's message.
	Message string
	// Status is the geocoder's status (INVALID_REQUEST...); empty elsewhere.
	Status string
	// Fields lists the fields of an invalid tdmv1 or keysv1 request.
	Fields []openapi.FieldError
	// Quota names the quota of a 429 that a plan's quota caused (nil for
	// the rate limit's 429).
	Quota *Quota
	// RetryAfter is the answer's Retry-After (429, 503), zero if none.
	RetryAfter time.Duration
	// RequestID is the X-Request-Id the server logged the request under.
	RequestID string
}

// Quota is the quota a 429 names: which metric of which plan, its limit
// and when it resets.
type Quota struct {
	Plan, Metric, Period   string
	Limit, Used, Requested int
	Resets                 time.Time
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.StatusCode)
	}
	if e.Status != "" {
		return fmt.Sprintf("geosvc: %s: %s: %s", e.Op, e.Status, msg)
	}
	return fmt.Sprintf("geosvc: %s: %d %s", e.Op, e.StatusCode, msg)
}

// ForbiddenError is a 403: a missing, malformed, unknown, revoked or
// expired key, or a key whose plan does not include the interface. The
// server says no more than "Forbidden".
type ForbiddenError struct {
	APIError
}

// Unwrap returns the APIError, so that errors.As finds either type.
func (e *ForbiddenError) Unwrap() error { return &e.APIError }

// newAPIError builds the error of a non-success answer.
func newAPIError(op string, resp *http.Response, body []byte) error {
	e := APIError{Op: op, StatusCode: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id")}
	if d, ok := retryAfter(resp.Header); ok {
		e.RetryAfter = d
	}
	var b struct {
		Message string               `json:"message"`
		Errors  []openapi.FieldError `json:"errors"`
		Quota   *Quota               `json:"quota"`
	}
	if json.Unmarshal(body, &b) == nil {
		e.Message, e.Fields, e.Quota = b.Message, b.Errors, b.Quota
	} else {
		e.Message = strings.TrimSpace(string(body))
		if len(e.Message) > 200 {
			e.Message = e.Message[:200]
		}
	}
	if e.StatusCode == http.StatusForbidden {
		return &ForbiddenError{e}
	}
	return &e
}

// UnmarshalJSON reads a quota of a 429 body.
func (q *Quota) UnmarshalJSON(b []byte) error {
	var v struct {
		Plan      string    `json:"plan"`
		Metric    string    `json:"metric"`
		Period    string    `json:"period"`
		Limit     int       `json:"limit"`
		Used      int       `json:"used"`
		Requested int       `json:"requested"`
		Resets    time.Time `json:"resets"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*q = Quota{v.Plan, v.Metric, v.Period, v.Limit, v.Used, v.Requested, v.Resets}
	return nil
}

// JobStatus is the status of a matrix job.
type JobStatus = openapi.JobStatusStatus

// The statuses of a matrix job, and JobExpired for a job whose result is
// gone (410: kept tdm.retention, 24 hours by default).
const (
	JobQueued     JobStatus = "Queued"
	JobProcessing JobStatus = "Processing"
	JobFinished   JobStatus = "Finished"
	JobFailed     JobStatus = "Failed"
	JobCancelled  JobStatus = "Cancelled"
	JobExpired    JobStatus = "Expired"
)

// JobError is a matrix job that ended without a result: Failed (with the
// server's message), Cancelled, or Expired.
type JobError struct {
	UUID    string
	Status  JobStatus
	Message string
	// Err is the APIError of a 410 (Expired); nil otherwise.
	Err error
}

func (e *JobError) Error() string {
	s := fmt.Sprintf("geosvc: matrix job %s %s", e.UUID, e.Status)
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Unwrap returns the APIError of an expired job.
func (e *JobError) Unwrap() error { return e.Err }
