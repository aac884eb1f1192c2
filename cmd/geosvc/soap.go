package main

import (
	"net/http"
	"sync/atomic"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/api"
	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/soap"
)

// SOAPPath is where the SOAP location service answers (POST) and serves
// its WSDL (GET /soap, or /soap?wsdl).
const SOAPPath = "/soap"

// loadedGraph is the routing graph of the loaded bundle and the
// bundle's name.
type loadedGraph struct {
	g    *routing.Graph
	name string
}

// registerSOAP mounts the SOAP location service on srv as a public route:
// its key travels in the envelope (SubscriptionKey), which the service
// checks against the same key store as the REST interfaces.
func registerSOAP(srv *api.Server, opts soap.Options, ls *loadedLayers, graph *atomic.Pointer[loadedGraph]) {
	opts.Geocoder = func() *geocode.Index {
		ix, _ := ls.get(geocodeLayerName).(*geocode.Index)
		return ix
	}
	opts.MapLayer = ls.mapLayer
	opts.Graph = func() *routing.Graph {
		if lg := graph.Load(); lg != nil {
			return lg.g
		}
		return nil
	}
	opts.RoadDataName = func() string {
		if lg := graph.Load(); lg != nil {
			return lg.name
		}
		return ""
	}
	api.RegisterRoute(srv.Protected(), api.RouteOptions{Graph: opts.Graph})
	svc := soap.New(opts)
	srv.AddInterface(soap.Interface)
	h := echo.WrapHandler(svc)
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost} {
		srv.Public(m, SOAPPath, h)
	}
}
