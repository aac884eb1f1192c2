package bundle

import (
	"fmt"
	"strings"

	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/covid"
	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/geo/mapdata"
	"github.com/geosvc/geosvc/geo/zip4"
	"github.com/geosvc/geosvc/routing"
)

// layout is the version of the bundle directory layout (which files, the
// manifest); bump it when a layer is added or changes. Layout 2: the
// routing graphs of other profiles than the car's, each in a directory of
// its name (bicycle/routing.graph, ...), listed in the manifest's
// profiles.
const layout = 2

// Layer names, as manifest.json lists them.
const (
	LayerRouting    = "routing"
	LayerBoundaries = "boundaries"
	LayerZip4       = "zip4"
	LayerTimeZone   = "timezone"
	LayerGeocode    = "geocode"
	LayerCovid      = "health"
	LayerMap        = "mapdata"
)

// layerVersions are the layers' file format versions in build order (the
// time-zone layer has no file: 0).
var layerVersions = []struct {
	name    string
	version int
}{
	{LayerBoundaries, boundary.FileVersion},
	{LayerZip4, zip4.FileVersion},
	{LayerTimeZone, 0},
	{LayerGeocode, geocode.FileVersion},
	{LayerCovid, covid.FileVersion},
	{LayerMap, mapdata.FileVersion},
}

// Version is the version of the bundles this binary writes and reads: the
// directory layout, the routing graph's file format, and each layer's
// own format version ("1.5+boundaries/2,zip4/2,..."), so that a binary
// with another set of layers, or a layer of another format, sees an older
// bundle as stale and `make run` rebuilds it.
func Version() string {
	parts := make([]string, len(layerVersions))
	for i, l := range layerVersions {
		parts[i] = fmt.Sprintf("%s/%d", l.name, l.version)
	}
	return fmt.Sprintf("%d.%d+%s", layout, routing.FormatVersion(), strings.Join(parts, ","))
}
