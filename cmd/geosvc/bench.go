package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
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

// benchConfig is the parsed bench command line.
type benchConfig struct {
	url, key, data, bbox, metric, serverLog string
	pointsOut                               string // --points-out: the first job's points
	speeds                                  string // "Type:kmh,..." as routev1 takes them
	newSpeeds                               bool
	radius, bearingRange                    float64 // per-point snapping options; 0 and -1: none
	avoidPolygons                           string  // --avoid-polygons: a GeoJSON file
	profile                                 string  // --profile: car, bicycle or foot
	serverArgs                              []string
	n, runs, concurrent, batches, wait      int
	ndjson                                  bool
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
	fs.StringVar(&c.speeds, "speeds", "", "custom speeds of the orders, Type:kmh,... (e.g. Motorway:80,LocalRoadCity:25): a customized metric")
	fs.BoolVar(&c.newSpeeds, "new-speeds", false, "with --speeds: the k-th order adds k/2 km/h to each speed, a metric never customized before")
	fs.Float64Var(&c.radius, "radius", 0, "give every point of the orders this snapping radius in metres (origin_radiuses, destination_radiuses); 0: none")
	fs.Float64Var(&c.bearingRange, "bearing-range", -1, "give every point of the orders a bearing [value, this range] (origin_bearings, destination_bearings), the value drawn at random (seeded); -1: none")
	fs.StringVar(&c.avoidPolygons, "avoid-polygons", "", "GeoJSON file of a Polygon or MultiPolygon the orders avoid (avoid_polygons): a customized metric")
	fs.StringVar(&c.profile, "profile", "car", "routing profile of the orders (car, bicycle, foot): its graph must be in the bundle (geosvc build --profiles)")
	fs.StringVar(&c.serverLog, "server-log", "", "file for the started server's log (default: discarded)")
	fs.IntVar(&c.n, "n", 1000, "origins and destinations per job")
	fs.IntVar(&c.runs, "runs", 3, "sequential single-job runs (the first and the best are reported)")
	fs.IntVar(&c.concurrent, "concurrent", 0, "then run this many jobs at once (e.g. 10); 0 skips")
	fs.IntVar(&c.batches, "batches", 1, "with --concurrent: run the jobs at once this many times, one batch after the other (the median, worst and best throughput are reported)")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the random points")
	fs.StringVar(&c.pointsOut, "points-out", "", "write the first N x N job's points to this file, one \"lon,lat\" line each (6 decimals): the N origins, then the N destinations, e.g. for scripts/osrm-table.sh")
	fs.DurationVar(&c.poll, "poll", 20*time.Millisecond, "fetch polling interval with --wait 0")
	fs.IntVar(&c.wait, "wait", 30, "seconds each fetch may wait for the job to end (the long-poll extension); 0 polls every --poll")
	fs.BoolVar(&c.ndjson, "ndjson", false, "read results as application/x-ndjson (always above 1000 locations)")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Minute, "give up after this long")
	serverArgs := fs.String("server-args", "", "extra flags of the started `geosvc serve`, space-separated (e.g. \"--inline-cells 0\")")
	pids := fs.String("rss-pids", "", "with --url: comma-separated process ids whose peak RSS to report")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 || c.radius < 0 || c.radius > routing.MaxSnapRadiusM || c.bearingRange > 180 || c.n < 1 || c.runs < 1 || c.concurrent < 0 || c.batches < 1 || c.poll <= 0 || c.wait < 0 || c.wait > 30 {
		fs.Usage()
		return errUsage
	}
	switch strings.ToLower(strings.TrimSpace(c.metric)) {
	case "", "fastest", "shortest":
	default:
		return fmt.Errorf("unknown routing metric %q (want fastest or shortest)", c.metric)
	}
	if _, err := c.spec(); err != nil {
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
	c.serverArgs = strings.Fields(*serverArgs)
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
	g, err := routing.Load(bundle.GraphDir(c.data, c.profile))
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
	check, err := newSpotCheck(g, spec, points[0][0], points[0][1], originOpts, destOpts)
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

	fmt.Fprintf(out, "## geosvc bench: %d x %d, routing %s%s\n\n", c.n, c.n, c.metric, c.optionsTitle())
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

// pointOptions returns the per-point snapping options of --radius and
// --bearing-range for the origins and the destinations (nil without
// them) and the order fields that ask for them.
func (c benchConfig) pointOptions() (origins, dests []routing.SnapOptions, fields map[string]any) {
	if c.radius <= 0 && c.bearingRange < 0 {
		return nil, nil, nil
	}
	rng := rand.New(rand.NewPCG(c.seed, 2))
	fields = map[string]any{}
	side := func(name string) []routing.SnapOptions {
		opts := make([]routing.SnapOptions, c.n)
		var radiuses []float64
		var bearings [][2]float64
		for i := range opts {
			if c.radius > 0 {
				opts[i].RadiusM = c.radius
				radiuses = append(radiuses, c.radius)
			}
			if c.bearingRange >= 0 {
				v := float64(rng.IntN(360))
				opts[i].HasBearing, opts[i].BearingDeg, opts[i].RangeDeg = true, v, c.bearingRange
				bearings = append(bearings, [2]float64{v, c.bearingRange})
			}
		}
		if radiuses != nil {
			fields[name+"_radiuses"] = radiuses
		}
		if bearings != nil {
			fields[name+"_bearings"] = bearings
		}
		return opts
	}
	return side("origin"), side("destination"), fields
}

// optionsTitle names the per-point options of the orders for the report's
// title ("" without any).
func (c benchConfig) optionsTitle() string {
	var parts []string
	if c.radius > 0 {
		parts = append(parts, fmt.Sprintf("radius %g m", c.radius))
	}
	if c.bearingRange >= 0 {
		parts = append(parts, fmt.Sprintf("bearing ± %g°", c.bearingRange))
	}
	if parts == nil {
		return ""
	}
	return ", every point with " + strings.Join(parts, " and ")
}

// spec returns the routing spec of the orders: --routing with --speeds
// and --avoid-polygons.
func (c benchConfig) spec() (routing.Metric, error) {
	key := c.metric
	if c.speeds != "" {
		key += ";speeds=" + c.speeds
	}
	spec, err := routing.ParseMetric(key)
	if err != nil {
		return spec, fmt.Errorf("--routing %q --speeds %q: %w", c.metric, c.speeds, err)
	}
	if c.avoidPolygons != "" {
		b, err := os.ReadFile(c.avoidPolygons)
		if err != nil {
			return spec, fmt.Errorf("--avoid-polygons: %w", err)
		}
		if spec.Areas, err = routing.ParseAreas(b); err != nil {
			return spec, fmt.Errorf("--avoid-polygons %s: %w", c.avoidPolygons, err)
		}
	}
	return spec, nil
}

// client returns a matrix client of base that orders with the speeds of
// --speeds (--new-speeds: a new metric per order).
func (c benchConfig) client(base, key string) *tdmClient {
	cl := newTDMClient(base, key)
	if c.speeds != "" {
		cl.speeds = map[string]float64{}
		for item := range strings.SplitSeq(c.speeds, ",") {
			t, v, _ := strings.Cut(item, ":")
			kmh, _ := strconv.ParseFloat(v, 64) // checked by spec
			cl.speeds[strings.TrimSpace(t)] = kmh
		}
		cl.newSpeeds = c.newSpeeds
	}
	if spec, err := c.spec(); err == nil && !spec.Areas.IsZero() {
		cl.avoidPolygons = spec.Areas.MultiPolygon()
	}
	cl.profile = c.profile
	return cl
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
