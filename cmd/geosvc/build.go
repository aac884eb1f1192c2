package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/geosvc/geosvc/cmd/geosvc/internal/bundle"
	"github.com/geosvc/geosvc/cmd/geosvc/internal/progress"
	"github.com/geosvc/geosvc/configs"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

func runBuild(args []string) error {
	fs := newFlagSet("build", "build --osm FILE --out DIR [--profile car.yaml] [--if-stale]",
		"Build a data bundle from an OpenStreetMap extract (.osm.pbf, .osm, .osm.bz2 or\n"+
			".osm.gz): the routing graph with its contraction hierarchies, the snapping\n"+
			"index, and the boundary, ZIP+4 and geocoder layers, listed in manifest.json.\n"+
			"Servers load the bundle read-only; they never parse OSM.")
	osmPath := fs.String("osm", "", "OSM extract to read (required)")
	out := fs.String("out", "./data", "bundle directory to write")
	profPath := fs.String("profile", "", "car routing profile YAML (default: the embedded configs/car.yaml)")
	ifStale := fs.Bool("if-stale", false, "do nothing when DIR already holds a bundle of this version built from the same files (extract, profile, --boundaries, --zip4)")
	addLayerFlags(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if *osmPath == "" || fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	src, err := bundle.HashFile(*osmPath)
	if err != nil {
		return err
	}
	profBytes, profSrc, err := readProfile(*profPath)
	if err != nil {
		return err
	}
	inputs, err := layerInputs()
	if err != nil {
		return err
	}
	inputs = append([]bundle.Input{{Role: "profile", Source: profSrc}}, inputs...)
	if *ifStale {
		if m, err := bundle.Read(*out); err == nil {
			stale, why := bundle.Stale(*out, m, bundleVersion(), src, inputs)
			if !stale {
				fmt.Printf("bundle %s is up to date (version %s, %s)\n", *out, m.BundleVersion, src.File)
				return nil
			}
			fmt.Printf("bundle %s is stale: %s; rebuilding\n", *out, why)
		}
	}
	prof, err := profile.Parse(profBytes)
	if err != nil {
		return fmt.Errorf("profile %s: %w", profSrc.File, err)
	}
	start := time.Now()
	prog := progress.New(os.Stderr)
	stage := prog.Start("reading "+src.File, progress.FileRead(*osmPath))
	net, err := osmroad.Read(*osmPath, prof)
	took := stage.Done()
	if err != nil {
		return fmt.Errorf("read %s: %w", *osmPath, err)
	}
	fmt.Printf("read %s (%v):\n%s\n", src.File, took.Round(time.Millisecond), net.Report.String())
	stage = prog.Start("routing graph and hierarchies (CH, CCH)", nil)
	g, rep, err := routing.Build(net, prof)
	stage.Done()
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	if rep != nil {
		fmt.Println(rep.String())
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	// The manifest goes first and comes back last: a build cut short
	// leaves a directory that servers refuse ("no manifest"), never a mix
	// of old and new layers that loads.
	if err := os.Remove(filepath.Join(*out, bundle.ManifestFile)); err != nil && !os.IsNotExist(err) {
		return err
	}
	graphPath := filepath.Join(*out, routing.FileName)
	if err := g.Save(graphPath); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	fi, err := os.Stat(graphPath)
	if err != nil {
		return err
	}
	countries := extractCountries(net.Vertices)
	fmt.Printf("extract countries (world base layer, by road vertices): %s\n", countries)
	layers, err := buildLayers(&buildContext{OSMPath: *osmPath, Out: *out, Countries: countries}, prog)
	if err != nil {
		return err
	}
	m := bundle.Manifest{
		BundleVersion: bundleVersion(),
		Source:        src,
		Inputs:        inputs,
		OSMTimestamp:  net.Timestamp.UTC(),
		BuiltAt:       time.Now().UTC().Truncate(time.Second),
		Layers:        append([]bundle.Layer{{Name: "routing", File: routing.FileName, Size: fi.Size()}}, layers...),
		Nodes:         g.Meta().Nodes,
		Edges:         g.Meta().Edges,
	}
	if err := bundle.Write(*out, m); err != nil {
		return err
	}
	fmt.Printf("wrote bundle %s (version %s, %d MB) in %v\n", *out, m.BundleVersion, fi.Size()>>20, time.Since(start).Round(time.Millisecond))
	return nil
}

// readProfile returns the profile YAML at path, or the embedded car
// profile, with its Source for the manifest.
func readProfile(path string) ([]byte, bundle.Source, error) {
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, bundle.Source{}, err
		}
		return b, bundle.HashBytes(filepath.Base(path), b), nil
	}
	b, err := configs.CarProfile()
	if err != nil {
		return nil, bundle.Source{}, fmt.Errorf("no embedded car profile: %w", err)
	}
	return b, bundle.HashBytes("embedded:configs/car.yaml", b), nil
}
