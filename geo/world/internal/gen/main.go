// Command gen writes geo/world/world.bin, the world base layer: Natural
// Earth's countries (npm package world-atlas, countries-10m.json) and the
// US Census Bureau's states and counties (npm package us-atlas,
// counties-10m.json, checked against states-10m.json), with the rules of
// configs/world.yaml applied. Run it with `go generate ./geo/world` after
// `npm pack world-atlas@2.0.2 us-atlas@3.0.1` in the repository root, or
// directly:
//
//	go run ./geo/world/internal/gen -world DIR/world-atlas-2.0.2.tgz -us DIR/us-atlas-3.0.1.tgz -out geo/world/world.bin
//
// -world and -us take the tarball npm pack writes or its extracted
// package directory. The same inputs always give the same bytes; -check
// verifies that the committed file is what the sources give.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"log"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/geosvc/geosvc/geo/world/internal/config"
	"github.com/geosvc/geosvc/geo/world/internal/topojson"
	"github.com/geosvc/geosvc/geo/world/internal/worldfile"
)

func main() {
	worldPath := flag.String("world", "../../world-atlas-2.0.2.tgz", "world-atlas package: the .tgz of `npm pack world-atlas@2.0.2` or its extracted directory")
	usPath := flag.String("us", "../../us-atlas-3.0.1.tgz", "us-atlas package: the .tgz of `npm pack us-atlas@3.0.1` or its extracted directory")
	out := flag.String("out", "world.bin", "file to write")
	check := flag.Bool("check", false, "write nothing: exit with status 1 unless -out holds exactly what the sources give")
	flag.Parse()
	start := time.Now()
	cfg, err := config.Load()
	if err != nil {
		log.Fatal(err)
	}
	world, err := readPackage(*worldPath, worldFile)
	if err != nil {
		log.Fatal(err)
	}
	us, err := readPackage(*usPath, countiesFile, statesFile)
	if err != nil {
		log.Fatal(err)
	}
	b, notes, err := build(world, us, cfg)
	if err != nil {
		log.Fatal(err)
	}
	if *check {
		old, err := os.ReadFile(*out)
		if err != nil {
			log.Fatal(err)
		}
		if !bytes.Equal(old, b) {
			log.Fatalf("%s differs from what the sources give (%d bytes, not %d): regenerate it", *out, len(b), len(old))
		}
		fmt.Printf("%s is up to date (%d bytes)\n", *out, len(b))
		return
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		log.Fatal(err)
	}
	for _, n := range notes {
		fmt.Println(n)
	}
	fmt.Printf("wrote %s: %d bytes in %v\n", *out, len(b), time.Since(start).Round(time.Millisecond))
}

// The files read from the packages.
const (
	worldFile    = "countries-10m.json"
	countiesFile = "counties-10m.json"
	statesFile   = "states-10m.json"
)

// Topology numbers in the file.
const (
	topoWorld uint8 = iota
	topoUS
)

var (
	// neVersionRE finds the Natural Earth version world-atlas's README
	// states ("... vector data, version 4.1.0 as TopoJSON").
	neVersionRE = regexp.MustCompile(`version (\d+\.\d+\.\d+) as TopoJSON`)
	// censusEditionRE finds the edition us-atlas's README states
	// ("... cartographic boundary shapefiles ..., 2017 edition").
	censusEditionRE = regexp.MustCompile(`boundary shapefiles\]\([^)]*\), (\d{4}) edition`)
)

// build returns the file's bytes and notes on what the rules did.
func build(world, us *pkg, cfg *config.Config) ([]byte, []string, error) {
	ne := neVersionRE.FindSubmatch(world.files["README.md"])
	census := censusEditionRE.FindSubmatch(us.files["README.md"])
	if ne == nil || census == nil {
		return nil, nil, fmt.Errorf("the packages' READMEs no longer state the Natural Earth version or the Census edition")
	}
	worldSrc := source(world, worldFile, "naturalearth", fmt.Sprintf("Natural Earth %s Admin 0 - Countries, 1:10m", ne[1]))
	usSrc := source(us, countiesFile, "census", fmt.Sprintf("US Census Bureau cartographic boundary files, %s edition: counties (states merged from them)", census[1]))

	wt, err := topojson.Decode(world.files[worldFile])
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", worldFile, err)
	}
	ct, err := topojson.Decode(us.files[countiesFile])
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", countiesFile, err)
	}
	st, err := topojson.Decode(us.files[statesFile])
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", statesFile, err)
	}
	d := &worldfile.Data{}
	for _, s := range []struct {
		t   *topojson.Topology
		src worldfile.Source
	}{{wt, worldSrc}, {ct, usSrc}} {
		gt, err := gridTopology(s.t, s.src)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", s.src.File, err)
		}
		d.Topologies = append(d.Topologies, gt)
	}
	cs, notes, err := countryFeatures(wt, topoWorld, &cfg.Countries)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", worldFile, err)
	}
	us2, err := censusFeatures(ct, st, topoUS, &cfg.Counties)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", countiesFile, err)
	}
	d.Features = append(cs, us2...)
	closed, err := closeRings(d)
	if err != nil {
		return nil, nil, err
	}
	notes = append(notes, closed...)
	dropped, err := dropDegenerate(d)
	if err != nil {
		return nil, nil, err
	}
	notes = append(notes, dropped...)
	pruneArcs(d)
	sortFeatures(d.Features)
	b, err := worldfile.Encode(d)
	if err != nil {
		return nil, nil, err
	}
	counts := map[uint8]int{}
	for _, f := range d.Features {
		counts[f.Kind]++
	}
	for _, t := range d.Topologies {
		notes = append(notes, fmt.Sprintf("%s %s %s: %d arcs, %d points, grid step %g x %g degrees",
			t.Source.Package, t.Source.Version, t.Source.File, t.Arcs(), len(t.XY)/2, t.Scale[0], t.Scale[1]))
	}
	notes = append(notes, fmt.Sprintf("%d countries, %d states, %d counties",
		counts[worldfile.KindCountry], counts[worldfile.KindState], counts[worldfile.KindCounty]))
	return b, notes, nil
}

// source describes file of package p.
func source(p *pkg, file, name, data string) worldfile.Source {
	sum := sha256.Sum256(p.files[file])
	return worldfile.Source{
		Name:           name,
		Data:           data,
		DataLicense:    "public domain",
		Package:        p.Name,
		Version:        p.Version,
		PackageLicense: strings.TrimSpace(p.License),
		File:           file,
		SHA256:         hex.EncodeToString(sum[:]),
	}
}
