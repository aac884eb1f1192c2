package main

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/geosvc/geosvc/internal/testenv"
	"github.com/geosvc/geosvc/routing"
)

// redisServer is a redis-server the test runs itself, with an append-only
// file in dir so that a restart keeps what was written.
type redisServer struct {
	bin, dir, addr string
	proc           *process
}

func startRedis(t *testing.T, rs *redisServer) {
	t.Helper()
	host, port, _ := net.SplitHostPort(rs.addr)
	rs.proc = startProcess(t, rs.bin, nil, "--bind", host, "--port", port, "--dir", rs.dir,
		"--appendonly", "yes", "--appendfsync", "always", "--save", "")
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := net.Dial("tcp", rs.addr); err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server did not start:\n%s", rs.proc.log())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRedisRestartMidJob runs `geosvc api` and two workers on a Redis of
// the test's own (AOF, fsync always), orders three jobs, kills Redis with
// SIGKILL while they run and starts it again on the same files: every
// accepted job must end within 15 s of Redis being back, Finished (or
// Failed with a message), none lost, and a finished matrix equal to
// routing's table. No geosvc process is restarted.
func TestRedisRestartMidJob(t *testing.T) {
	redisBin, err := exec.LookPath("redis-server")
	if err != nil {
		testenv.Skip(t, "redis-server not installed (.ci/run installs it): %v", err)
	}
	if testing.Short() && !testenv.Required() {
		t.Skip("-short: skipping the Redis restart test")
	}
	bin := testBinary(t)
	data, bound := testBundle(t)
	g, err := routing.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	const n = 400
	pts, err := roadPoints(g, bound, 2*n, 7)
	if err != nil {
		t.Fatal(err)
	}
	origins, destinations := make([]string, n), make([]string, n)
	for i := range n {
		origins[i], destinations[i] = lonLat(pts[i]), lonLat(pts[n+i])
	}

	raddr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	rs := &redisServer{bin: redisBin, dir: t.TempDir(), addr: raddr}
	startRedis(t, rs)
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	key, _ := randomKey()
	env := append(os.Environ(),
		"REDIS_URL=redis://"+raddr+"/0", "GEOSVC_DATA="+data, "GEOSVC_ADDR="+addr, "GEOSVC_DEMO_KEY="+key,
		"GEOSVC_CHUNK_ROWS=2", "GEOSVC_CONCURRENCY=1", "GEOSVC_TDM_MAX_RETRY=3",
	)
	api := startProcess(t, bin, env, "api")
	w1 := startProcess(t, bin, env, "worker")
	w2 := startProcess(t, bin, env, "worker")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := waitReady(ctx, "http://"+addr, api.exited); err != nil {
		t.Fatalf("%v\napi log:\n%s", err, api.log())
	}
	client := newTDMClient("http://"+addr, key)
	var ids []string
	for range 3 {
		id, err := client.order(ctx, origins, destinations, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	// Kill Redis once a job has made progress while another has not yet
	// finished (the workers take the jobs' chunks in order, so on a busy
	// machine the first job may finish between two polls).
poll:
	for {
		finished, started := 0, false
		for _, id := range ids {
			code, _, b, err := client.fetch(ctx, id, false)
			if err != nil || code != 200 {
				t.Fatalf("fetch: %d %.200s %v", code, b, err)
			}
			st := answerStatus(b)
			if st.Status == "Finished" {
				finished++
			}
			started = started || st.Progress.RowsDone > 0 || st.Status == "Finished"
		}
		switch {
		case finished == len(ids):
			t.Fatal("every job finished before Redis could be killed")
		case started:
			break poll
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := rs.proc.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-rs.proc.exited
	time.Sleep(time.Second)
	startRedis(t, rs)
	back := time.Now()

	for _, id := range ids {
		f, err := client.waitFinished(ctx, id, 50*time.Millisecond, 0, nil)
		if err != nil {
			t.Fatalf("job %s after the restart: %v\napi log:\n%s\nworker logs:\n%s\n%s", id, err, api.log(), w1.log(), w2.log())
		}
		st := answerStatus(f.body)
		took := time.Since(back)
		t.Logf("job %s %s %v after Redis was back", id, st.Status, took.Round(time.Millisecond))
		if st.Status == "Failed" && !strings.Contains(string(f.body), `"message"`) {
			t.Errorf("job %s Failed without a message: %.300s", id, f.body)
		}
		if took > 15*time.Second {
			t.Errorf("job %s ended %v after Redis was back, want at most 15 s", id, took)
		}
	}
	// The last job's matrix equals routing's table.
	f, _ := client.waitFinished(ctx, ids[2], 50*time.Millisecond, 0, nil)
	if answerStatus(f.body).Status == "Finished" {
		res := parseResult(t, f.body)
		want, err := g.Matrix(ctx, routing.Fastest, g.SnapAll(routing.Fastest, parsePoints(origins), routing.DefaultSnapRadiusM),
			g.SnapAll(routing.Fastest, parsePoints(destinations), routing.DefaultSnapRadiusM))
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			for j := range n {
				wd, wm := want.At(i, j)
				if !sameCell(res.Duration[i][j], wd) || !sameCell(res.Distance[i][j], wm) {
					t.Fatalf("cell (%d, %d) differs from routing's table: %v %v vs %d %d", i, j, deref(res.Duration[i][j]), deref(res.Distance[i][j]), wd, wm)
				}
			}
		}
	}
}
