package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/geosvc/geosvc/queue"
)

// fetchJSON fetches id and decodes the answer.
func (f *tdmFixture) fetchJSON(t *testing.T, key, id string) (int, map[string]any) {
	t.Helper()
	rec := f.post("fetch", key, `{"uuid":"`+id+`"}`)
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("fetch answer %q: %v", rec.Body, err)
	}
	return rec.Code, m
}

func TestTDMFetchAnswers(t *testing.T) {
	f := newTDMFixture(t, 2)
	id := f.order(t, orderJSON(nil, addresses(3), addresses(2)))
	expired := f.order(t, orderJSON(nil, addresses(1), addresses(1)))
	f.env.Expire(t, expired)
	tests := []struct {
		name, key, body string
		code            int
		message         string
	}{
		{"malformed body", f.key, `{"uuid":`, 400, "malformed JSON"},
		{"uuid missing", f.key, `{}`, 400, "uuid: is required"},
		{"uuid not a string", f.key, `{"uuid":5}`, 400, "uuid: must be a string"},
		{"not a uuid", f.key, `{"uuid":"job-1"}`, 400, `"job-1" is not a uuid`},
		{"unknown", f.key, `{"uuid":"1b4e28ba-2fa1-11d2-883f-0016d3cca427"}`, 404, "no job 1b4e28ba-2fa1-11d2-883f-0016d3cca427"},
		{"another key's job", f.other, `{"uuid":"` + id + `"}`, 404, "no job " + id},
		{"expired", f.key, `{"uuid":"` + expired + `"}`, 410, "has expired"},
		{"expired, another key", f.other, `{"uuid":"` + expired + `"}`, 404, "no job"},
		{"no key", "", `{"uuid":"` + id + `"}`, 403, "Forbidden"},
	}
	for _, tt := range tests {
		for _, op := range []string{"fetch", "cancel"} {
			rec := f.post(op, tt.key, tt.body)
			var m map[string]any
			json.Unmarshal(rec.Body.Bytes(), &m)
			msg, _ := m["message"].(string)
			if rec.Code != tt.code || !strings.Contains(msg, tt.message) {
				t.Errorf("%s %s: %d %s, want %d with message containing %q", op, tt.name, rec.Code, rec.Body, tt.code, tt.message)
			}
		}
	}
	code, m := f.fetchJSON(t, f.key, id)
	want := map[string]any{"uuid": id, "status": "Queued", "progress": map[string]any{"rows_done": 0.0, "rows_total": 3.0}}
	if code != 200 || fmt.Sprint(m) != fmt.Sprint(want) {
		t.Errorf("queued job: %d %v, want %v", code, m, want)
	}
	// The uuid in braces or upper case names the same job.
	if code, m := f.fetchJSON(t, f.key, "{"+strings.ToUpper(id)+"}"); code != 200 || m["uuid"] != id {
		t.Errorf("fetch of the braced uuid: %d %v", code, m)
	}
	ctx := context.Background()
	if _, _, err := f.q.PutChunk(ctx, id, 1, queue.ChunkResult{Durations: []int32{1, 2}, Distances: []int32{3, 4},
		OriginSnaps: []float32{0}, DestinationSnaps: []float32{0, 0}}); err != nil {
		t.Fatal(err)
	}
	_, m = f.fetchJSON(t, f.key, id)
	if m["status"] != "Processing" || fmt.Sprint(m["progress"]) != "map[rows_done:1 rows_total:3]" {
		t.Errorf("processing job: %v", m)
	}
	failed := f.order(t, orderJSON(nil, addresses(1), addresses(1)))
	f.q.Fail(ctx, failed, "chunk 0 failed after 5 retries: boom")
	_, m = f.fetchJSON(t, f.key, failed)
	if m["status"] != "Failed" || m["message"] != "chunk 0 failed after 5 retries: boom" {
		t.Errorf("failed job: %v", m)
	}
}

func TestTDMFetchFinished(t *testing.T) {
	f := newTDMFixture(t, 2)
	origins := []string{" -75.5 , 39.7", "-75.6,39.8", "-75.7,39.9"}
	destinations := []string{"-75.1,39.1", "-75.2, 39.2"}
	id := f.order(t, orderJSON([]string{"cost", "distance"}, origins, destinations))
	f.complete(t, id)
	rec := f.post("fetch", f.key, `{"uuid":"`+id+`"}`)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("fetch: %d %v", rec.Code, rec.Header())
	}
	want := `{"uuid":"` + id + `","status":"Finished","routing":"fastest",` +
		`"origin_addresses":[" -75.5 , 39.7","-75.6,39.8","-75.7,39.9"],` +
		`"destination_addresses":["-75.1,39.1","-75.2, 39.2"],` +
		`"distance":[[0,null],[1000,null],[2000,null]],` +
		`"duration":[[0,null],[100,null],[200,null]],` +
		`"snapping":{"origins":[{"snapped":true,"moved_m":0},{"snapped":true,"moved_m":0.25},{"snapped":true,"moved_m":0.5}],` +
		`"destinations":[{"snapped":false},{"snapped":true,"moved_m":0}]}}`
	if rec.Body.String() != want {
		t.Errorf("body\n%s\nwant\n%s", rec.Body, want)
	}

	only := f.order(t, orderJSON([]string{"distance"}, origins, destinations))
	f.complete(t, only)
	_, m := f.fetchJSON(t, f.key, only)
	if _, ok := m["duration"]; ok || fmt.Sprint(m["distance"]) != "[[0 <nil>] [1000 <nil>] [2000 <nil>]]" {
		t.Errorf("distance-only job: %v", m)
	}
}

// plainResult is the finished body encoded the ordinary way, for comparison
// with the stream.
type plainResult struct {
	UUID         string   `json:"uuid"`
	Status       string   `json:"status"`
	Routing      string   `json:"routing"`
	Origins      []string `json:"origin_addresses"`
	Destinations []string `json:"destination_addresses"`
	Distance     [][]*int `json:"distance,omitempty"`
	Duration     [][]*int `json:"duration,omitempty"`
	Snapping     struct {
		Origins      []snapReport `json:"origins"`
		Destinations []snapReport `json:"destinations"`
	} `json:"snapping"`
}

func TestTDMFetchStreamEqualsPlainEncoding(t *testing.T) {
	defer func(b int) { resultWindowBytes = b }(resultWindowBytes)
	resultWindowBytes = 1 // one chunk per read: many windows
	f := newTDMFixture(t, 7)
	origins, destinations := addresses(50), addresses(40)
	origins[3] = `-75.1,39.1 "quoted" <tag> & ünïcode`[:10]
	id := f.order(t, orderJSON(nil, origins, destinations))
	f.complete(t, id)

	want := plainResult{UUID: id, Status: "Finished", Routing: "fastest", Origins: origins, Destinations: destinations}
	cell := func(v int) *int {
		if v < 0 {
			return nil
		}
		return &v
	}
	for i := range origins {
		var dist, dur []*int
		for k := range destinations {
			if k == 1 {
				dist, dur = append(dist, nil), append(dur, nil)
				continue
			}
			dist, dur = append(dist, cell(1000*i+k)), append(dur, cell(100*i+k))
		}
		want.Distance, want.Duration = append(want.Distance, dist), append(want.Duration, dur)
		want.Snapping.Origins = append(want.Snapping.Origins, newSnapReport(float32(i)/4))
	}
	for k := range destinations {
		m := float32(0)
		switch k {
		case 0:
			m = queue.NotSnapped
		case 2:
			m = queue.NotSnappedSwapped
		}
		want.Snapping.Destinations = append(want.Snapping.Destinations, newSnapReport(m))
	}
	plain, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	rec := f.post("fetch", f.key, `{"uuid":"`+id+`"}`)
	if !bytes.Equal(rec.Body.Bytes(), plain) {
		t.Errorf("streamed body (%d bytes) differs from the plain encoding (%d bytes)\n%.300s\n%.300s",
			rec.Body.Len(), len(plain), rec.Body, plain)
	}

	gz := f.post("fetch", f.key, `{"uuid":"`+id+`"}`, "Accept-Encoding", "br, gzip;q=0.8")
	if gz.Header().Get("Content-Encoding") != "gzip" || !slices.Contains(gz.Header().Values("Vary"), "Accept-Encoding") {
		t.Fatalf("gzip answer headers %v", gz.Header())
	}
	zr, err := gzip.NewReader(gz.Body)
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(unzipped, plain) {
		t.Errorf("gunzipped body differs from the plain encoding (err %v)", err)
	}
	if gz.Body.Len() >= len(plain) {
		t.Errorf("gzip body %d bytes, plain %d", gz.Body.Len(), len(plain))
	}
}

func TestAcceptsGzip(t *testing.T) {
	tests := map[string]bool{
		"":                   false,
		"gzip":               true,
		"GZIP":               true,
		"deflate, gzip":      true,
		"gzip;q=0":           false,
		"gzip; q=0.5":        true,
		"br":                 false,
		"*":                  true,
		"identity, *;q=0":    false,
		"x-gzip-not, br;q=1": false,
	}
	for h, want := range tests {
		if got := acceptsGzip(h); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", h, got, want)
		}
	}
}

func TestTDMCancel(t *testing.T) {
	f := newTDMFixture(t, 2)
	id := f.order(t, orderJSON(nil, addresses(6), addresses(2)))
	rec := f.post("cancel", f.key, `{"uuid":"`+id+`"}`)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"status":"Cancelled"`) {
		t.Fatalf("cancel: %d %s", rec.Code, rec.Body)
	}
	if n := f.pending(t); n != 0 {
		t.Errorf("%d chunk tasks still pending after cancel", n)
	}
	if _, m := f.fetchJSON(t, f.key, id); m["status"] != "Cancelled" {
		t.Errorf("fetch after cancel: %v", m)
	}
	if rec := f.post("cancel", f.key, `{"uuid":"`+id+`"}`); rec.Code != 200 {
		t.Errorf("second cancel: %d %s", rec.Code, rec.Body)
	}
	done := f.order(t, orderJSON(nil, addresses(1), addresses(1)))
	f.complete(t, done)
	rec = f.post("cancel", f.key, `{"uuid":"`+done+`"}`)
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "already Finished") {
		t.Errorf("cancel of a finished job: %d %s", rec.Code, rec.Body)
	}
	if _, m := f.fetchJSON(t, f.key, done); m["status"] != "Finished" {
		t.Errorf("finished job after a refused cancel: %v", m["status"])
	}
}

// TestTDMExpiredAfterRetention lets a finished job's keys expire: by the
// embedded Redis's clock, or on a real Redis (whose clock cannot be moved)
// by Expire, which first asserts the keys' PTTLs.
func TestTDMExpiredAfterRetention(t *testing.T) {
	f := newTDMFixture(t, 2)
	id := f.order(t, orderJSON(nil, addresses(2), addresses(2)))
	f.complete(t, id)
	if f.env.Mini != nil {
		f.env.Mini.FastForward(queue.DefaultRetention + time.Minute)
	} else {
		f.env.Expire(t, id)
	}
	code, m := f.fetchJSON(t, f.key, id)
	if code != http.StatusGone || !strings.Contains(m["message"].(string), "kept for 24h after the order") {
		t.Errorf("fetch after retention: %d %v", code, m)
	}
}

func TestShortDuration(t *testing.T) {
	tests := map[time.Duration]string{
		24 * time.Hour:                "24h",
		90 * time.Minute:              "1h30m",
		time.Hour + time.Second:       "1h0m1s",
		45 * time.Second:              "45s",
		2*time.Minute + 0*time.Second: "2m",
	}
	for d, want := range tests {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// failingWriter fails every write after the first n bytes.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, io.ErrClosedPipe
	}
	return len(p), nil
}

func TestWriteGzip(t *testing.T) {
	payload := bytes.Repeat([]byte("[1,22,333,null],"), 50000)
	produce := func(w io.Writer) error {
		for i := 0; i < len(payload); i += 1000 {
			w.Write(payload[i:min(len(payload), i+1000)])
		}
		return nil
	}
	var buf bytes.Buffer
	if err := writeGzip(&buf, gzip.HuffmanOnly, produce); err != nil {
		t.Fatal(err)
	}
	zr, _ := gzip.NewReader(&buf)
	got, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(got, payload) {
		t.Errorf("round trip: %d bytes, %v; want %d bytes", len(got), err, len(payload))
	}
	if err := writeGzip(&failingWriter{n: 100}, gzip.HuffmanOnly, produce); err == nil {
		t.Error("writeGzip to a failing writer reported no error")
	}
	boom := errors.New("boom")
	if err := writeGzip(io.Discard, gzip.HuffmanOnly, func(io.Writer) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("producer error: %v", err)
	}
}

// TestTDMFetchWaits: a fetch with "wait" answers as soon as the job ends,
// without polling (the job is completed while the fetch waits; the answer
// is Finished long before the 30 s wait runs out), answers the current
// status when the wait runs out first, and returns when its client goes
// away, leaving no subscription behind.
func TestTDMFetchWaits(t *testing.T) {
	f := newTDMFixture(t, 2)
	id := f.order(t, orderJSON(nil, addresses(3), addresses(2)))
	type answer struct {
		rec  *httptest.ResponseRecorder
		took time.Duration
	}
	got := make(chan answer, 1)
	start := time.Now()
	go func() {
		rec := f.post("fetch", f.key, `{"uuid":"`+id+`","wait":30}`)
		got <- answer{rec, time.Since(start)}
	}()
	// The fetch is waiting on the job's end channel before it completes.
	ch := f.q.Config().Prefix + ":{" + id + "}:end"
	for deadline := time.Now().Add(10 * time.Second); ; {
		n, err := f.env.Client.PubSubNumSub(context.Background(), ch).Result()
		if err == nil && n[ch] == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the fetch never subscribed to the job's end")
		}
		time.Sleep(time.Millisecond)
	}
	f.complete(t, id)
	a := <-got
	var m map[string]any
	json.Unmarshal(a.rec.Body.Bytes(), &m)
	if a.rec.Code != 200 || m["status"] != "Finished" || m["duration"] == nil || a.took >= 30*time.Second {
		t.Errorf("waiting fetch: %d %v after %v; want the Finished result before the wait ran out", a.rec.Code, m["status"], a.took)
	}

	// The wait runs out: the current status.
	queued := f.order(t, orderJSON(nil, addresses(1), addresses(1)))
	rec := f.post("fetch", f.key, `{"uuid":"`+queued+`","wait":0.05}`)
	json.Unmarshal(rec.Body.Bytes(), &m)
	if rec.Code != 200 || m["status"] != "Queued" {
		t.Errorf("fetch after its wait: %d %s", rec.Code, rec.Body)
	}

	// The client goes away while waiting.
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest(http.MethodPost, "/tdmv1/fetch", strings.NewReader(`{"uuid":"`+queued+`","wait":30}`)).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(headerAPIKey, f.key)
	done := make(chan struct{})
	go func() {
		f.srv.ServeHTTP(httptest.NewRecorder(), req)
		close(done)
	}()
	qch := f.q.Config().Prefix + ":{" + queued + "}:end"
	for f.env.Client.PubSubNumSub(context.Background(), qch).Val()[qch] != 1 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
	// The subscription's connection is closed as the handler returns; the
	// server notices it a moment later.
	for deadline := time.Now().Add(10 * time.Second); f.env.Client.PubSubNumSub(context.Background(), qch).Val()[qch] != 0; {
		if time.Now().After(deadline) {
			t.Fatal("a subscription is left after the client went away")
		}
		time.Sleep(5 * time.Millisecond)
	}

	for _, w := range []string{`31`, `-1`, `"5"`, `true`} {
		rec := f.post("fetch", f.key, `{"uuid":"`+queued+`","wait":`+w+`}`)
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), "wait") {
			t.Errorf("wait %s: %d %s", w, rec.Code, rec.Body)
		}
	}
}

// TestTDMFetchWaitEndsAtShutdown: a fetch waiting for a job answers its
// current status as soon as the server begins to shut down, so that the
// shutdown is not held up for the rest of the wait.
func TestTDMFetchWaitEndsAtShutdown(t *testing.T) {
	f := newTDMFixture(t, 2)
	queued := f.order(t, orderJSON(nil, addresses(1), addresses(1)))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- f.srv.Serve(ln) }()
	type answer struct {
		code int
		body string
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+"/tdmv1/fetch", strings.NewReader(`{"uuid":"`+queued+`","wait":30}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(headerAPIKey, f.key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- answer{code: resp.StatusCode, body: string(b)}
	}()
	ch := f.q.Config().Prefix + ":{" + queued + "}:end"
	for deadline := time.Now().Add(10 * time.Second); f.env.Client.PubSubNumSub(context.Background(), ch).Val()[ch] != 1; {
		if time.Now().After(deadline) {
			t.Fatal("the fetch never began to wait")
		}
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	if err := f.srv.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v (the waiting fetch held it up)", err)
	}
	a := <-got
	if a.err != nil || a.code != 200 || !strings.Contains(a.body, `"status":"Queued"`) {
		t.Errorf("waiting fetch at shutdown: %d %s %v; want 200 with the job Queued", a.code, a.body, a.err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve: %v", err)
	}
}

// ndjsonLines splits an ndjson body into its lines, each decoded.
func ndjsonLines(t *testing.T, body []byte) []map[string]json.RawMessage {
	t.Helper()
	if len(body) == 0 || body[len(body)-1] != '\n' {
		t.Fatalf("ndjson body does not end with a newline: %.100q", body)
	}
	var out []map[string]json.RawMessage
	for line := range bytes.SplitSeq(body[:len(body)-1], []byte("\n")) {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("line %d %.100q: %v", len(out), line, err)
		}
		out = append(out, m)
	}
	return out
}

func TestTDMFetchNDJSON(t *testing.T) {
	defer func(b int) { resultWindowBytes = b }(resultWindowBytes)
	resultWindowBytes = 1 // one chunk per read: many windows
	f := newTDMFixture(t, 7)
	origins, destinations := addresses(23), addresses(5)
	for _, result := range [][]string{nil, {"distance"}, {"duration"}} {
		id := f.order(t, orderJSON(result, origins, destinations))
		f.complete(t, id)
		_, plain := f.fetchJSON(t, f.key, id)
		rec := f.post("fetch", f.key, `{"uuid":"`+id+`"}`, "Accept", "application/x-ndjson")
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/x-ndjson" {
			t.Fatalf("ndjson fetch: %d %v", rec.Code, rec.Header())
		}
		lines := ndjsonLines(t, rec.Body.Bytes())
		if len(lines) != 1+len(origins) {
			t.Fatalf("%v: %d lines, want 1 + %d rows", result, len(lines), len(origins))
		}
		// The first line: every member of the plain answer but the
		// matrices, equal to it.
		head := lines[0]
		for k, v := range plain {
			if k == "duration" || k == "distance" {
				if _, ok := head[k]; ok {
					t.Errorf("first line holds %s", k)
				}
				continue
			}
			want, _ := json.Marshal(v)
			var got any
			json.Unmarshal(head[k], &got)
			if g, _ := json.Marshal(got); !bytes.Equal(g, want) {
				t.Errorf("first line %s = %s, want %s", k, g, want)
			}
		}
		matrices := 2
		if result != nil {
			matrices = 1
		}
		if len(head) != len(plain)-matrices {
			t.Errorf("first line has %d members, the plain answer %d with %d matrices", len(head), len(plain), matrices)
		}
		// Then row i of each wanted matrix, equal to the plain answer's.
		for i, line := range lines[1:] {
			if string(line["row"]) != fmt.Sprint(i) {
				t.Errorf("line %d: row %s", i+1, line["row"])
			}
			for _, name := range []string{"duration", "distance"} {
				want, asked := plain[name]
				got, there := line[name]
				if asked != there {
					t.Errorf("line %d: %s there %v, asked %v", i+1, name, there, asked)
					continue
				}
				if !asked {
					continue
				}
				w, _ := json.Marshal(want.([]any)[i])
				if string(got) != string(w) {
					t.Errorf("line %d: %s %s, want %s", i+1, name, got, w)
				}
			}
			if matrices := len(plain) - len(head); len(line) != 1+matrices {
				t.Errorf("line %d: %d members, want row and %d matrices", i+1, len(line), matrices)
			}
		}
	}
	// Gzip works for ndjson too.
	id := f.order(t, orderJSON(nil, origins, destinations))
	f.complete(t, id)
	plain := f.post("fetch", f.key, `{"uuid":"`+id+`"}`, "Accept", "application/x-ndjson")
	gz := f.post("fetch", f.key, `{"uuid":"`+id+`"}`, "Accept", "application/x-ndjson", "Accept-Encoding", "gzip")
	zr, err := gzip.NewReader(gz.Body)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(zr); err != nil || !bytes.Equal(b, plain.Body.Bytes()) {
		t.Errorf("gzipped ndjson differs from the plain ndjson (%v)", err)
	}
}

func TestAcceptsNDJSON(t *testing.T) {
	for _, tt := range []struct {
		header string
		want   bool
	}{
		{"application/x-ndjson", true},
		{"Application/X-NDJSON; q=0.9", true},
		{"text/plain, application/x-ndjson", true},
		{"application/json, application/x-ndjson", false},
		{"application/x-ndjson;q=0", false},
		{"*/*", false},
		{"", false},
		{"application/json", false},
	} {
		if got := acceptsNDJSON(tt.header); got != tt.want {
			t.Errorf("acceptsNDJSON(%q) = %v, want %v", tt.header, got, tt.want)
		}
	}
}
