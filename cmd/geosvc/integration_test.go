package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/geosvc/geosvc/internal/testenv"

	"github.com/hibiken/asynq"
	"github.com/paulmach/orb"
	"github.com/redis/go-redis/v9"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/routing"
)

// andorraBound is the extent of the Andorra extract, for a ./data bundle
// built from it.
var andorraBound = orb.Bound{Min: orb.Point{1.41, 42.43}, Max: orb.Point{1.78, 42.65}}

// TestMultiProcessJobSurvivesWorkerKill runs the split deployment on a real
// Redis: `geosvc api` and two `geosvc worker` processes. It orders a
// 800 x 800 job, kills one worker with SIGKILL while the job runs, and
// checks that the job still finishes, within 10 s of the kill, with a matrix
// equal, cell for cell, to routing's table on the same points: the killed
// worker's heartbeat runs out after 3 s and the survivor's janitor enqueues
// its chunk again (asynq alone would wait for its lease, about a minute).
func TestMultiProcessJobSurvivesWorkerKill(t *testing.T) {
	redisURL := os.Getenv("REDIS_URL")
	if redisURL == "" {
		testenv.Skip(t, "REDIS_URL not set: the multi-process test needs a real Redis (.ci/run starts one)")
	}
	if testing.Short() && !testenv.Required() {
		t.Skip("-short: skipping the multi-process test")
	}
	bin := testBinary(t)
	data, bound := testBundle(t)

	g, err := routing.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	const n = 800 // 400 chunks: the job lasts long enough to kill a worker in it
	pts, err := roadPoints(g, bound, 2*n, 42)
	if err != nil {
		t.Fatal(err)
	}
	origins, destinations := make([]string, n), make([]string, n)
	for i := range n {
		origins[i], destinations[i] = lonLat(pts[i]), lonLat(pts[n+i])
	}

	tag := fmt.Sprintf("it%d", time.Now().UnixNano())
	prefix, queueName := "geosvctest:"+tag+":", "tdm-"+tag
	cleanRedis(t, redisURL, prefix, queueName)
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	key, _ := randomKey()
	env := append(os.Environ(),
		"REDIS_URL="+redisURL, "GEOSVC_DATA="+data, "GEOSVC_ADDR="+addr, "GEOSVC_DEMO_KEY="+key,
		"GEOSVC_KEY_PREFIX="+prefix, "GEOSVC_TDM_QUEUE="+queueName, "GEOSVC_QUEUES="+queueName+"=1",
		"GEOSVC_CHUNK_ROWS=2", "GEOSVC_CONCURRENCY=1", "GEOSVC_TDM_MAX_RETRY=3",
	)
	api := startProcess(t, bin, env, "api")
	victim := startProcess(t, bin, env, "worker")
	survivor := startProcess(t, bin, env, "worker")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := waitReady(ctx, "http://"+addr, api.exited); err != nil {
		t.Fatalf("%v\napi log:\n%s", err, api.log())
	}

	client := newTDMClient("http://"+addr, key)
	id, err := client.order(ctx, origins, destinations, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	// Kill the victim as soon as the job makes progress.
	var at tdmStatus
	for {
		code, _, b, err := client.fetch(ctx, id, false)
		if err != nil || code != http.StatusOK {
			t.Fatalf("fetch: %d %.200s %v", code, b, err)
		}
		if at = answerStatus(b); at.Status == "Finished" {
			t.Fatal("the job finished before a worker could be killed; make the chunks smaller")
		}
		if err := json.Unmarshal(b, &at); err == nil && at.Progress.RowsDone > 0 {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	<-victim.exited
	t.Logf("killed a worker at %d of %d rows", at.Progress.RowsDone, at.Progress.RowsTotal)

	f, err := client.waitFinished(ctx, id, 50*time.Millisecond, 0, nil)
	if err != nil {
		t.Fatalf("%v\nsurvivor log:\n%s", err, survivor.log())
	}
	took := time.Since(killed)
	t.Logf("Finished %v after the kill", took.Round(time.Millisecond))
	if took > 10*time.Second {
		t.Errorf("the job took %v after the kill to finish, want at most 10 s\nsurvivor log:\n%s", took, survivor.log())
	}
	res := parseResult(t, f.body)
	if !slices.Equal(res.Origins, origins) || !slices.Equal(res.Dests, destinations) {
		t.Error("addresses not echoed as sent")
	}

	// The oracle: routing's table on the same (parsed) points.
	src := g.SnapAll(routing.Fastest, parsePoints(origins), routing.DefaultSnapRadiusM)
	dst := g.SnapAll(routing.Fastest, parsePoints(destinations), routing.DefaultSnapRadiusM)
	want, err := g.Matrix(context.Background(), routing.Fastest, src, dst)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Duration) != n || len(res.Distance) != n {
		t.Fatalf("result has %d duration and %d distance rows, want %d", len(res.Duration), len(res.Distance), n)
	}
	diffs := 0
	for i := range n {
		for j := range n {
			wd, wm := want.At(i, j)
			if !sameCell(res.Duration[i][j], wd) || !sameCell(res.Distance[i][j], wm) {
				if diffs++; diffs <= 5 {
					t.Errorf("cell (%d, %d): got %v s %v m, routing says %d s %d m", i, j,
						deref(res.Duration[i][j]), deref(res.Distance[i][j]), wd, wm)
				}
			}
		}
	}
	if diffs > 0 {
		t.Errorf("%d of %d cells differ from routing's table", diffs, n*n)
	}
}

// parsePoints reads "lon,lat" addresses.
func parsePoints(addrs []string) []orb.Point {
	out := make([]orb.Point, len(addrs))
	for i, a := range addrs {
		lon, lat, _ := strings.Cut(a, ",")
		out[i][0], _ = strconv.ParseFloat(lon, 64)
		out[i][1], _ = strconv.ParseFloat(lat, 64)
	}
	return out
}

// parseResult decodes a Finished fetch body.
func parseResult(t *testing.T, body []byte) tdmResult {
	t.Helper()
	var res tdmResult
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// sameCell compares a fetched cell with a table cell (null = NoRoute).
func sameCell(got *int, want int32) bool {
	if got == nil {
		return want == routing.NoRoute
	}
	return int32(*got) == want
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// testBundle returns a data bundle and the extent to draw points in: the
// repository's ./data when it is an Andorra bundle of this binary's bundle
// version, else the Delaware bundle the package's tests share.
func testBundle(t *testing.T) (string, orb.Bound) {
	t.Helper()
	if m, err := bundle.Read("../../data"); err == nil && m.BundleVersion == bundle.Version() &&
		strings.Contains(strings.ToLower(m.Source.File), "andorra") {
		return "../../data", andorraBound
	}
	data, err := delawareBundle(t)
	if err != nil {
		t.Fatal(err)
	}
	return data, delawareBound
}

// process is a geosvc subcommand run by the test.
type process struct {
	cmd    *exec.Cmd
	out    *syncBuffer
	exited chan error
}

func (p *process) log() string { return p.out.String() }

// plainServe starts `geosvc serve` on the bundle data with the embedded
// Redis and configuration (nothing of the caller's REDIS_URL or GEOSVC_*
// settings) and a new demo key, plus extra environment, and waits for it
// to be ready. It returns its base URL, the key, the environment it ran
// with (for processes of the caller's own) and the process.
func plainServe(t *testing.T, data string, extra ...string) (base, key string, env []string, p *process) {
	t.Helper()
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	if key, err = randomKey(); err != nil {
		t.Fatal(err)
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "REDIS_URL=") && !strings.HasPrefix(kv, "GEOSVC_") {
			env = append(env, kv)
		}
	}
	env = append(env, extra...)
	p = startProcess(t, testBinary(t), slices.Concat(env, []string{"GEOSVC_DATA=" + data, "GEOSVC_ADDR=" + addr, "GEOSVC_DEMO_KEY=" + key}), "serve")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	base = "http://" + addr
	if err := waitReady(ctx, base, p.exited); err != nil {
		t.Fatalf("%v\nserver log:\n%s", err, p.log())
	}
	return base, key, env, p
}

// startProcess runs bin with args and env; the test's end stops it.
func startProcess(t *testing.T, bin string, env []string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(bin, args...), out: &syncBuffer{}, exited: make(chan error, 1)}
	// Each process's admin listener on a port of its own (the default
	// 127.0.0.1:9090 is taken by the first); env may override it.
	p.cmd.Env = append([]string{"GEOSVC_ADMIN_ADDR=127.0.0.1:0"}, env...)
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		err := p.cmd.Wait()
		p.exited <- err
		close(done)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			p.cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("geosvc %s log:\n%s", strings.Join(args, " "), p.log())
		}
	})
	return p
}

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// cleanRedis removes, when the test ends, the keys under prefix and the
// asynq queue it used: nothing else on the server.
func cleanRedis(t *testing.T, url, prefix, queueName string) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		rdb := redis.NewClient(opt)
		defer rdb.Close()
		ctx := context.Background()
		_ = asynq.NewInspectorFromRedisClient(rdb).DeleteQueue(queueName, true)
		for _, pattern := range []string{prefix + "*", "asynq:{" + queueName + "}:*"} {
			iter := rdb.Scan(ctx, 0, pattern, 1000).Iterator()
			for iter.Next(ctx) {
				rdb.Del(ctx, iter.Val())
			}
		}
	})
}
