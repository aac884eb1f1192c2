package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/geosvc/geosvc/routing"
)

// tdmPost posts body to base+path with key and returns the status and
// the raw answer; hdr are header name, value pairs.
func tdmPost(t *testing.T, base, path, key string, body any, hdr ...string) (int, http.Header, []byte) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, base+path, bytes.NewReader(b))
	req.Header.Set("x-api-key", key)
	req.Header.Set("content-type", "application/json")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, out
}

// tdmOrder places an order and returns its uuid.
func tdmOrder(t *testing.T, base, key string, order any) string {
	t.Helper()
	code, _, b := tdmPost(t, base, "/tdmv1/order", key, order)
	var a struct {
		UUID string `json:"uuid"`
	}
	if code != http.StatusOK || json.Unmarshal(b, &a) != nil || a.UUID == "" {
		t.Fatalf("order: %d %.300s", code, b)
	}
	return a.UUID
}

// TestInlineAndQueuedJobsAnswerTheSame: one order computed by the API
// process before the order returns (tdm.inline_cells, the default) and by
// the workers (--inline-cells 0), each on its own `geosvc serve` over the
// Delaware bundle, in chunks of 7 rows: the inline job is Finished at the
// first fetch, and both fetch bodies are byte for byte the same but for
// the uuid, plain and gzip-compressed; their cells are routing's table.
// The second server also takes orders above the specification's limit
// (--max-locations 1200): a 1200 x 20 job read as application/x-ndjson.
func TestInlineAndQueuedJobsAnswerTheSame(t *testing.T) {
	data, err := delawareBundle(t)
	if err != nil {
		t.Fatal(err)
	}
	const key = "gs_inline_test_key_0123456789abcdefghij"
	inline := inProcessServer(t, data, key, "--chunk-rows", "7")
	queued := inProcessServer(t, data, key, "--chunk-rows", "7", "--inline-cells", "0", "--max-locations", "1200")

	g, err := routing.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := roadPoints(g, graphBound(g, delawareBound), 1225, 14)
	if err != nil {
		t.Fatal(err)
	}
	var origins, destinations []string
	for i, p := range pts[:45] {
		if i < 20 {
			origins = append(origins, lonLat(p))
		} else {
			destinations = append(destinations, lonLat(p))
		}
	}
	origins[3] = "-75.0,10.0" // in the sea: not snapped, a null row
	for _, tt := range []struct {
		name    string
		routing string
		result  []string
	}{
		{"both matrices, fastest", "fastest", nil},
		{"distance, shortest", "shortest", []string{"distance"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			order := map[string]any{"origin_addresses": origins, "destination_addresses": destinations, "routing": tt.routing}
			if tt.result != nil {
				order["result"] = tt.result
			}
			a := tdmOrder(t, inline, key, order)
			code, _, first := tdmPost(t, inline, "/tdmv1/fetch", key, map[string]any{"uuid": a})
			if code != http.StatusOK || !bytes.Contains(first[:min(len(first), 100)], []byte(`"status":"Finished"`)) {
				t.Fatalf("inline job's first fetch: %d %.200s; want Finished", code, first)
			}
			b := tdmOrder(t, queued, key, order)
			code, _, second := tdmPost(t, queued, "/tdmv1/fetch", key, map[string]any{"uuid": b, "wait": 30})
			if code != http.StatusOK || !bytes.Contains(second[:min(len(second), 100)], []byte(`"status":"Finished"`)) {
				t.Fatalf("queued job after waiting: %d %.200s", code, second)
			}
			if got := bytes.ReplaceAll(second, []byte(b), []byte(a)); !bytes.Equal(got, first) {
				t.Errorf("queued body differs from the inline body:\n%.400s\n%.400s", got, first)
			}
			for _, base := range []string{inline, queued} {
				id := a
				if base == queued {
					id = b
				}
				_, h, gz := tdmPost(t, base, "/tdmv1/fetch", key, map[string]any{"uuid": id}, "Accept-Encoding", "gzip")
				if h.Get("Content-Encoding") != "gzip" {
					t.Fatalf("gzip fetch: %v", h)
				}
				if plain := gunzip(t, gz); !bytes.Equal(bytes.ReplaceAll(plain, []byte(b), []byte(a)), first) {
					t.Errorf("%s: gzip body differs from the plain one", base)
				}
			}

			m := routing.Fastest
			if tt.routing == "shortest" {
				m = routing.Shortest
			}
			snaps := g.SnapAll(m, parsePoints(origins), routing.DefaultSnapRadiusM)
			table, err := g.Matrix(context.Background(), m, snaps, g.SnapAll(m, parsePoints(destinations), routing.DefaultSnapRadiusM))
			if err != nil {
				t.Fatal(err)
			}
			res := parseResult(t, first)
			if len(res.Distance) != len(origins) || (tt.result == nil) != (len(res.Duration) == len(origins)) {
				t.Fatalf("%d distance rows, %d duration rows", len(res.Distance), len(res.Duration))
			}
			nulls := 0
			for i := range origins {
				for j := range destinations {
					secs, metres := table.At(i, j)
					if !sameCell(res.Distance[i][j], metres) || tt.result == nil && !sameCell(res.Duration[i][j], secs) {
						t.Fatalf("cell %d,%d: %v m; routing's table says %d s %d m", i, j, deref(res.Distance[i][j]), secs, metres)
					}
					if res.Distance[i][j] == nil {
						nulls++
					}
				}
			}
			if nulls < len(destinations) || nulls > len(destinations)+len(origins)*len(destinations)/10 {
				t.Errorf("%d null cells: want the sea origin's row and few others", nulls)
			}
		})
	}

	// Above the specification's limit where the deployment raised it
	// (--max-locations 1200): 1200 origins, read as application/x-ndjson
	// line by line, every line equal to the plain answer's row, spot-checked
	// against routing's table.
	t.Run("1200 origins, ndjson", func(t *testing.T) {
		var big []string
		for _, p := range pts[25:] {
			big = append(big, lonLat(p))
		}
		order := map[string]any{"origin_addresses": big, "destination_addresses": origins}
		if code, _, b := tdmPost(t, inline, "/tdmv1/order", key, order); code != http.StatusBadRequest ||
			!bytes.Contains(b, []byte("holds 1200 origins: the limit is 1000")) {
			t.Errorf("1200 origins at the default limit: %d %.200s", code, b)
		}
		id := tdmOrder(t, queued, key, order)
		code, h, body := tdmPost(t, queued, "/tdmv1/fetch", key, map[string]any{"uuid": id, "wait": 30}, "Accept", "application/x-ndjson")
		if code != http.StatusOK || h.Get("Content-Type") != "application/x-ndjson" {
			t.Fatalf("ndjson fetch: %d %v %.200s", code, h, body)
		}
		_, _, plainBody := tdmPost(t, queued, "/tdmv1/fetch", key, map[string]any{"uuid": id})
		plain := parseResult(t, plainBody)
		snaps := g.SnapAll(routing.Fastest, parsePoints(big[:5]), routing.DefaultSnapRadiusM)
		table, err := g.Matrix(context.Background(), routing.Fastest, snaps, g.SnapAll(routing.Fastest, parsePoints(origins), routing.DefaultSnapRadiusM))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(nil, 1<<20)
		var head map[string]json.RawMessage
		n := -1
		for sc.Scan() {
			if n < 0 {
				if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
					t.Fatalf("first line: %v", err)
				}
				n++
				continue
			}
			var r resultRow
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("line %d: %v", n+2, err)
			}
			if r.Row != n || fmt.Sprint(derefs(r.Duration)) != fmt.Sprint(derefs(plain.Duration[n])) ||
				fmt.Sprint(derefs(r.Distance)) != fmt.Sprint(derefs(plain.Distance[n])) {
				t.Fatalf("line %d: row %d differs from the plain answer's row %d", n+2, r.Row, n)
			}
			if n < 5 {
				for j := range origins {
					secs, metres := table.At(n, j)
					if !sameCell(r.Duration[j], secs) || !sameCell(r.Distance[j], metres) {
						t.Fatalf("cell %d,%d: %v s %v m; routing's table says %d s %d m", n, j, deref(r.Duration[j]), deref(r.Distance[j]), secs, metres)
					}
				}
			}
			n++
		}
		if sc.Err() != nil || n != len(big) {
			t.Fatalf("%d rows read (%v), want %d", n, sc.Err(), len(big))
		}
		var st, uuid string
		json.Unmarshal(head["status"], &st)
		json.Unmarshal(head["uuid"], &uuid)
		if st != "Finished" || uuid != id || head["snapping"] == nil || head["origin_addresses"] == nil || head["duration"] != nil {
			t.Errorf("first line: %v", head)
		}
	})
}

// derefs lists a row's cells, nil for null.
func derefs(row []*int) []any {
	out := make([]any, len(row))
	for i, p := range row {
		out[i] = deref(p)
	}
	return out
}

// gunzip returns the decompressed b.
func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
