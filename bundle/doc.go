// Package bundle owns geosvc's data bundle: building it from an
// OpenStreetMap extract (Build) and opening it for serving (Open). A
// bundle is a directory of layer files listed in manifest.json: the
// routing graph with its hierarchies and snapping index, the boundary,
// ZIP+4, geocoder, COVID-19 and map layers; the time-zone layer has no
// file of its own (its polygons are compiled in) and is indexed at Open
// over the boundary layer.
//
// An opened bundle is one typed value, *Bundle, with a field per layer.
// A server holds the bundle it serves in a Current, one atomic pointer
// that handlers read once per request, so that a new bundle can replace
// it without touching them.
//
// The build is staged as OSRM's pipeline is (read, contract, write) with a
// file format between it and serving: servers never parse OSM.
package bundle
