package bundle

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/geosvc/geosvc/configs"
	"github.com/geosvc/geosvc/internal/progress"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
	"github.com/geosvc/geosvc/routing/speeds"
)

// Options says what Build builds from and where.
type Options struct {
	// OSMPath is the extract to read (.osm.pbf, .osm, .osm.bz2, .osm.gz);
	// required.
	OSMPath string
	// Out is the bundle directory to write; required.
	Out string
	// Profile is a car routing profile YAML file; "" means the embedded
	// configs/car.yaml.
	Profile string
	// Profiles are the graph profiles to build besides the car's
	// (ParseProfiles: "bicycle", "foot"), each from its embedded
	// configs/NAME.yaml into a directory NAME/ of the bundle.
	Profiles []string
	// Boundaries are GeoJSON files of areas to add to or replace in the
	// boundary layer.
	Boundaries []string
	// Zip4 is an authoritative ZIP+4 GeoJSON file replacing the layer
	// derived from TIGER streets; "" derives it.
	Zip4 string
	// CovidData is a directory of the COVID-19 case series (jhu/, nyc/ as
	// in shared/data/covid); "" means the snapshot embedded in geosvc.
	CovidData string
	// CovidNYT is the New York Times us-states.csv (free for
	// non-commercial use only, never shipped): US state records from it.
	CovidNYT string
	// Speeds is a speed file (package speeds: the segment speed CSV or
	// the YAML rules) stored in the bundle and applied when it opens; ""
	// for none.
	Speeds string
	// Contraction is how the fastest and shortest hierarchies are made
	// (routing.Contraction; the zero value is auto).
	Contraction routing.Contraction
	// IfStale does nothing when Out already holds a bundle of this
	// version built from the same files.
	IfStale bool
	// Report receives the build's reports (counts, sizes, times); nil
	// discards them.
	Report io.Writer
	// Progress shows each stage while it runs; nil shows nothing.
	Progress *progress.Printer
	// MemoryLimit is the memory the build may use, in bytes: a build
	// whose estimated need (memoryNeed: the extract's size times what
	// builds measured) is above it is refused before it starts, and the
	// garbage collector works harder as the heap nears it; 0 means the
	// memory the system says is available.
	MemoryLimit int64
}

// Build builds a data bundle from an OSM extract into opts.Out and
// returns its manifest. The manifest is removed first and written last,
// so a build cut short (an error, ctx ended, the process killed) leaves a
// directory that Open refuses ("no manifest"), never a mix of old and new
// layers. With IfStale, an up-to-date bundle is left as it is and its
// manifest returned.
func Build(ctx context.Context, opts Options) (Manifest, error) {
	if opts.Report == nil {
		opts.Report = io.Discard
	}
	if opts.Progress == nil {
		opts.Progress = progress.NewWriter(io.Discard, false)
	}
	if opts.OSMPath == "" || opts.Out == "" {
		return Manifest{}, fmt.Errorf("bundle: an OSM extract and an output directory are required")
	}
	// A build allocates a lot that dies young (decoded OSM blocks, one
	// stage's scratch): collect when the heap has grown by half rather
	// than doubled, which keeps the peak near what is live for a few
	// percent more time (Delaware 4 x 4, reading: 1.04 GB instead of 1.31).
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	src, err := HashFile(opts.OSMPath)
	if err != nil {
		return Manifest{}, err
	}
	if err := checkPBF(opts.OSMPath); err != nil {
		return Manifest{}, err
	}
	limit, err := checkMemory(opts.OSMPath, opts.MemoryLimit)
	if err != nil {
		return Manifest{}, err
	}
	if limit > 0 {
		// A soft limit: the garbage collector works harder as the heap
		// nears it, rather than the process growing past it.
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	}
	profBytes, profSrc, err := readProfile(opts.Profile)
	if err != nil {
		return Manifest{}, err
	}
	inputs, err := opts.inputs(profSrc)
	if err != nil {
		return Manifest{}, err
	}
	profIn, err := profileInputs(opts.Profiles)
	if err != nil {
		return Manifest{}, err
	}
	inputs = append(inputs, profIn...)
	var speedData *speeds.Data
	var speedRaw []byte
	if opts.Speeds != "" {
		if speedData, speedRaw, err = readSpeeds(opts.Speeds); err != nil {
			return Manifest{}, err
		}
		inputs = append(inputs, Input{Role: LayerSpeeds, Source: HashBytes(filepath.Base(opts.Speeds), speedRaw)})
	}
	if opts.IfStale {
		if m, err := Read(opts.Out); err == nil {
			stale, why := Stale(opts.Out, m, Version(), src, inputs)
			if !stale {
				fmt.Fprintf(opts.Report, "bundle %s is up to date (version %s, %s)\n", opts.Out, m.BundleVersion, src.File)
				return m, nil
			}
			fmt.Fprintf(opts.Report, "bundle %s is stale: %s; rebuilding\n", opts.Out, why)
		}
	}
	prof, err := profile.Parse(profBytes)
	if err != nil {
		return Manifest{}, fmt.Errorf("profile %s: %w", profSrc.File, err)
	}
	start := time.Now()
	stage := opts.Progress.Start("reading "+src.File, progress.FileRead(opts.OSMPath))
	net, err := osmroad.Read(opts.OSMPath, prof)
	took := stage.Done()
	if err != nil {
		return Manifest{}, fmt.Errorf("read %s: %w", opts.OSMPath, err)
	}
	fmt.Fprintf(opts.Report, "read %s (%v):\n%s\n", src.File, took.Round(time.Millisecond), net.Report.String())
	if err := ctx.Err(); err != nil {
		return Manifest{}, err
	}
	// The bundle is built in a directory of its own beside Out and moved
	// into Out only when complete: a build that fails (a bad extract, a
	// full disk, too little memory) leaves the bundle in Out as it was,
	// and servers go on serving it.
	final := opts.Out
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(final)), 0o755); err != nil {
		return Manifest{}, err
	}
	work, err := os.MkdirTemp(filepath.Dir(filepath.Clean(final)), filepath.Base(filepath.Clean(final))+".building-")
	if err != nil {
		return Manifest{}, err
	}
	defer os.RemoveAll(work)
	if err := os.Chmod(work, 0o755); err != nil {
		return Manifest{}, err
	}
	opts.Out = work
	// What the manifest and the layers need of the network, before the
	// routing build consumes it; the graph is written part by part into
	// the bundle directory as it is built.
	countries := extractCountries(net.Vertices)
	caps := condMaxspeedRows(net.CondMaxspeeds)
	osmTime := net.Timestamp.UTC()
	g, rep, err := routing.Build(net, prof, routing.WithDir(opts.Out), routing.WithContraction(opts.Contraction), routing.WithStages(func(name string) func() {
		st := opts.Progress.Start(name, nil)
		return func() { st.Done() }
	}))
	if err != nil {
		return Manifest{}, fmt.Errorf("build: %w", err)
	}
	if rep != nil {
		fmt.Fprintln(opts.Report, rep.String())
	}
	nodes, edges := g.Meta().Nodes, g.Meta().Edges
	routingFiles, graphBytes, err := routingLayers(opts.Out, ProfileCar)
	if err != nil {
		return Manifest{}, err
	}
	if speedData != nil {
		l, srep, err := writeSpeeds(opts.Out, g, speedData, speedRaw)
		if err != nil {
			return Manifest{}, err
		}
		fmt.Fprintln(opts.Report, srep.String())
		routingFiles = append(routingFiles, l)
	}
	if len(caps) > 0 {
		l, err := writeCondMaxspeeds(opts.Out, caps)
		if err != nil {
			return Manifest{}, err
		}
		fmt.Fprintf(opts.Report, "conditional maxspeeds: %d segment rows by the hour (%s)\n", len(caps), l.File)
		routingFiles = append(routingFiles, l)
	}
	for _, p := range opts.Profiles {
		layers, size, err := buildProfileGraph(ctx, opts, p)
		if err != nil {
			return Manifest{}, err
		}
		routingFiles = append(routingFiles, layers...)
		graphBytes += size
	}
	bc := &buildContext{ctx: ctx, opts: opts, countries: countries}
	fmt.Fprintf(opts.Report, "extract countries (world base layer, by road vertices): %s\n", bc.countries)
	layers, err := bc.buildLayers()
	if err != nil {
		return Manifest{}, err
	}
	m := Manifest{
		BundleVersion: Version(),
		Source:        src,
		Inputs:        inputs,
		OSMTimestamp:  osmTime,
		BuiltAt:       time.Now().UTC().Truncate(time.Second),
		Layers:        append(routingFiles, layers...),
		Nodes:         nodes,
		Edges:         edges,
		Profiles:      opts.Profiles,
	}
	if err := publish(work, final, m); err != nil {
		return Manifest{}, err
	}
	fmt.Fprintf(opts.Report, "wrote bundle %s (version %s, profiles %s, routing graphs %d MB) in %v\n", final, m.BundleVersion, strings.Join(append([]string{ProfileCar}, m.Profiles...), ","), graphBytes>>20, time.Since(start).Round(time.Millisecond))
	return m, nil
}

// publish moves the bundle built in work into dir: the old manifest
// goes first and the new one comes last, so a server that starts in
// between finds no bundle rather than a mix of old and new files (one
// that runs keeps the old files it has mapped), and a server watching
// dir swaps once the manifest is there.
func publish(work, dir string, m Manifest) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dir, ManifestFile)); err != nil && !os.IsNotExist(err) {
		return err
	}
	for _, l := range m.Layers {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, l.File)), 0o755); err != nil {
			return err
		}
		if err := os.Rename(filepath.Join(work, l.File), filepath.Join(dir, l.File)); err != nil {
			return fmt.Errorf("bundle: move %s into %s: %w", l.File, dir, err)
		}
	}
	return Write(dir, m)
}

// inputs hashes the files the build reads besides the extract, in a
// fixed order: the routing profile, then each layer's.
func (opts Options) inputs(prof Source) ([]Input, error) {
	in := []Input{{Role: "profile", Source: prof}}
	add := func(role string, paths ...string) error {
		for _, p := range paths {
			src, err := HashFile(p)
			if err != nil {
				return fmt.Errorf("layer %s: %w", role, err)
			}
			in = append(in, Input{Role: role, Source: src})
		}
		return nil
	}
	if err := add(LayerBoundaries, opts.Boundaries...); err != nil {
		return nil, err
	}
	if opts.Zip4 != "" {
		if err := add(LayerZip4, opts.Zip4); err != nil {
			return nil, err
		}
	}
	if opts.CovidNYT != "" {
		if err := add(LayerCovid, opts.CovidNYT); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// readProfile returns the profile YAML at path, or the embedded car
// profile, with its Source for the manifest.
func readProfile(path string) ([]byte, Source, error) {
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, Source{}, err
		}
		return b, HashBytes(filepath.Base(path), b), nil
	}
	b, err := configs.CarProfile()
	if err != nil {
		return nil, Source{}, fmt.Errorf("no embedded car profile: %w", err)
	}
	return b, HashBytes("embedded:configs/car.yaml", b), nil
}
