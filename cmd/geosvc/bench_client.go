package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"
)

// tdmClient talks to the tdmv1 endpoints of one server with one key.
type tdmClient struct {
	base string
	key  string
	hc   *http.Client
	// speeds, when set, go into every order ("speeds": km/h by RoadType);
	// with newSpeeds the k-th order adds k/2 km/h to each, so that every
	// order asks for a metric never customized before.
	speeds    map[string]float64
	newSpeeds bool
	// extra are more fields of every order (the per-point snapping
	// options of --radius and --bearing-range).
	extra map[string]any
	// avoidPolygons, when set, go into every order (avoid_polygons).
	avoidPolygons orb.MultiPolygon
	// profile (when set and not the car's) and vehicle (when set) go
	// into every order; with newVehicle the k-th order's weight_t is
	// k x 0.01 t less, a vehicle never seen before.
	profile    string
	vehicle    map[string]any
	newVehicle bool
	orders     atomic.Int64
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
	for k, v := range c.extra {
		body[k] = v
	}
	if result != nil {
		body["result"] = result
	}
	if metric != "" {
		body["routing"] = metric
	}
	k := c.orders.Add(1) - 1
	if len(c.speeds) > 0 {
		sp := make(map[string]float64, len(c.speeds))
		for t, v := range c.speeds {
			if c.newSpeeds {
				v += float64(k) / 2
			}
			sp[t] = v
		}
		body["speeds"] = sp
	}
	if len(c.avoidPolygons) > 0 {
		body["avoid_polygons"] = geojson.NewGeometry(c.avoidPolygons)
	}
	if c.profile != "" && c.profile != "car" {
		body["profile"] = c.profile
	}
	if c.vehicle != nil {
		v := maps.Clone(c.vehicle)
		if w, ok := v["weight_t"].(float64); ok && c.newVehicle {
			v["weight_t"] = math.Round((w-float64(k)/100)*100) / 100
		}
		body["vehicle"] = v
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

// fetchSize asks for job id once and reads the whole answer (compressed
// when gzip is set and the server compressed it) without keeping it: its
// status and size.
func (c *tdmClient) fetchSize(ctx context.Context, id string, gzip bool) (code int, size int64, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/tdmv1/fetch", strings.NewReader(`{"uuid":"`+id+`"}`))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-api-key", c.key)
	if gzip {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	size, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, size, err
}

// finished is how a polled job ended.
type finished struct {
	// headers is when the answer that said Finished began to arrive; done
	// when its body (the whole result) was read.
	headers, done time.Time
	// body is the Finished answer (plain JSON; nil for ndjson, which is
	// read line by line and not kept).
	body []byte
	// size is the Finished answer's length in bytes.
	size int64
}

// resultRow is one origin row of a result: a line of the ndjson answer.
type resultRow struct {
	Row      int    `json:"row"`
	Duration []*int `json:"duration"`
	Distance []*int `json:"distance"`
}

// waitFinished fetches job id until it is Finished, each fetch waiting up
// to wait seconds for the job to end (the long-poll extension; with 0 it
// polls every poll). A Failed or Cancelled job is an error. With rows set
// the result is asked for as application/x-ndjson and read line by line,
// each row handed to rows as it arrives (nothing of it kept).
func (c *tdmClient) waitFinished(ctx context.Context, id string, poll time.Duration, wait int, rows func(resultRow) error) (finished, error) {
	for {
		start := time.Now()
		body := map[string]any{"uuid": id}
		if wait > 0 {
			body["wait"] = wait
		}
		payload, _ := json.Marshal(body)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/tdmv1/fetch", bytes.NewReader(payload))
		if err != nil {
			return finished{}, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("x-api-key", c.key)
		req.Header.Set("Accept", "application/json")
		if rows != nil {
			req.Header.Set("Accept", "application/x-ndjson")
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			return finished{}, err
		}
		headers := time.Now()
		f, st, err := readFinished(resp, rows)
		resp.Body.Close()
		if err != nil {
			return finished{}, fmt.Errorf("fetch %s: %w", id, err)
		}
		switch st.Status {
		case "Finished":
			f.headers, f.done = headers, time.Now()
			return f, nil
		case "Failed", "Cancelled":
			return finished{}, fmt.Errorf("job %s ended %s: %s", id, st.Status, st.Message)
		case "Queued", "Processing":
		default:
			return finished{}, fmt.Errorf("fetch %s: no status in %.200q", id, f.body)
		}
		if wait == 0 {
			select {
			case <-ctx.Done():
				return finished{}, ctx.Err()
			case <-time.After(max(0, poll-time.Since(start))):
			}
		}
	}
}

// readFinished reads a fetch answer: whole (plain JSON), or, when rows is
// set and the answer is ndjson, its first line and then every row line
// handed to rows.
func readFinished(resp *http.Response, rows func(resultRow) error) (finished, tdmStatus, error) {
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return finished{}, tdmStatus{}, fmt.Errorf("%d %.200s", resp.StatusCode, b)
	}
	if rows == nil || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/x-ndjson") {
		b, err := io.ReadAll(resp.Body)
		return finished{body: b, size: int64(len(b))}, answerStatus(b), err
	}
	br := bufio.NewReaderSize(resp.Body, 1<<20)
	var f finished
	first, err := br.ReadBytes('\n')
	f.size += int64(len(first))
	if err != nil {
		return f, tdmStatus{}, fmt.Errorf("ndjson first line: %w", err)
	}
	var st tdmStatus
	if err := json.Unmarshal(first, &st); err != nil {
		return f, st, fmt.Errorf("ndjson first line: %w", err)
	}
	for n := 0; ; n++ {
		line, err := br.ReadBytes('\n')
		f.size += int64(len(line))
		if err == io.EOF && len(line) == 0 {
			return f, st, nil
		}
		if err != nil {
			return f, st, fmt.Errorf("ndjson line %d: %w", n+2, err)
		}
		var r resultRow
		if err := json.Unmarshal(line, &r); err != nil {
			return f, st, fmt.Errorf("ndjson line %d: %w", n+2, err)
		}
		if r.Row != n {
			return f, st, fmt.Errorf("ndjson line %d is row %d", n+2, r.Row)
		}
		if err := rows(r); err != nil {
			return f, st, err
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
