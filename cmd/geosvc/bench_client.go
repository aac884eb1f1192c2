package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// tdmClient talks to the tdmv1 endpoints of one server with one key.
type tdmClient struct {
	base string
	key  string
	hc   *http.Client
}

// newTDMClient returns a client of base (e.g. "http://127.0.0.1:8080").
func newTDMClient(base, key string) *tdmClient {
	return &tdmClient{
		base: strings.TrimRight(base, "/"),
		key:  key,
		hc: &http.Client{Timeout: 5 * time.Minute, Transport: &http.Transport{
			DisableCompression: true, MaxIdleConnsPerHost: 64,
		}},
	}
}

// tdmStatus is a fetch answer without the matrices.
type tdmStatus struct {
	UUID     string `json:"uuid"`
	Status   string `json:"status"`
	Message  string `json:"message"`
	Progress struct {
		RowsDone  int `json:"rows_done"`
		RowsTotal int `json:"rows_total"`
	} `json:"progress"`
}

// tdmResult is a finished fetch answer.
type tdmResult struct {
	Status   string    `json:"status"`
	Distance [][]*int  `json:"distance"`
	Duration [][]*int  `json:"duration"`
	Origins  []string  `json:"origin_addresses"`
	Dests    []string  `json:"destination_addresses"`
	Snapping *struct{} `json:"snapping"`
}

// post sends a JSON body and returns the answer's status, headers time and
// body; gzip asks for a compressed body (returned as sent).
func (c *tdmClient) post(ctx context.Context, op string, body any, gzip bool) (code int, ttfb time.Duration, b []byte, err error) {
	payload, err := json.Marshal(body)
	if err != nil {
		return 0, 0, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/tdmv1/"+op, bytes.NewReader(payload))
	if err != nil {
		return 0, 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("x-api-key", c.key)
	if gzip {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	start := time.Now()
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, 0, nil, err
	}
	defer resp.Body.Close()
	ttfb = time.Since(start)
	b, err = io.ReadAll(resp.Body)
	return resp.StatusCode, ttfb, b, err
}

// order places an order and returns its uuid.
func (c *tdmClient) order(ctx context.Context, origins, destinations []string, result []string, metric string) (string, error) {
	body := map[string]any{"origin_addresses": origins, "destination_addresses": destinations}
	if result != nil {
		body["result"] = result
	}
	if metric != "" {
		body["routing"] = metric
	}
	code, _, b, err := c.post(ctx, "order", body, false)
	if err != nil {
		return "", err
	}
	if code != http.StatusOK {
		return "", fmt.Errorf("order: %d %s", code, b)
	}
	var a struct {
		UUID string `json:"uuid"`
	}
	if err := json.Unmarshal(b, &a); err != nil || a.UUID == "" {
		return "", fmt.Errorf("order answer %q: no uuid", b)
	}
	return a.UUID, nil
}

// fetch asks for job id once; body is the whole answer (compressed when
// gzip is set and the server compressed it).
func (c *tdmClient) fetch(ctx context.Context, id string, gzip bool) (code int, ttfb time.Duration, body []byte, err error) {
	return c.post(ctx, "fetch", map[string]string{"uuid": id}, gzip)
}

// finished is how a polled job ended.
type finished struct {
	// headers is when the answer that said Finished began to arrive; done
	// when its body (the whole result) was read.
	headers, done time.Time
	body          []byte
}

// waitFinished polls fetch every poll until the job is Finished. A Failed
// or Cancelled job is an error.
func (c *tdmClient) waitFinished(ctx context.Context, id string, poll time.Duration) (finished, error) {
	for {
		start := time.Now()
		code, ttfb, b, err := c.fetch(ctx, id, false)
		if err != nil {
			return finished{}, err
		}
		done := time.Now()
		if code != http.StatusOK {
			return finished{}, fmt.Errorf("fetch %s: %d %.200s", id, code, b)
		}
		switch st := answerStatus(b); st.Status {
		case "Finished":
			return finished{headers: start.Add(ttfb), done: done, body: b}, nil
		case "Failed", "Cancelled":
			return finished{}, fmt.Errorf("job %s ended %s: %s", id, st.Status, st.Message)
		case "Queued", "Processing":
		default:
			return finished{}, fmt.Errorf("fetch %s: no status in %.200q", id, b)
		}
		select {
		case <-ctx.Done():
			return finished{}, ctx.Err()
		case <-time.After(max(0, poll-time.Since(start))):
		}
	}
}

// answerStatus reads the status of a fetch answer; a long (finished) body
// is not decoded whole, its status is near the start.
func answerStatus(b []byte) tdmStatus {
	var st tdmStatus
	if len(b) < 64<<10 {
		json.Unmarshal(b, &st)
		return st
	}
	head := string(b[:256])
	if _, rest, ok := strings.Cut(head, `"status":"`); ok {
		st.Status, _, _ = strings.Cut(rest, `"`)
	}
	return st
}
