package bundle

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/covid"
	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/geo/mapdata"
	"github.com/geosvc/geosvc/geo/zip4"
	"github.com/geosvc/geosvc/internal/progress"
)

// buildContext is what the layer builds share.
type buildContext struct {
	ctx  context.Context
	opts Options
	// countries are the countries the extract's roads lie in.
	countries countryShares
}

// layerBuild is one layer's build step: it writes the layer's file into
// the bundle directory, reading the layers built before it from there,
// and returns the file's name.
type layerBuild struct {
	name  string
	build func(bc *buildContext) (file string, err error)
}

// layerBuilds are the layers besides the routing graph, in build order:
// the boundary layer first, as the others take their areas from it.
var layerBuilds = []layerBuild{
	{LayerBoundaries, (*buildContext).boundaries},
	{LayerZip4, (*buildContext).zip4},
	{LayerGeocode, (*buildContext).geocoder},
	{LayerCovid, (*buildContext).covid},
	{LayerMap, (*buildContext).mapData},
}

// buildLayers builds every layer into the bundle directory, each a stage
// of the progress printer (with how far it has read the extract), and
// returns their manifest entries.
func (bc *buildContext) buildLayers() ([]Layer, error) {
	var out []Layer
	for _, l := range layerBuilds {
		if err := bc.ctx.Err(); err != nil {
			return nil, err
		}
		stage := bc.opts.Progress.Start("layer "+l.name, progress.FileRead(bc.opts.OSMPath))
		file, err := l.build(bc)
		took := stage.Done()
		if err != nil {
			return nil, fmt.Errorf("layer %s: %w", l.name, err)
		}
		fi, err := os.Stat(filepath.Join(bc.opts.Out, file))
		if err != nil {
			return nil, fmt.Errorf("layer %s: %w", l.name, err)
		}
		bc.printf("layer %s: %s, %d KB, %v\n", l.name, file, fi.Size()>>10, took.Round(time.Millisecond))
		out = append(out, Layer{Name: l.name, File: file, Size: fi.Size()})
	}
	return out, nil
}

// printf writes to the build's report.
func (bc *buildContext) printf(format string, args ...any) {
	fmt.Fprintf(bc.opts.Report, format, args...)
}

// boundaries writes boundaries.bin: the extract's administrative and
// other boundaries, with the --boundaries GeoJSON files.
func (bc *buildContext) boundaries() (string, error) {
	rep, err := boundary.Build(boundary.BuildOptions{OSMPath: bc.opts.OSMPath, Out: bc.opts.Out, GeoJSON: bc.opts.Boundaries})
	if err != nil {
		return "", err
	}
	bc.printf("%s\n", rep.String())
	return boundary.FileName, nil
}

// zip4 writes zip4.bin: derived from the extract's TIGER streets, or read
// from Options.Zip4; the counties come from the boundary layer built
// before. An extract with no road in the United States gets an empty
// layer without reading its roads (zip4v1 then answers every point with
// the empty collection).
func (bc *buildContext) zip4() (string, error) {
	if bc.opts.Zip4 == "" && !bc.countries.has("US") {
		if err := zip4.NewLayer(nil, zip4.Meta{Source: zip4.SourceDerived, Derived: true}).WriteFile(bc.opts.Out); err != nil {
			return "", err
		}
		bc.printf("layer zip4: skipped: the extract has no road in the United States (%s)\n", bc.countries)
		return zip4.FileName, nil
	}
	b, err := boundary.Load(bc.opts.Out)
	if err != nil {
		bc.printf("layer zip4: no boundary layer (%v): features get no county FIPS\n", err)
		b = nil
	}
	meta, err := zip4.Build(zip4.BuildOptions{OSMPath: bc.opts.OSMPath, Out: bc.opts.Out, File: bc.opts.Zip4, Boundaries: b})
	if err != nil {
		return "", err
	}
	if meta.Report != nil {
		bc.printf("layer zip4: derived from TIGER streets (+4 codes are not USPS codes): %s\n", meta.Report)
	} else {
		bc.printf("layer zip4: %d features from %s\n", meta.Features, meta.Input)
	}
	return zip4.FileName, nil
}

// geocoder writes geocode.bin, the gazetteer, with the city, county and
// state of each feature from the boundary layer.
func (bc *buildContext) geocoder() (string, error) {
	var admins geocode.AdminLookup
	if l, err := boundary.Load(bc.opts.Out); err == nil {
		admins = geocode.BoundaryAdmins(l)
	} else {
		bc.printf("layer %s: no boundary layer (%v): city, county and state from place nodes and TIGER tags\n", LayerGeocode, err)
	}
	ix, err := geocode.Build(bc.opts.OSMPath, geocode.BuildOptions{Admins: admins})
	if err != nil {
		return "", err
	}
	if err := ix.Save(bc.opts.Out); err != nil {
		return "", err
	}
	bc.printf("layer %s: %v\n", LayerGeocode, ix.Meta().Counts)
	return geocode.FileName, nil
}

// covid writes health.bin: the case series (the embedded snapshot, or
// Options.CovidData, plus Options.CovidNYT) and the business density
// grid of the extract, with the densities of the US states and counties
// lying inside it.
func (bc *buildContext) covid() (string, error) {
	opts := covid.BuildOptions{DataDir: bc.opts.CovidData, OSMPath: bc.opts.OSMPath, Areas: usAreas()}
	if bc.opts.CovidNYT != "" {
		opts.Files = map[string]string{"nyt-states": bc.opts.CovidNYT}
	}
	l, rep, err := covid.Build(opts)
	if err != nil {
		return "", err
	}
	if err := l.WriteFile(bc.opts.Out); err != nil {
		return "", err
	}
	src := "the snapshot embedded in geosvc"
	if bc.opts.CovidData != "" {
		src = bc.opts.CovidData
	}
	nyt := ""
	if bc.opts.CovidNYT != "" {
		nyt = " and the NYT state series"
	}
	bc.printf("layer health: from %s%s: %s\n", src, nyt, rep)
	return covid.FileName, nil
}

// mapData writes mapdata.bin: the areas, lines and places maps draw.
func (bc *buildContext) mapData() (string, error) {
	_, rep, err := mapdata.Build(mapdata.BuildOptions{OSMPath: bc.opts.OSMPath, Out: bc.opts.Out})
	if err != nil {
		return "", err
	}
	bc.printf("%s\n", rep.String())
	return mapdata.FileName, nil
}

// usAreas returns the world base layer's US states and counties by their
// COVID-19 record ids (USA|10, USA|10|10001).
func usAreas() map[string]orb.MultiPolygon {
	w, err := boundary.World()
	if err != nil {
		return nil
	}
	out := map[string]orb.MultiPolygon{}
	for _, a := range w.Areas() {
		if a.CountryISO2 != "US" || a.Admin < 1 || a.ID < boundary.BaseUSID {
			continue
		}
		fips := a.ID - boundary.BaseUSID
		if a.Admin == 1 {
			out[covid.StateID(fmt.Sprintf("%02d", fips))] = a.Geometry()
		} else {
			out[covid.CountyID(fmt.Sprintf("%05d", fips))] = a.Geometry()
		}
	}
	return out
}

// countryShares is how many of a sample of the extract's road vertices lie
// in each country (ISO 3166-1 alpha-2), by the world base layer.
type countryShares map[string]int

// has reports whether any sampled vertex lies in country cc.
func (c countryShares) has(cc string) bool { return c[cc] > 0 }

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
