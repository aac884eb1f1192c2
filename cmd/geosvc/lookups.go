package main

import (
	"log/slog"
	"math"
	"os"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/api"
	"github.com/geosvc/geosvc/bundle"
)

// Environment variables of the reverse geocoder's tolerances, in metres.
const (
	envGeocodeAddressTolerance = "GEOSVC_GEOCODER_ADDRESS_TOLERANCE_M"
	envGeocodeStreetTolerance  = "GEOSVC_GEOCODER_STREET_TOLERANCE_M"
)

// registerLookups adds the interfaces that answer from the bundle's
// layers to the protected group g: zip4v1, geocoderv1, timezonesv1,
// adminv1, geoboundariesv1, covidv1, routev1, matchv1, isochronev1,
// mapsv1 (static maps), and the batches of geocoderv1 and lookupsv1.
// They answer 503 until cur holds a bundle.
func registerLookups(g *echo.Group, cur *bundle.Current) {
	api.RegisterZip4(g, api.Zip4Options{Bundle: cur})
	api.RegisterGeocoder(g, api.GeocoderOptions{
		Bundle:           cur,
		AddressTolerance: envMetres(envGeocodeAddressTolerance),
		StreetTolerance:  envMetres(envGeocodeStreetTolerance),
	})
	api.RegisterTimezones(g, api.TimezonesOptions{Bundle: cur})
	bo := api.BoundaryOptions{Bundle: cur}
	api.RegisterAdmin(g, bo)
	api.RegisterGeoBoundaries(g, bo)
	api.RegisterCovid(g, api.CovidOptions{Bundle: cur})
	api.RegisterRoute(g, api.RouteOptions{Bundle: cur})
	api.RegisterMatch(g, api.MatchOptions{Bundle: cur})
	api.RegisterIsochrone(g, api.IsochroneOptions{Bundle: cur})
	api.RegisterStaticMaps(g, api.StaticMapOptions{Bundle: cur})
	api.RegisterBatch(g, api.BatchOptions{
		Bundle:           cur,
		AddressTolerance: envMetres(envGeocodeAddressTolerance),
		StreetTolerance:  envMetres(envGeocodeStreetTolerance),
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
