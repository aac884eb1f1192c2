package main

import (
	"flag"
	"fmt"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/api"
	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/covid"
)

// healthLayerName is the health alert zone layer's name in manifest.json.
const healthLayerName = "health"

// The health layer's `geosvc build` flags: the directory of the case
// series (without it, the snapshot committed with geosvc) and the NYT
// state series, which may not be shipped.
var healthDataDir, healthNYT string

func init() {
	dataLayers = append(dataLayers, dataLayer{
		name: healthLayerName,
		// After the boundary layer: the US states' and counties' areas
		// give their records a business density.
		order:   60,
		version: covid.FileVersion,
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&healthDataDir, "health-data", "", "`DIR` of the COVID-19 case series (jhu/, nyc/, as in shared/data/covid) to build the health layer from (default: the snapshot embedded in geosvc)")
			fs.StringVar(&healthNYT, "health-nyt", "", "the New York Times us-states.csv `FILE` (free for non-commercial use only, never shipped): US state records from it instead of the sums of JHU's counties")
		},
		inputs: func() []string {
			var in []string
			if healthNYT != "" {
				in = append(in, healthNYT)
			}
			return in
		},
		build: buildHealth,
		load: func(dir string, ls *loadedLayers) error {
			l, err := covid.Load(dir)
			if err != nil {
				return err
			}
			ls.byName[healthLayerName] = l
			return nil
		},
		register: func(g *echo.Group, ls *loadedLayers) {
			api.RegisterCovid(g, api.CovidOptions{
				Layer: func() *covid.Layer {
					l, _ := ls.get(healthLayerName).(*covid.Layer)
					return l
				},
				Boundaries: func() *boundary.Layer {
					l, _ := ls.get(boundaryLayerName).(*boundary.Layer)
					return l
				},
			})
		},
	})
}

// buildHealth writes health.bin: the case series (the embedded snapshot,
// or --health-data, plus --health-nyt) and the business density grid of
// the extract, with the densities of the US states and counties lying
// inside it.
func buildHealth(bc *buildContext) (string, error) {
	opts := covid.BuildOptions{DataDir: healthDataDir, OSMPath: bc.OSMPath, Areas: usAreas()}
	if healthNYT != "" {
		opts.Files = map[string]string{"nyt-states": healthNYT}
	}
	l, rep, err := covid.Build(opts)
	if err != nil {
		return "", err
	}
	if err := l.WriteFile(bc.Out); err != nil {
		return "", err
	}
	src := "the snapshot embedded in geosvc"
	if healthDataDir != "" {
		src = healthDataDir
	}
	fmt.Printf("layer health: from %s%s: %s\n", src, map[bool]string{true: " and the NYT state series", false: ""}[healthNYT != ""], rep)
	return covid.FileName, nil
}

// usAreas returns the world base layer's US states and counties by their
// health record ids (USA|10, USA|10|10001).
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
