package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/api"
	"github.com/geosvc/geosvc/geo/boundary"
)

// boundaryLayerName is the boundary layer's name in manifest.json; the
// layers built after it (time zones, ZIP+4, the geocoder) find the loaded
// *boundary.Layer under it.
const boundaryLayerName = "boundaries"

// boundaryGeoJSON holds the --boundaries flag values.
var boundaryGeoJSON stringList

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func init() {
	dataLayers = append(dataLayers, dataLayer{
		name:    boundaryLayerName,
		order:   10,
		version: boundary.FileVersion,
		flags: func(fs *flag.FlagSet) {
			boundaryGeoJSON = nil // a flag set per run, as the other flags
			fs.Var(&boundaryGeoJSON, "boundaries", "GeoJSON `FILE` of areas to add or replace in the boundary layer (properties name, iso_a3, admin_level or category; repeatable)")
		},
		inputs: func() []string { return boundaryGeoJSON },
		build: func(bc *buildContext) (string, error) {
			rep, err := boundary.Build(boundary.BuildOptions{OSMPath: bc.OSMPath, Out: bc.Out, GeoJSON: boundaryGeoJSON})
			if err != nil {
				return "", err
			}
			fmt.Println(rep.String())
			return boundary.FileName, nil
		},
		load: func(dir string, ls *loadedLayers) error {
			l, err := boundary.Load(dir)
			if err != nil {
				return err
			}
			ls.byName[boundaryLayerName] = l
			return nil
		},
		register: func(g *echo.Group, ls *loadedLayers) {
			opts := api.BoundaryOptions{Layer: func() *boundary.Layer {
				l, _ := ls.get(boundaryLayerName).(*boundary.Layer)
				return l
			}}
			api.RegisterAdmin(g, opts)
			api.RegisterGeoBoundaries(g, opts)
		},
	})
}
