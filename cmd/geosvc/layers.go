package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/cmd/geosvc/internal/bundle"
	"github.com/geosvc/geosvc/cmd/geosvc/internal/progress"
	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/covid"
	"github.com/geosvc/geosvc/geo/world"
)

// A dataLayer is a part of the data bundle besides the routing graph (the
// boundaries, time zones, ZIP+4 areas, the gazetteer, ...) and the REST
// interface that answers from it. Each lives in a file layer_NAME.go that
// appends itself to dataLayers in an init function, so that adding a layer
// never touches build.go or serve.go.
type dataLayer struct {
	// name is the layer's name in manifest.json and in logs.
	name string
	// order sorts the layers for building and loading: a layer may use the
	// layers of lower order (the boundary layer comes first).
	order int
	// version is the layer's file format version; it is part of the
	// bundle version, so bumping it makes older bundles stale.
	version int
	// flags registers the layer's own `geosvc build` flags, if any.
	flags func(fs *flag.FlagSet)
	// inputs returns the files its flags name that its build reads
	// besides the extract; they go into the manifest, so that --if-stale
	// rebuilds when one changes.
	inputs func() []string
	// build writes the layer's file(s) into bc.Out and returns the file
	// name recorded in the manifest. It may read the layers built before
	// it from bc.Out.
	build func(bc *buildContext) (file string, err error)
	// load reads the layer from the bundle directory into ls, where the
	// layers of higher order find it.
	load func(dir string, ls *loadedLayers) error
	// register adds the interface's routes to the protected (keyed) group
	// at startup, before the bundle is loaded: handlers answer 503 until
	// activate has run.
	register func(g *echo.Group, ls *loadedLayers)
}

// dataLayers is every registered layer.
var dataLayers []dataLayer

// sortedLayers returns dataLayers by order.
func sortedLayers() []dataLayer {
	ls := append([]dataLayer(nil), dataLayers...)
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].order < ls[j].order })
	return ls
}

// buildContext is what a layer's build step gets.
type buildContext struct {
	// OSMPath is the extract being built from.
	OSMPath string
	// Out is the bundle directory being written.
	Out string
	// Countries are the countries the extract's roads lie in.
	Countries countryShares
}

// countryShares is how many of a sample of the extract's road vertices lie
// in each country (ISO 3166-1 alpha-2), by the world base layer.
type countryShares map[string]int

// Has reports whether any sampled vertex lies in country cc.
func (c countryShares) Has(cc string) bool { return c[cc] > 0 }

// String lists the countries by share: "US 99.6 %, CA 0.4 %".
func (c countryShares) String() string {
	total := 0
	ccs := make([]string, 0, len(c))
	for cc, n := range c {
		total += n
		ccs = append(ccs, cc)
	}
	if total == 0 {
		return "none"
	}
	sort.Slice(ccs, func(i, j int) bool { return c[ccs[i]] > c[ccs[j]] || c[ccs[i]] == c[ccs[j]] && ccs[i] < ccs[j] })
	parts := make([]string, len(ccs))
	for i, cc := range ccs {
		parts[i] = fmt.Sprintf("%s %.1f %%", cc, 100*float64(c[cc])/float64(total))
	}
	return strings.Join(parts, ", ")
}

// extractCountries counts the countries of up to 2,000 of the vertices,
// spread over the list; a vertex at sea or just outside a coarse
// coastline counts nowhere.
func extractCountries(vertices []orb.Point) countryShares {
	out := countryShares{}
	w, err := boundary.World()
	if err != nil || len(vertices) == 0 {
		return out
	}
	step := max(1, len(vertices)/2000)
	for i := 0; i < len(vertices); i += step {
		if a, ok := w.AdminAt(vertices[i], 0); ok && a.CountryISO2 != "" {
			out[a.CountryISO2]++
		}
	}
	return out
}

// loadedLayers holds the loaded layers by name (each layer's own type)
// and is how handlers reach them once the bundle is in.
type loadedLayers struct {
	byName map[string]any
	// ready is closed when every layer is loaded.
	ready chan struct{}
}

func newLoadedLayers() *loadedLayers {
	return &loadedLayers{byName: map[string]any{}, ready: make(chan struct{})}
}

// get returns the loaded layer of that name, nil before it is loaded.
func (ls *loadedLayers) get(name string) any {
	select {
	case <-ls.ready:
		return ls.byName[name]
	default:
		return nil
	}
}

// addLayerFlags registers every layer's build flags.
func addLayerFlags(fs *flag.FlagSet) {
	for _, l := range sortedLayers() {
		if l.flags != nil {
			l.flags(fs)
		}
	}
}

// layerInputs hashes every layer's input files, in layer order.
func layerInputs() ([]bundle.Input, error) {
	var out []bundle.Input
	for _, l := range sortedLayers() {
		if l.inputs == nil {
			continue
		}
		for _, path := range l.inputs() {
			src, err := bundle.HashFile(path)
			if err != nil {
				return nil, fmt.Errorf("layer %s: %w", l.name, err)
			}
			out = append(out, bundle.Input{Role: l.name, Source: src})
		}
	}
	return out, nil
}

// buildLayers builds every layer into bc.Out, showing each as a stage of
// prog (with how far it has read the extract), and returns their manifest
// entries.
func buildLayers(bc *buildContext, prog *progress.Printer) ([]bundle.Layer, error) {
	var out []bundle.Layer
	for _, l := range sortedLayers() {
		if l.build == nil {
			continue
		}
		stage := prog.Start("layer "+l.name, progress.FileRead(bc.OSMPath))
		file, err := l.build(bc)
		took := stage.Done()
		if err != nil {
			return nil, fmt.Errorf("layer %s: %w", l.name, err)
		}
		fi, err := os.Stat(bc.Out + string(os.PathSeparator) + file)
		if err != nil {
			return nil, fmt.Errorf("layer %s: %w", l.name, err)
		}
		fmt.Printf("layer %s: %s, %d KB, %v\n", l.name, file, fi.Size()>>10, took.Round(time.Millisecond))
		out = append(out, bundle.Layer{Name: l.name, File: file, Size: fi.Size()})
	}
	return out, nil
}

// loadLayers loads every layer from dir into ls and then marks ls ready.
func loadLayers(dir string, ls *loadedLayers) error {
	tmp := &loadedLayers{byName: ls.byName, ready: make(chan struct{})}
	close(tmp.ready) // layers may read the ones loaded before them
	for _, l := range sortedLayers() {
		if l.load == nil {
			continue
		}
		if err := l.load(dir, tmp); err != nil {
			return fmt.Errorf("data bundle %s: layer %s: %w", dir, l.name, err)
		}
	}
	close(ls.ready)
	return nil
}

// registerLayers adds every layer's routes to the protected group.
func registerLayers(g *echo.Group, ls *loadedLayers) {
	for _, l := range sortedLayers() {
		if l.register != nil {
			l.register(g, ls)
		}
	}
}

// attribution credits the data sets the loaded layers answer from besides
// OpenStreetMap: the world base layer's sources (always, as the boundary
// lookups fall back to it) and the health layer's.
func (ls *loadedLayers) attribution() []string {
	var out []string
	if srcs, err := world.Sources(); err == nil {
		for _, s := range srcs {
			out = append(out, fmt.Sprintf("%s (%s, via %s %s)", s.Data, s.DataLicense, s.Package, s.Version))
		}
	}
	if h, ok := ls.get(healthLayerName).(*covid.Layer); ok {
		out = append(out, h.Attribution()...)
	}
	return out
}
