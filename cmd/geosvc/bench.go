package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/routing"
)

const benchDescription = `Measures the matrix service end to end, as a client sees it: draws random
road points on the data bundle (seeded), orders an N x N job (both
matrices), fetches it with the long-poll wait (or polls, --wait 0) until it
is Finished, then fetches the result plain and gzip-compressed. Reports the
order latency, order -> Finished, order -> result in hand (median, first and
best of --runs), the fetch times and body sizes, and with --concurrent K the
throughput of K jobs at once in cells/s (with --batches B, the median,
worst and best of B batches run one after the other) and the server's
peak RSS. The first
run's matrices are checked: rows spot-checked against routing's own table on
the same data. Above 1000 locations the result is read as
application/x-ndjson, line by line, and a started server gets
--max-locations N. Prints Markdown tables ready for BENCHMARKS.md.

Without --url it starts ` + "`geosvc serve`" + ` itself (on a free loopback port, with
the embedded Redis unless REDIS_URL is set). With --url and --key it
benchmarks a running deployment, e.g. ` + "`geosvc api`" + ` + N ` + "`geosvc worker`" + `; pass
--rss-pids to report their peak RSS.`

// bench runs the benchmark and prints its report to out.
func bench(ctx context.Context, c benchConfig, out io.Writer) error {
	g, err := routing.Load(bundle.GraphDir(c.data, c.graphProfile()))
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
	if c.pointsOut != "" {
		if err := writePoints(c.pointsOut, points[0][0], points[0][1]); err != nil {
			return err
		}
	}
	meta := g.Meta()
	spec, _ := c.spec()
	c.ndjson = c.ndjson || c.n > 1000
	originOpts, destOpts, extra := c.pointOptions()
	checkSpec, departure, err := c.departureSpec(g, spec, points[0][0][0])
	if err != nil {
		return err
	}
	if c.departure != "" {
		if extra == nil {
			extra = map[string]any{}
		}
		extra["departure_time"] = c.departure
	}
	check, err := newSpotCheck(g, checkSpec, points[0][0], points[0][1], originOpts, destOpts)
	if err != nil {
		return err
	}
	runtime.GC()

	client := c.client(c.url, c.key)
	client.extra = extra
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
		var args []string
		if c.n > 1000 {
			// Orders above the specification's limit, and their bodies.
			args = append(args, "--max-locations", strconv.Itoa(c.n), "--body-limit", strconv.Itoa(64*c.n+(1<<20)))
		}
		s, err := startServe(ctx, c.data, logOut, append(args, c.serverArgs...)...)
		if err != nil {
			return err
		}
		defer s.stop()
		client = c.client(s.url, s.key)
		client.extra = extra
		pids = []int{s.cmd.Process.Pid}
		server = "`geosvc serve`, embedded Redis"
		if os.Getenv("REDIS_URL") != "" {
			server = "`geosvc serve`, Redis at REDIS_URL"
		}
		if len(c.serverArgs) > 0 {
			server += " (" + strings.Join(c.serverArgs, " ") + ")"
		}
	}

	fmt.Fprintf(out, "## geosvc bench: %d x %d, routing %s%s%s%s\n\n", c.n, c.n, c.metric, c.profileTitle(spec), c.optionsTitle(), departure)
	how := fmt.Sprintf("fetch waits up to %d s for the job to end", c.wait)
	if c.wait == 0 {
		how = fmt.Sprintf("client polls every %v", c.poll)
	}
	if c.ndjson {
		how += ", result read as application/x-ndjson line by line"
	}
	fmt.Fprintf(out, "Data %s (%d nodes, %d edges); %s; %s; %d CPUs; %s.\n\n",
		filepath.Base(meta.Source), meta.Nodes, meta.Edges, server, how, runtime.NumCPU(), time.Now().Format("2006-01-02"))

	var runs []singleRun
	for r := range c.runs {
		var ck *spotCheck
		if r == 0 {
			ck = check
		}
		run, err := benchSingle(ctx, client, points[0][0], points[0][1], c, ck)
		if err != nil {
			return fmt.Errorf("run %d: %w", r+1, err)
		}
		runs = append(runs, run)
	}
	writeSingleTable(out, runs, c.n)
	fmt.Fprintf(out, "\nChecked (first run): %d x %d matrices, %d null durations (%.2f %%); rows %v equal routing's table.\n",
		c.n, c.n, check.nulls, 100*float64(check.nulls)/float64(c.n*c.n), check.rowList())
	check = nil
	g = nil // the server holds its own copy
	runtime.GC()

	if c.concurrent > 0 {
		var crs []concurrentRun
		for b := range c.batches {
			cr, err := benchConcurrent(ctx, client, points, c)
			if err != nil {
				return fmt.Errorf("concurrent batch %d: %w", b+1, err)
			}
			crs = append(crs, cr)
		}
		fmt.Fprintln(out)
		writeConcurrentTable(out, crs, c)
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
	order, finished, inHand time.Duration // from the order's start
	fetchPlain, fetchGzip   time.Duration
	sizePlain, sizeGzip     int64
}

// benchSingle orders one job, waits for it and fetches it both ways; with
// check it checks the result read while waiting.
func benchSingle(ctx context.Context, client *tdmClient, origins, destinations []string, c benchConfig, check *spotCheck) (singleRun, error) {
	var r singleRun
	start := time.Now()
	id, err := client.order(ctx, origins, destinations, nil, c.metric)
	if err != nil {
		return r, err
	}
	r.order = time.Since(start)
	var rows func(resultRow) error
	if c.ndjson {
		rows = func(resultRow) error { return nil }
		if check != nil {
			rows = check.row
		}
	}
	f, err := client.waitFinished(ctx, id, c.poll, c.wait, rows)
	if err != nil {
		return r, err
	}
	r.finished, r.inHand = f.headers.Sub(start), f.done.Sub(start)
	if check != nil {
		if !c.ndjson {
			if err := check.body(f.body); err != nil {
				return r, err
			}
		}
		if err := check.done(); err != nil {
			return r, err
		}
	}
	for _, gz := range []bool{false, true} {
		t := time.Now()
		code, size, err := client.fetchSize(ctx, id, gz)
		if err != nil {
			return r, err
		}
		if code != 200 {
			return r, fmt.Errorf("fetch: %d", code)
		}
		if gz {
			r.fetchGzip, r.sizeGzip = time.Since(t), size
		} else {
			r.fetchPlain, r.sizePlain = time.Since(t), size
		}
	}
	return r, nil
}

// spotCheck checks a result's rows as they arrive: every row of both
// matrices is present with one cell per destination, nulls are counted,
// and a few rows are compared with routing's own table on the same graph.
type spotCheck struct {
	rows, cols int
	want       map[int]int // result row -> row of table
	table      routing.Table
	seen       int
	nulls      int
}

// newSpotCheck prepares the check of an origins x destinations result:
// the first, middle and last rows and two more are computed on g, the
// points snapped with their options (nil: none).
func newSpotCheck(g *routing.Graph, spec routing.Metric, origins, destinations []string, originOpts, destOpts []routing.SnapOptions) (*spotCheck, error) {
	n := len(origins)
	c := &spotCheck{rows: n, cols: len(destinations), want: map[int]int{}}
	var pts []orb.Point
	var opts []routing.SnapOptions
	for _, i := range []int{0, n / 7, n / 2, 5 * n / 7, n - 1} {
		if _, ok := c.want[i]; !ok {
			c.want[i] = len(pts)
			pts = append(pts, parseLonLat(origins[i]))
			if originOpts != nil {
				opts = append(opts, originOpts[i])
			}
		}
	}
	dst := make([]orb.Point, len(destinations))
	for i, d := range destinations {
		dst[i] = parseLonLat(d)
	}
	var err error
	c.table, err = g.Matrix(context.Background(), spec,
		g.SnapAllWith(spec, pts, routing.DefaultSnapRadiusM, opts), g.SnapAllWith(spec, dst, routing.DefaultSnapRadiusM, destOpts))
	return c, err
}

// parseLonLat reads a "lon,lat" the bench wrote.
func parseLonLat(s string) orb.Point {
	lon, lat, _ := strings.Cut(s, ",")
	x, _ := strconv.ParseFloat(lon, 64)
	y, _ := strconv.ParseFloat(lat, 64)
	return orb.Point{x, y}
}

// row checks one result row.
func (c *spotCheck) row(r resultRow) error {
	if r.Row != c.seen || len(r.Duration) != c.cols || len(r.Distance) != c.cols {
		return fmt.Errorf("row %d (expected %d): %d durations, %d distances; want %d", r.Row, c.seen, len(r.Duration), len(r.Distance), c.cols)
	}
	c.seen++
	for _, v := range r.Duration {
		if v == nil {
			c.nulls++
		}
	}
	k, ok := c.want[r.Row]
	if !ok {
		return nil
	}
	for j := range c.cols {
		secs, metres := c.table.At(k, j)
		if !sameTableCell(r.Duration[j], secs) || !sameTableCell(r.Distance[j], metres) {
			return fmt.Errorf("cell %d,%d: %v s %v m; routing's table says %d s %d m", r.Row, j, r.Duration[j], r.Distance[j], secs, metres)
		}
	}
	return nil
}

// body checks a whole plain JSON result.
func (c *spotCheck) body(b []byte) error {
	var res tdmResult
	if err := json.Unmarshal(b, &res); err != nil {
		return fmt.Errorf("finished body: %w", err)
	}
	if len(res.Duration) != c.rows || len(res.Distance) != c.rows || res.Snapping == nil {
		return fmt.Errorf("finished body has %d duration, %d distance rows; want %d", len(res.Duration), len(res.Distance), c.rows)
	}
	for i := range res.Duration {
		if err := c.row(resultRow{Row: i, Duration: res.Duration[i], Distance: res.Distance[i]}); err != nil {
			return err
		}
	}
	return nil
}

// done checks that every row came.
func (c *spotCheck) done() error {
	if c.seen != c.rows {
		return fmt.Errorf("%d result rows, want %d", c.seen, c.rows)
	}
	return nil
}

// rowList lists the rows compared with routing's table.
func (c *spotCheck) rowList() []int {
	return slices.Sorted(maps.Keys(c.want))
}

// sameTableCell compares a result cell with a table cell (null = NoRoute).
func sameTableCell(got *int, want int32) bool {
	if got == nil {
		return want == routing.NoRoute
	}
	return int32(*got) == want
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
				var rows func(resultRow) error
				if c.ndjson {
					rows = func(resultRow) error { return nil }
				}
				if f, err = client.waitFinished(ctx, id, c.poll, c.wait, rows); err == nil {
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

// writeSingleTable prints the single-job table: the median, first and
// best of the runs, with the targets for n x n.
func writeSingleTable(out io.Writer, runs []singleRun, n int) {
	first := runs[0]
	pick := func(f func(singleRun) time.Duration) (median, best time.Duration) {
		v := make([]time.Duration, len(runs))
		for i, r := range runs {
			v[i] = f(r)
		}
		slices.Sort(v)
		median = v[len(v)/2]
		if len(v)%2 == 0 {
			median = (v[len(v)/2-1] + v[len(v)/2]) / 2
		}
		return median, v[0]
	}
	fmt.Fprintf(out, "| measure | median of %d | first run | best | target |\n|---|---:|---:|---:|---|\n", len(runs))
	row := func(name string, f func(singleRun) time.Duration, target string) {
		med, best := pick(f)
		fmt.Fprintf(out, "| %s | %s | %s | %s | %s |\n", name, ms(med), ms(f(first)), ms(best), target)
	}
	inHand := map[int]string{10: "<= 3 ms (OSRM /table: 1.8 ms)", 100: "<= 10 ms (OSRM: 16 ms)", 1000: "<= 90 ms (OSRM: 435 ms)"}[n]
	row("order accepted", func(r singleRun) time.Duration { return r.order }, "<= 50 ms")
	row("order -> Finished (answer headers)", func(r singleRun) time.Duration { return r.finished }, "<= 400 ms")
	row("order -> result in hand (order + fetch, both matrices)", func(r singleRun) time.Duration { return r.inHand }, inHand)
	row("fetch of the finished job, plain", func(r singleRun) time.Duration { return r.fetchPlain }, "")
	row("fetch of the finished job, gzip", func(r singleRun) time.Duration { return r.fetchGzip }, "")
	fmt.Fprintf(out, "| body size, plain | %s | | | |\n", mib(first.sizePlain))
	fmt.Fprintf(out, "| body size, gzip | %s | | | |\n", mib(first.sizeGzip))
}

// writeConcurrentTable prints the concurrent-jobs table of one or more
// batches: each measure's median over the batches, then its worst and
// best when there are several.
func writeConcurrentTable(out io.Writer, crs []concurrentRun, c benchConfig) {
	cells := float64(crs[0].jobs) * float64(c.n) * float64(c.n)
	type measure struct {
		name string
		v    func(concurrentRun) float64 // larger is worse
		f    func(float64) string
	}
	inMS := func(v float64) string { return ms(time.Duration(v)) }
	measures := []measure{
		{"slowest order answer", func(cr concurrentRun) float64 { return float64(cr.orderSlow) }, inMS},
		{"first job's result in hand", func(cr concurrentRun) float64 { return float64(slices.Min(cr.finished)) }, inMS},
		{"all results in hand", func(cr concurrentRun) float64 { return float64(cr.wall) }, inMS},
		{"throughput", func(cr concurrentRun) float64 { return -cells / cr.wall.Seconds() / 1e6 }, func(v float64) string {
			return strconv.FormatFloat(-v, 'f', 2, 64) + " M cells/s"
		}},
	}
	title := fmt.Sprintf("%d concurrent %d x %d jobs", crs[0].jobs, c.n, c.n)
	if len(crs) == 1 {
		fmt.Fprintf(out, "| %s | value |\n|---|---:|\n", title)
	} else {
		fmt.Fprintf(out, "| %s, %d batches | median | worst | best |\n|---|---:|---:|---:|\n", title, len(crs))
	}
	for _, m := range measures {
		v := make([]float64, len(crs))
		for i, cr := range crs {
			v[i] = m.v(cr)
		}
		slices.Sort(v)
		med := v[len(v)/2]
		if len(v)%2 == 0 {
			med = (v[len(v)/2-1] + v[len(v)/2]) / 2
		}
		if len(crs) == 1 {
			fmt.Fprintf(out, "| %s | %s |\n", m.name, m.f(med))
			continue
		}
		fmt.Fprintf(out, "| %s | %s | %s | %s |\n", m.name, m.f(med), m.f(v[len(v)-1]), m.f(v[0]))
	}
}

// ms formats d in milliseconds.
func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
}

// mib formats a byte count in MiB.
func mib(n int64) string {
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}
