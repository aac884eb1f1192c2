package main

import (
	"fmt"
	"log/slog"
	"math"
	"os"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/api"
	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/geocode"
)

// geocodeLayerName is the geocoder layer's name in manifest.json.
const geocodeLayerName = "geocode"

// Environment variables of the reverse geocoder's tolerances, in metres.
const (
	envGeocodeAddressTolerance = "GEOSVC_GEOCODER_ADDRESS_TOLERANCE_M"
	envGeocodeStreetTolerance  = "GEOSVC_GEOCODER_STREET_TOLERANCE_M"
)

func init() {
	dataLayers = append(dataLayers, dataLayer{
		name:    geocodeLayerName,
		order:   60, // after the boundary layer, whose areas give the context
		version: geocode.FileVersion,
		build: func(bc *buildContext) (string, error) {
			var admins geocode.AdminLookup
			if l, err := boundary.Load(bc.Out); err == nil {
				admins = geocode.BoundaryAdmins(l)
			} else {
				fmt.Printf("layer %s: no boundary layer (%v): city, county and state from place nodes and TIGER tags\n", geocodeLayerName, err)
			}
			ix, err := geocode.Build(bc.OSMPath, geocode.BuildOptions{Admins: admins})
			if err != nil {
				return "", err
			}
			if err := ix.Save(bc.Out); err != nil {
				return "", err
			}
			fmt.Printf("layer %s: %v\n", geocodeLayerName, ix.Meta().Counts)
			return geocode.FileName, nil
		},
		load: func(dir string, ls *loadedLayers) error {
			ix, err := geocode.Load(dir)
			if err != nil {
				return err
			}
			ls.byName[geocodeLayerName] = ix
			return nil
		},
		register: func(g *echo.Group, ls *loadedLayers) {
			api.RegisterGeocoder(g, api.GeocoderOptions{
				Index: func() *geocode.Index {
					ix, _ := ls.get(geocodeLayerName).(*geocode.Index)
					return ix
				},
				AddressTolerance: envMetres(envGeocodeAddressTolerance),
				StreetTolerance:  envMetres(envGeocodeStreetTolerance),
			})
		},
	})
}

// envMetres reads a positive distance in metres from the environment, 0
// when unset (the default then applies). An invalid value is logged and
// ignored rather than silently dropped.
func envMetres(name string) float64 {
	s := os.Getenv(name)
	if s == "" {
		return 0
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v <= 0 || math.IsInf(v, 0) {
		slog.Warn("ignoring an invalid setting: want a positive number of metres; the default applies", "env", name, "value", s)
		return 0
	}
	return v
}
