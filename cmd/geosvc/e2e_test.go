package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/geosvc/geosvc/routing"
	"github.com/paulmach/orb"
)

// TestOrderToFetchInProcess is the whole matrix path in one process, on
// the embedded Redis, as `make run` serves it: `geosvc build` of a
// hand-written fixture, `geosvc serve` (HTTP, asynq workers, Redis), a
// tdmv1 order with the demo key, and fetches until the job is Finished.
// The fixture is routing/testdata/roundabout.osm, whose header computes
// the routes by hand (S2 -> E2: 379.644 m, 54.948 s; S2 -> W2 round the
// one-way ring: 694.151 m, 111.027 s); the answer must be those numbers,
// rounded, and equal routing's own table on the served graph.
func TestOrderToFetchInProcess(t *testing.T) {
	const key = "gs_e2e_test_key_0123456789abcdefghij"
	base := inProcessServer(t, roundaboutBundle(t), key)
	data := roundaboutBundle(t)

	post := func(path string, body any) (int, map[string]any) {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(http.MethodPost, base+path, bytes.NewReader(b))
		req.Header.Set("x-api-key", key)
		req.Header.Set("content-type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return resp.StatusCode, m
	}
	// S2, W2, and S2 written lat,lon -> E2, W2 (lon,lat).
	s2, w2, e2 := "10.002,0.000", "10.000,0.002", "10.004,0.002"
	order := map[string]any{
		"result":                []string{"duration", "distance"},
		"origin_addresses":      []string{s2, w2, "0.000,10.002"},
		"destination_addresses": []string{e2, w2},
	}
	// The order is answered once the bundle is loaded (503 before).
	var id string
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, m := post("/tdmv1/order", order)
		if st == http.StatusOK {
			id, _ = m["uuid"].(string)
			break
		}
		if st != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("order: %d %v", st, m)
		}
		time.Sleep(20 * time.Millisecond)
	}
	var res struct {
		Status   string     `json:"status"`
		Duration [][]*int64 `json:"duration"`
		Distance [][]*int64 `json:"distance"`
		Snapping struct {
			Origins []struct {
				Snapped bool   `json:"snapped"`
				Hint    string `json:"hint"`
			} `json:"origins"`
		} `json:"snapping"`
	}
	for deadline = time.Now().Add(30 * time.Second); ; {
		st, m := post("/tdmv1/fetch", map[string]string{"uuid": id})
		if st != http.StatusOK {
			t.Fatalf("fetch: %d %v", st, m)
		}
		if m["status"] == "Finished" {
			b, _ := json.Marshal(m)
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			break
		}
		if m["status"] != "Queued" && m["status"] != "Processing" || time.Now().After(deadline) {
			t.Fatalf("fetch: %v", m)
		}
		time.Sleep(10 * time.Millisecond)
	}

	// The swapped pair: not snapped, with the hint, its cells null.
	if o := res.Snapping.Origins; len(o) != 3 || o[2].Snapped || !strings.Contains(o[2].Hint, "lat,lon") ||
		res.Duration[2][0] != nil || res.Distance[2][1] != nil {
		t.Errorf("swapped origin: snapping %+v, cells %v %v; want not snapped, a lat,lon hint, null cells", o, res.Duration[2], res.Distance[2])
	}
	// Hand-computed with the fixture header's numbers, rounded to whole
	// seconds and metres: S2 -> E2 and S2 -> W2 as there; W2 -> E2 is West
	// Arm, Ring W->S->E, East Arm: 2 x 111.195 + 2 x 157.254 = 536.898 m
	// and 2 x 16.0121 + 2 x 22.6445 s, plus the turns: onto the ring at W
	// (heading 90 to 135, +45: 0.1397 s), along it at S (135 to 45, -90:
	// 5.3947 s) and off it at E (45 to 90, +45: 0.1397 s): 82.987 s.
	// W2 -> W2 is 0.
	want := struct{ duration, distance [2][2]int64 }{
		duration: [2][2]int64{{55, 111}, {83, 0}},
		distance: [2][2]int64{{380, 694}, {537, 0}},
	}
	g, err := routing.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	snaps := g.SnapAll(routing.Fastest, []orb.Point{{10.002, 0}, {10.000, 0.002}, {10.004, 0.002}, {10.000, 0.002}}, 1000)
	table, err := g.Matrix(context.Background(), routing.Fastest, snaps[:2], snaps[2:])
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		for j := 0; j < 2; j++ {
			gotT, gotD := res.Duration[i][j], res.Distance[i][j]
			if gotT == nil || gotD == nil {
				t.Fatalf("cell %d,%d is null", i, j)
			}
			secs, metres := table.At(i, j)
			if *gotT != int64(secs) || *gotD != int64(metres) {
				t.Errorf("cell %d,%d: %d s %d m, routing's table says %d s %d m", i, j, *gotT, *gotD, secs, metres)
			}
			if *gotT != want.duration[i][j] {
				t.Errorf("cell %d,%d: %d s, hand-computed %d s", i, j, *gotT, want.duration[i][j])
			}
			if *gotD != want.distance[i][j] {
				t.Errorf("cell %d,%d: %d m, hand-computed %d m", i, j, *gotD, want.distance[i][j])
			}
		}
	}
}

var (
	roundaboutOnce sync.Once
	roundaboutPath string
	roundaboutErr  string
)

// roundaboutBundle builds (once per test run) the bundle of the
// hand-written fixture routing/testdata/roundabout.osm.
func roundaboutBundle(t *testing.T) string {
	t.Helper()
	roundaboutOnce.Do(func() {
		data := filepath.Join(sharedDir, "roundabout")
		osm := filepath.Join("..", "..", "routing", "testdata", "roundabout.osm")
		var code int
		_, errOut := capture(t, func() { code = run([]string{"build", "--osm", osm, "--out", data}, io.Discard) })
		if code != 0 {
			roundaboutErr = fmt.Sprintf("geosvc build: exit %d\n%s", code, errOut)
			return
		}
		roundaboutPath = data
	})
	if roundaboutErr != "" {
		t.Fatal(roundaboutErr)
	}
	return roundaboutPath
}

// TestOrderFromAHalfClosedConnection: a client that half-closes its
// connection after sending the order (HTTP/1.1 allows it) still gets its
// 200 and uuid, and the job runs.
func TestOrderFromAHalfClosedConnection(t *testing.T) {
	const key = "gs_halfclose_test_key_0123456789abcdef"
	base := inProcessServer(t, roundaboutBundle(t), key)
	body := `{"origin_addresses":["10.002,0.000"],"destination_addresses":["10.004,0.002"]}`
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /tdmv1/order HTTP/1.1\r\nHost: x\r\nx-api-key: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", key, len(body), body)
	if err := conn.(*net.TCPConn).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a struct {
		UUID string `json:"uuid"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil || resp.StatusCode != 200 || a.UUID == "" {
		t.Fatalf("half-closed order: %d %+v %v", resp.StatusCode, a, err)
	}
	var res struct {
		Status string `json:"status"`
	}
	apiCall(t, "POST", base+"/tdmv1/fetch", key, map[string]any{"uuid": a.UUID, "wait": 10}, &res)
	if res.Status != "Finished" {
		t.Errorf("the job: %s", res.Status)
	}
}
