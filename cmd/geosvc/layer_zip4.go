package main

import (
	"flag"
	"fmt"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/api"
	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/zip4"
)

// zip4File is `geosvc build --zip4 FILE`: an authoritative ZIP+4 layer
// that replaces the derived one.
var zip4File string

func init() {
	dataLayers = append(dataLayers, dataLayer{
		name: "zip4",
		// After the boundary layer (the county of each feature).
		order:   40,
		version: zip4.FileVersion,
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&zip4File, "zip4", "", "authoritative ZIP+4 GeoJSON (Polygon/MultiPolygon features with zip9, or zip + plus4) replacing the ZIP+4 layer derived from TIGER streets")
		},
		inputs: func() []string {
			if zip4File == "" {
				return nil
			}
			return []string{zip4File}
		},
		build: buildZip4,
		load: func(dir string, ls *loadedLayers) error {
			l, err := zip4.Load(dir)
			if err != nil {
				return err
			}
			ls.byName["zip4"] = l
			return nil
		},
		register: func(g *echo.Group, ls *loadedLayers) {
			api.RegisterZip4(g, api.Zip4Options{Layer: func() *zip4.Layer {
				l, _ := ls.get("zip4").(*zip4.Layer)
				return l
			}})
		},
	})
}

// buildZip4 writes zip4.bin: derived from the extract's TIGER streets, or
// read from --zip4; the counties come from the boundary layer built before.
// An extract with no road in the United States gets an empty layer
// without reading its roads (zip4v1 then answers every point with the
// empty collection).
func buildZip4(bc *buildContext) (string, error) {
	if zip4File == "" && !bc.Countries.Has("US") {
		if err := zip4.NewLayer(nil, zip4.Meta{Source: zip4.SourceDerived, Derived: true}).WriteFile(bc.Out); err != nil {
			return "", err
		}
		fmt.Printf("layer zip4: skipped: the extract has no road in the United States (%s)\n", bc.Countries)
		return zip4.FileName, nil
	}
	b, err := boundary.Load(bc.Out)
	if err != nil {
		fmt.Printf("layer zip4: no boundary layer (%v): features get no county FIPS\n", err)
		b = nil
	}
	meta, err := zip4.Build(zip4.BuildOptions{OSMPath: bc.OSMPath, Out: bc.Out, File: zip4File, Boundaries: b})
	if err != nil {
		return "", err
	}
	if meta.Report != nil {
		fmt.Printf("layer zip4: derived from TIGER streets (+4 codes are not USPS codes): %s\n", meta.Report)
	} else {
		fmt.Printf("layer zip4: %d features from %s\n", meta.Features, meta.Input)
	}
	return zip4.FileName, nil
}
