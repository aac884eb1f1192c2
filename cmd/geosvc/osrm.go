package main

import (
	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/api"
	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/cmd/geosvc/internal/config"
)

// registerOSRM adds the OSRM-compatible API (/osrm/..., docs/osrm.md) to
// the protected group g with the limits of the configuration.
func registerOSRM(g *echo.Group, cur *bundle.Current, c config.OSRM) {
	api.RegisterOSRM(g, api.OSRMOptions{Bundle: cur, Limits: api.OSRMLimits{
		MaxTableSize: c.MaxTableSize, MaxViarouteSize: c.MaxViarouteSize, MaxTripSize: c.MaxTripSize,
		MaxNearestSize: c.MaxNearestSize, MaxMatchingSize: c.MaxMatchingSize, MaxAlternatives: c.MaxAlternatives,
	}})
}
