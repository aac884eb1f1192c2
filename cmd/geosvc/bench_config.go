package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/routing"
)

// benchConfig is the parsed bench command line.
type benchConfig struct {
	url, key, data, bbox, metric, serverLog string
	pointsOut                               string // --points-out: the first job's points
	speeds                                  string // "Type:kmh,..." as routev1 takes them
	newSpeeds                               bool
	radius, bearingRange                    float64 // per-point snapping options; 0 and -1: none
	avoidPolygons                           string  // --avoid-polygons: a GeoJSON file
	profile, vehicle                        string  // --profile, --vehicle ("height_m:4.5,...")
	newVehicle                              bool
	departure                               string // --departure: every order's departure_time
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
	fs.StringVar(&c.profile, "profile", "car", "profile of the orders: car, truck, bicycle or foot (bicycle and foot: their graph must be in the bundle, geosvc build --profiles)")
	fs.StringVar(&c.vehicle, "vehicle", "", "with --profile truck: the vehicle, field:value,... as routev1 takes it (e.g. height_m:4.5,weight_t:40,hazmat:true); missing fields take the truck profile's defaults")
	fs.BoolVar(&c.newVehicle, "new-vehicle", false, "with --profile truck: the k-th order's vehicle is k x 10 kg lighter, a metric never customized before")
	fs.StringVar(&c.departure, "departure", "", "departure_time of every order (RFC 3339 or now): the speed bucket of its hour; give the started server speed data with --server-args \"--speeds-watch FILE\" (docs/routing.md, Departure times)")
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

// spec returns the routing spec of the orders: --routing with --speeds,
// --profile, --vehicle and --avoid-polygons.
func (c benchConfig) spec() (routing.Metric, error) {
	key := c.metric
	if c.speeds != "" {
		key += ";speeds=" + c.speeds
	}
	spec, err := routing.ParseMetric(key)
	if err != nil {
		return spec, fmt.Errorf("--routing %q --speeds %q: %w", c.metric, c.speeds, err)
	}
	p := routing.ProfileCar
	if g := c.graphProfile(); g == bundle.ProfileCar {
		if p, err = routing.ParseProfile(c.profile); err != nil {
			return spec, fmt.Errorf("--profile %q: want car, truck, bicycle or foot", c.profile)
		}
	}
	spec.SetProfile(p)
	if (c.vehicle != "" || c.newVehicle) && p != routing.ProfileTruck {
		return spec, fmt.Errorf("--vehicle and --new-vehicle are for --profile truck")
	}
	for kv := range strings.SplitSeq(c.vehicle, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		name, val, _ := strings.Cut(kv, ":")
		if err := spec.Vehicle.Set(strings.TrimSpace(name), val); err != nil {
			return spec, fmt.Errorf("--vehicle: %w", err)
		}
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
	if g := c.graphProfile(); g != bundle.ProfileCar {
		cl.profile = g
	}
	if spec, err := c.spec(); err == nil && spec.Profile == routing.ProfileTruck {
		v := spec.Vehicle
		cl.profile = spec.Profile.String()
		cl.vehicle = map[string]any{"height_m": v.HeightM, "width_m": v.WidthM, "length_m": v.LengthM,
			"weight_t": v.WeightT, "axle_load_t": v.AxleLoadT, "hazmat": v.Hazmat, "max_speed_kmh": v.MaxSpeedKmh}
		cl.newVehicle = c.newVehicle
	}
	return cl
}

// graphProfile returns the bundle graph the orders route on: bicycle or
// foot for those profiles, else the car's (a truck is a metric on it).
func (c benchConfig) graphProfile() string {
	switch p := strings.ToLower(strings.TrimSpace(c.profile)); p {
	case bundle.ProfileBicycle, bundle.ProfileFoot:
		return p
	}
	return bundle.ProfileCar
}

// profileTitle names the orders' profile for the report's title (""
// for a car).
func (c benchConfig) profileTitle(spec routing.Metric) string {
	if spec.Profile == routing.ProfileCar {
		return ""
	}
	_, v, _ := strings.Cut(spec.String(), ";vehicle=")
	v, _, _ = strings.Cut(v, ";")
	t := ", profile " + spec.Profile.String() + " (vehicle " + v + ")"
	if c.newVehicle {
		t += ", a new vehicle per order"
	}
	return t
}
