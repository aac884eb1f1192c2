package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/internal/progress"
	"github.com/geosvc/geosvc/routing"
)

func runBuild(args []string) error {
	fs := newFlagSet("build", "build --osm FILE --out DIR [--profile car.yaml] [--profiles car,bicycle,foot] [--speeds FILE] [--if-stale]",
		"Build a data bundle from an OpenStreetMap extract (.osm.pbf, .osm, .osm.bz2 or\n"+
			".osm.gz): the routing graph with its contraction hierarchies, the snapping\n"+
			"index, and the boundary, ZIP+4 and geocoder layers, listed in manifest.json.\n"+
			"Servers load the bundle read-only; they never parse OSM.")
	var opts bundle.Options
	var boundaries stringList
	fs.StringVar(&opts.OSMPath, "osm", "", "OSM extract to read (required)")
	fs.StringVar(&opts.Out, "out", "./data", "bundle directory to write")
	fs.StringVar(&opts.Profile, "profile", "", "car routing profile YAML (default: the embedded configs/car.yaml)")
	profiles := fs.String("profiles", "car", "routing profiles to build, comma-separated: car (always built), truck (routes on the car's graph: nothing extra), bicycle, foot (each a graph of its own)")
	fs.BoolVar(&opts.IfStale, "if-stale", false, "do nothing when DIR already holds a bundle of this version built from the same files (extract, profile, --boundaries, --zip4)")
	fs.Var(&boundaries, "boundaries", "GeoJSON `FILE` of areas to add or replace in the boundary layer (properties name, iso_a3, admin_level or category; repeatable)")
	fs.StringVar(&opts.Zip4, "zip4", "", "authoritative ZIP+4 GeoJSON (Polygon/MultiPolygon features with zip9, or zip + plus4) replacing the ZIP+4 layer derived from TIGER streets")
	fs.StringVar(&opts.CovidData, "health-data", "", "`DIR` of the COVID-19 case series (jhu/, nyc/, as in shared/data/covid) to build the health layer from (default: the snapshot embedded in geosvc)")
	fs.StringVar(&opts.CovidNYT, "health-nyt", "", "the New York Times us-states.csv `FILE` (free for non-commercial use only, never shipped): US state records from it instead of the sums of JHU's counties")
	contraction := fs.String("contraction", "auto", "how the fastest and shortest hierarchies are made: greedy (metric-dependent order, smaller searches, slower to build), nd (derived from the CCH's nested-dissection order, seconds at any size) or auto (greedy up to 500,000 edge-based nodes)")
	fs.StringVar(&opts.Speeds, "speeds", "", "speed data `FILE` stored in the bundle and applied by the hour of the week: a segment speed CSV (from_osm_node,to_osm_node,speed_kmh[,rate[,hour]]) or YAML rules (.yaml); see docs/data.md")
	memLimit := fs.String("memory-limit", "", "memory the build may use, e.g. 14GB or 14000MB (default: what the system has available); a build estimated to need more is refused before it starts")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *memLimit != "" {
		n, err := parseBytes(*memLimit)
		if err != nil {
			return fmt.Errorf("--memory-limit %q: %w", *memLimit, err)
		}
		opts.MemoryLimit = n
	}
	c, err := routing.ParseContraction(*contraction)
	if err != nil {
		return fmt.Errorf("--contraction: %w", err)
	}
	opts.Contraction = c
	if opts.Profiles, err = bundle.ParseProfiles(*profiles); err != nil {
		return fmt.Errorf("--profiles: %w", err)
	}
	if opts.OSMPath == "" || fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	opts.Boundaries = boundaries
	opts.Report = os.Stdout
	opts.Progress = progress.New(os.Stderr)
	_, err = bundle.Build(context.Background(), opts)
	return err
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// parseBytes reads a size: a number of bytes, or of KB, MB, GB (powers of
// 1000) or KiB, MiB, GiB (powers of 1024).
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	for _, u := range units {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || n <= 0 {
				return 0, fmt.Errorf("want a positive size such as 14GB")
			}
			return int64(n * float64(u.mult)), nil
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("want a positive size such as 14GB")
	}
	return n, nil
}
