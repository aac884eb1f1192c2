package bundle

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/geo/covid"
	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/geo/mapdata"
	"github.com/geosvc/geosvc/geo/timezone"
	"github.com/geosvc/geosvc/geo/world"
	"github.com/geosvc/geosvc/geo/zip4"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/speeds"
)

// Bundle is an opened data bundle: its manifest and one field per layer,
// nil for a layer that was not opened (OpenRouting opens the graph only).
// It is read-only and safe for concurrent use.
type Bundle struct {
	// Dir is the directory the bundle was opened from.
	Dir string
	// ID tells one build from another: the first 12 hex digits of its
	// manifest's SHA-256. A matrix job records the id of the bundle it is
	// computed on, and fetch answers it.
	ID string
	// Manifest describes the bundle's build.
	Manifest Manifest
	// Graph is the routing graph: its hierarchies, snapping index and
	// road shapes.
	Graph *routing.Graph
	// Boundaries are the administrative and other areas (adminv1,
	// geoboundariesv1), with the world base layer outside the extract.
	Boundaries *boundary.Layer
	// Zip4 is the ZIP+4 layer (zip4v1).
	Zip4 *zip4.Layer
	// Geocoder is the gazetteer (geocoderv1, SOAP Gazetteer).
	Geocoder *geocode.Index
	// TimeZones answers the time zone of a point with the areas of the
	// boundary layer in it (timezonesv1).
	TimeZones *timezone.Index
	// Covid is the COVID-19 case data and business density (covidv1).
	Covid *covid.Layer
	// Map is the map layer: water, land use, buildings, places (tilesv1,
	// SOAP maps).
	Map *mapdata.Layer

	// graphs are the routing graphs by profile (GraphFor), the car's
	// included.
	graphs map[string]*routing.Graph

	mapOnce    sync.Once
	mapSources cartography.Sources

	// caps are the bundle's conditional maximum speeds (nil without
	// any), applied with every speed data (ApplySpeeds).
	caps *speeds.Data
}

// Check reads the manifest of the bundle in dir and checks it against
// this binary's bundle version: a missing bundle and a bundle of another
// version are errors that say how to build one.
func Check(dir string) (Manifest, error) {
	m, _, err := check(dir)
	return m, err
}

// check is Check with the bundle's id.
func check(dir string) (Manifest, string, error) {
	m, id, err := readWithID(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return m, "", noBundleError(dir)
	}
	if err != nil {
		return m, "", err
	}
	if m.BundleVersion != Version() {
		return m, "", fmt.Errorf("data bundle %s has version %s, this binary reads %s: rebuild it with `geosvc build --osm %s --out %s` (or make data)",
			dir, m.BundleVersion, Version(), m.Source.File, dir)
	}
	return m, id, nil
}

// Open opens every layer of the bundle in dir, after Check. The routing
// graph's checksums, most of a bundle's bytes, are left to Verify, so
// that opening takes about as long at any size.
func Open(dir string) (*Bundle, error) {
	m, id, err := check(dir)
	if err != nil {
		return nil, err
	}
	// The graphs map while the layers open.
	var gs map[string]*routing.Graph
	var gErr error
	mapped := make(chan struct{})
	go func() {
		defer close(mapped)
		gs, gErr = loadGraphs(dir, m)
	}()
	b := &Bundle{Dir: dir, ID: id, Manifest: m}
	lErr := b.openLayers()
	<-mapped
	if gErr != nil {
		return nil, fmt.Errorf("data bundle %s: %w", dir, gErr)
	}
	if lErr != nil {
		return nil, fmt.Errorf("data bundle %s: %w", dir, lErr)
	}
	b.Graph, b.graphs = gs[ProfileCar], gs
	if err := b.openSpeeds(); err != nil {
		return nil, fmt.Errorf("data bundle %s: %w", dir, err)
	}
	return b, nil
}

// OpenRouting opens the manifest and the routing graphs of the bundle in
// dir only (what a matrix worker uses), after Check: the car's and each
// profile's it was built with, memory-mapped side by side; the graphs'
// checksums are left to Verify.
func OpenRouting(dir string) (*Bundle, error) {
	m, id, err := check(dir)
	if err != nil {
		return nil, err
	}
	gs, err := loadGraphs(dir, m)
	if err != nil {
		return nil, fmt.Errorf("data bundle %s: %w", dir, err)
	}
	b := &Bundle{Dir: dir, ID: id, Manifest: m, Graph: gs[ProfileCar], graphs: gs}
	if err := b.openSpeeds(); err != nil {
		return nil, fmt.Errorf("data bundle %s: %w", dir, err)
	}
	return b, nil
}

// openLayers opens the layers besides the graph, each on a goroutine of
// its own, the time-zone polygons (tzf, the slowest, a fixed second or
// so) beside the boundary layer whose areas the time-zone index then
// groups by zone: start-up takes as long as the slowest layer, not the
// sum. The first error in layer order is returned.
func (b *Bundle) openLayers() error {
	errs := make([]error, 6)
	var wg sync.WaitGroup
	run := func(i int, f func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f()
		}()
	}
	run(0, func() (err error) {
		if b.Boundaries, err = boundary.LoadDeferred(b.Dir); err != nil {
			err = fmt.Errorf("layer %s: %w", LayerBoundaries, err)
		}
		return err
	})
	var finder *timezone.Finder
	run(5, func() (err error) {
		start := time.Now()
		if finder, err = timezone.NewFinder(); err != nil {
			return fmt.Errorf("layer %s: %w", LayerTimeZone, err)
		}
		slog.Info("time-zone polygons loaded", "took", time.Since(start).Round(time.Millisecond))
		return nil
	})
	run(1, func() (err error) {
		if b.Zip4, err = zip4.LoadDeferred(b.Dir); err != nil {
			err = fmt.Errorf("layer %s: %w", LayerZip4, err)
		}
		return err
	})
	run(2, func() (err error) {
		if b.Geocoder, err = geocode.LoadDeferred(b.Dir); err != nil {
			err = fmt.Errorf("layer %s: %w", LayerGeocode, err)
		}
		return err
	})
	run(3, func() (err error) {
		if b.Covid, err = covid.Load(b.Dir); err != nil {
			err = fmt.Errorf("layer %s: %w", LayerCovid, err)
		}
		return err
	})
	run(4, func() (err error) {
		if b.Map, err = mapdata.LoadDeferred(b.Dir); err != nil {
			err = fmt.Errorf("layer %s: %w", LayerMap, err)
		}
		return err
	})
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	var err error
	if b.TimeZones, err = timezone.NewIndex(timezone.Options{Finder: finder, Areas: boundaryAreas{b.Boundaries}, Clock: time.Now}); err != nil {
		return fmt.Errorf("layer %s: %w", LayerTimeZone, err)
	}
	return nil
}

// Verify runs the checks Open left for later: the routing graphs'
// checksums (every profile's), then the large layers' checksums and
// range checks (boundaries, zip4, geocode, mapdata): a corrupt file is
// an error naming it.
func (b *Bundle) Verify() error {
	for _, p := range b.Profiles() {
		if g := b.GraphFor(p); g != nil {
			if err := g.Verify(); err != nil {
				return err
			}
		}
	}
	for _, l := range []struct {
		name   string
		verify func() error
	}{
		{LayerBoundaries, b.Boundaries.Verify},
		{LayerZip4, b.Zip4.Verify},
		{LayerGeocode, b.Geocoder.Verify},
		{LayerMap, b.Map.Verify},
	} {
		if err := l.verify(); err != nil {
			return fmt.Errorf("data bundle %s: layer %s: %w", b.Dir, l.name, err)
		}
	}
	return nil
}

// Release lets the pages of the bundle's memory-mapped files leave the
// process's resident set (it is no longer served); anything that still
// reads them reads them again from the files, which stay mapped.
func (b *Bundle) Release() {
	for _, p := range b.Profiles() {
		if g := b.GraphFor(p); g != nil {
			g.Release()
		}
	}
}

// Name is the data set's name: the manifest's (the extract's file name
// without its extensions), else the graph's source.
func (b *Bundle) Name() string {
	if name := b.Manifest.Name(); strings.TrimSpace(name) != "" || b.Graph == nil {
		return name
	}
	return b.Graph.Meta().Source
}

// OSMTimestamp is the data date of the extract, from the manifest or the
// graph; zero when neither knows it.
func (b *Bundle) OSMTimestamp() time.Time {
	if t := b.Manifest.OSMTimestamp; !t.IsZero() || b.Graph == nil {
		return t
	}
	return b.Graph.Meta().Timestamp
}

// BBox is the routing graph's extent [west, south, east, north] at OSM's
// 7 decimals; nil without a graph.
func (b *Bundle) BBox() *[4]float64 {
	if b.Graph == nil {
		return nil
	}
	bb := b.Graph.Bounds()
	// float32 node coordinates widened to float64 would print as
	// -74.96052680000001.
	return &[4]float64{geo.Round7(bb.Min[0]), geo.Round7(bb.Min[1]), geo.Round7(bb.Max[0]), geo.Round7(bb.Max[1])}
}

// Attribution credits the data sets the bundle answers from besides
// OpenStreetMap: the world base layer's sources (always, as the boundary
// lookups fall back to it) and the COVID-19 layer's.
func (b *Bundle) Attribution() []string {
	var out []string
	if srcs, err := world.Sources(); err == nil {
		for _, s := range srcs {
			out = append(out, fmt.Sprintf("%s (%s, via %s %s)", s.Data, s.DataLicense, s.Package, s.Version))
		}
	}
	if b.Covid != nil {
		out = append(out, b.Covid.Attribution()...)
	}
	return out
}

// boundaryAreas shows the boundary layer's administrative areas to the
// time-zone index.
type boundaryAreas struct{ l *boundary.Layer }

func toTZArea(a *boundary.Area) timezone.Area {
	return timezone.Area{ID: a.ID, Name: a.Name, CountryISO3: a.CountryISO3, Level: a.AdminLevel, Point: a.RepPoint}
}

// MostSpecific is the admin area of highest admin_level containing p.
func (b boundaryAreas) MostSpecific(p orb.Point) (timezone.Area, bool) {
	a, ok := b.l.MostSpecificAdmin(p)
	if !ok {
		return timezone.Area{}, false
	}
	return toTZArea(a), true
}

// All is every administrative area.
func (b boundaryAreas) All() []timezone.Area {
	var out []timezone.Area
	for _, a := range b.l.Areas() {
		if a.Kind == boundary.KindAdmin {
			out = append(out, toTZArea(a))
		}
	}
	return out
}
