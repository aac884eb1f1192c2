package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/geosvc/geosvc/routing"
)

const benchDescription = `Measures the matrix service end to end, as a client sees it: draws random
road points on the data bundle (seeded), orders an N x N job (both
matrices), polls fetch until it is Finished, then fetches the result plain
and gzip-compressed. Reports the order latency, order -> Finished, the fetch
times and body sizes, and with --concurrent K the throughput of K jobs at
once in cells/s and the server's peak RSS. Prints Markdown tables ready for
BENCHMARKS.md.

Without --url it starts ` + "`geosvc serve`" + ` itself (on a free loopback port, with
the embedded Redis unless REDIS_URL is set). With --url and --key it
benchmarks a running deployment, e.g. ` + "`geosvc api`" + ` + N ` + "`geosvc worker`" + `; pass
--rss-pids to report their peak RSS.`

// benchConfig is the parsed bench command line.
type benchConfig struct {
	url, key, data, bbox, metric, serverLog string
	n, runs, concurrent                     int
	seed                                    uint64
	poll, timeout                           time.Duration
	rssPIDs                                 []int
}

func runBench(args []string) error {
	fs := newFlagSet("bench", "bench [flags]", benchDescription)
	var c benchConfig
	fs.StringVar(&c.url, "url", "", "base URL of a running server (default: start `geosvc serve`)")
	fs.StringVar(&c.key, "key", os.Getenv("GEOSVC_DEMO_KEY"), "API key for --url (env GEOSVC_DEMO_KEY)")
	fs.StringVar(&c.data, "data", envOr("GEOSVC_DATA", "data"), "data bundle directory: points are drawn on its roads, and a started server loads it (env GEOSVC_DATA)")
	fs.StringVar(&c.bbox, "bbox", "", "minlon,minlat,maxlon,maxlat to draw points in (default: the data's extent, else Delaware's)")
	fs.StringVar(&c.metric, "routing", "fastest", "routing of the orders: fastest or shortest")
	fs.StringVar(&c.serverLog, "server-log", "", "file for the started server's log (default: discarded)")
	fs.IntVar(&c.n, "n", 1000, "origins and destinations per job")
	fs.IntVar(&c.runs, "runs", 3, "sequential single-job runs (the first and the best are reported)")
	fs.IntVar(&c.concurrent, "concurrent", 0, "then run this many jobs at once (e.g. 10); 0 skips")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the random points")
	fs.DurationVar(&c.poll, "poll", 20*time.Millisecond, "fetch polling interval")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Minute, "give up after this long")
	pids := fs.String("rss-pids", "", "with --url: comma-separated process ids whose peak RSS to report")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 || c.n < 1 || c.runs < 1 || c.concurrent < 0 || c.poll <= 0 {
		fs.Usage()
		return errUsage
	}
	if _, err := routing.ParseMetric(c.metric); err != nil {
		return err
	}
	for p := range strings.SplitSeq(*pids, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		pid, err := strconv.Atoi(p)
		if err != nil {
			return fmt.Errorf("--rss-pids: %q is not a process id", p)
		}
		c.rssPIDs = append(c.rssPIDs, pid)
	}
	if c.url != "" && c.key == "" {
		return fmt.Errorf("--url needs --key (or GEOSVC_DEMO_KEY)")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	return bench(ctx, c, os.Stdout)
}

// envOr returns the environment variable name, or def when it is empty.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// bench runs the benchmark and prints its report to out.
func bench(ctx context.Context, c benchConfig, out io.Writer) error {
	g, err := routing.Load(filepath.Join(c.data, routing.FileName))
	if err != nil {
		return err
	}
	b := graphBound(g, delawareBound)
	if c.bbox != "" {
		if b, err = parseBound(c.bbox); err != nil {
			return err
		}
	}
	jobs := max(1, c.concurrent)
	points := make([][2][]string, jobs) // per job: origins, destinations
	for k := range points {
		pts, err := roadPoints(g, b, 2*c.n, c.seed+uint64(k))
		if err != nil {
			return err
		}
		for i, p := range pts {
			points[k][i/c.n] = append(points[k][i/c.n], lonLat(p))
		}
	}
	meta := g.Meta()
	g = nil // the server holds its own copy
	runtime.GC()

	client := newTDMClient(c.url, c.key)
	server := "the server at " + c.url
	pids := c.rssPIDs
	if c.url == "" {
		logOut := io.Discard
		if c.serverLog != "" {
			f, err := os.Create(c.serverLog)
			if err != nil {
				return err
			}
			defer f.Close()
			logOut = f
		}
		s, err := startServe(ctx, c.data, logOut)
		if err != nil {
			return err
		}
		defer s.stop()
		client = newTDMClient(s.url, s.key)
		pids = []int{s.cmd.Process.Pid}
		server = "`geosvc serve`, embedded Redis"
		if os.Getenv("REDIS_URL") != "" {
			server = "`geosvc serve`, Redis at REDIS_URL"
		}
	}

	fmt.Fprintf(out, "## geosvc bench: %d x %d, routing %s\n\n", c.n, c.n, c.metric)
	fmt.Fprintf(out, "Data %s (%d nodes, %d edges); %s; client polls every %v; %d CPUs; %s.\n\n",
		filepath.Base(meta.Source), meta.Nodes, meta.Edges, server, c.poll, runtime.NumCPU(), time.Now().Format("2006-01-02"))

	var runs []singleRun
	for r := range c.runs {
		run, err := benchSingle(ctx, client, points[0][0], points[0][1], c, r == 0)
		if err != nil {
			return fmt.Errorf("run %d: %w", r+1, err)
		}
		runs = append(runs, run)
	}
	writeSingleTable(out, runs)

	if c.concurrent > 0 {
		cr, err := benchConcurrent(ctx, client, points, c)
		if err != nil {
			return fmt.Errorf("concurrent: %w", err)
		}
		fmt.Fprintln(out)
		writeConcurrentTable(out, cr, c)
	}
	if len(pids) > 0 {
		fmt.Fprintln(out)
		fmt.Fprintf(out, "| process | peak RSS |\n|---|---:|\n")
		var total int64
		for _, pid := range pids {
			rss, err := peakRSS(pid)
			if err != nil {
				fmt.Fprintf(out, "| pid %d | unknown (%v) |\n", pid, err)
				continue
			}
			total += rss
			fmt.Fprintf(out, "| pid %d | %s |\n", pid, mib(rss))
		}
		if len(pids) > 1 {
			fmt.Fprintf(out, "| all | %s |\n", mib(total))
		}
		if c.concurrent > 0 {
			fmt.Fprintf(out, "\nTarget: peak RSS <= 1.5 GB with 10 concurrent 1000 x 1000 jobs.\n")
		}
	}
	return nil
}

// singleRun is the measurement of one job.
type singleRun struct {
	order, finished, inHand   time.Duration // from the order's start
	fetchPlain, fetchGzip     time.Duration
	sizePlain, sizeGzip       int
	rows, cols, nullDurations int
}

// benchSingle orders one job, waits for it and fetches it both ways.
func benchSingle(ctx context.Context, client *tdmClient, origins, destinations []string, c benchConfig, check bool) (singleRun, error) {
	var r singleRun
	start := time.Now()
	id, err := client.order(ctx, origins, destinations, nil, c.metric)
	if err != nil {
		return r, err
	}
	r.order = time.Since(start)
	f, err := client.waitFinished(ctx, id, c.poll)
	if err != nil {
		return r, err
	}
	r.finished, r.inHand = f.headers.Sub(start), f.done.Sub(start)
	if check {
		var res tdmResult
		if err := json.Unmarshal(f.body, &res); err != nil {
			return r, fmt.Errorf("finished body: %w", err)
		}
		r.rows, r.cols = len(res.Duration), 0
		if r.rows > 0 {
			r.cols = len(res.Duration[0])
		}
		if r.rows != len(origins) || r.cols != len(destinations) || len(res.Distance) != r.rows || res.Snapping == nil {
			return r, fmt.Errorf("finished body has %d x %d durations, %d distance rows; want %d x %d",
				r.rows, r.cols, len(res.Distance), len(origins), len(destinations))
		}
		for _, row := range res.Duration {
			for _, v := range row {
				if v == nil {
					r.nullDurations++
				}
			}
		}
	}
	for _, gz := range []bool{false, true} {
		t := time.Now()
		code, _, body, err := client.fetch(ctx, id, gz)
		if err != nil {
			return r, err
		}
		if code != 200 {
			return r, fmt.Errorf("fetch: %d %.200s", code, body)
		}
		if gz {
			r.fetchGzip, r.sizeGzip = time.Since(t), len(body)
		} else {
			r.fetchPlain, r.sizePlain = time.Since(t), len(body)
		}
	}
	return r, nil
}

// concurrentRun is the measurement of K jobs at once.
type concurrentRun struct {
	jobs      int
	wall      time.Duration // first order to last result in hand
	finished  []time.Duration
	orderSlow time.Duration // slowest order answer
}

// benchConcurrent orders one job per point set at once and waits for all.
func benchConcurrent(ctx context.Context, client *tdmClient, points [][2][]string, c benchConfig) (concurrentRun, error) {
	cr := concurrentRun{jobs: len(points), finished: make([]time.Duration, len(points))}
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for k, p := range points {
		wg.Go(func() {
			t := time.Now()
			id, err := client.order(ctx, p[0], p[1], nil, c.metric)
			if err == nil {
				mu.Lock()
				cr.orderSlow = max(cr.orderSlow, time.Since(t))
				mu.Unlock()
				var f finished
				if f, err = client.waitFinished(ctx, id, c.poll); err == nil {
					cr.finished[k] = f.done.Sub(start)
				}
			}
			if err != nil {
				mu.Lock()
				firstErr = cmpOr(firstErr, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return cr, firstErr
	}
	cr.wall = slices.Max(cr.finished)
	return cr, nil
}

// cmpOr returns a unless it is nil, else b.
func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// writeSingleTable prints the single-job table: the first run and the
// best of the runs.
func writeSingleTable(out io.Writer, runs []singleRun) {
	first := runs[0]
	best := func(f func(singleRun) time.Duration) time.Duration {
		m := f(runs[0])
		for _, r := range runs[1:] {
			m = min(m, f(r))
		}
		return m
	}
	fmt.Fprintf(out, "| measure | first run | best of %d | target |\n|---|---:|---:|---|\n", len(runs))
	row := func(name string, f func(singleRun) time.Duration, target string) {
		fmt.Fprintf(out, "| %s | %s | %s | %s |\n", name, ms(f(first)), ms(best(f)), target)
	}
	row("order accepted", func(r singleRun) time.Duration { return r.order }, "<= 50 ms")
	row("order -> Finished (answer headers)", func(r singleRun) time.Duration { return r.finished }, "<= 400 ms")
	row("fetch of the finished job, plain", func(r singleRun) time.Duration { return r.fetchPlain }, "<= 250 ms")
	row("fetch of the finished job, gzip", func(r singleRun) time.Duration { return r.fetchGzip }, "")
	row("order -> result in hand (order + wait + fetch)", func(r singleRun) time.Duration { return r.inHand }, "OSRM /table: 470-520 ms")
	fmt.Fprintf(out, "| body size, plain | %s | | |\n", mib(int64(first.sizePlain)))
	fmt.Fprintf(out, "| body size, gzip | %s | | |\n", mib(int64(first.sizeGzip)))
	if first.rows > 0 {
		fmt.Fprintf(out, "\nChecked: %d x %d matrices, %d null durations (%.2f %%).\n",
			first.rows, first.cols, first.nullDurations, 100*float64(first.nullDurations)/float64(first.rows*first.cols))
	}
}

// writeConcurrentTable prints the concurrent-jobs table.
func writeConcurrentTable(out io.Writer, cr concurrentRun, c benchConfig) {
	cells := float64(cr.jobs) * float64(c.n) * float64(c.n)
	sorted := slices.Clone(cr.finished)
	slices.Sort(sorted)
	fmt.Fprintf(out, "| %d concurrent %d x %d jobs | value |\n|---|---:|\n", cr.jobs, c.n, c.n)
	fmt.Fprintf(out, "| slowest order answer | %s |\n", ms(cr.orderSlow))
	fmt.Fprintf(out, "| first job's result in hand | %s |\n", ms(sorted[0]))
	fmt.Fprintf(out, "| all results in hand | %s |\n", ms(cr.wall))
	fmt.Fprintf(out, "| throughput | %.2f M cells/s |\n", cells/cr.wall.Seconds()/1e6)
}

// ms formats d in milliseconds.
func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
}

// mib formats a byte count in MiB.
func mib(n int64) string {
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}
