package keys

import (
	"slices"
	"strings"
)

// The interfaces a key can be allowed to call: the first path segment of
// each REST interface, and "soap" for the SOAP location service. This is
// the one list of them; an interface added to geosvc joins it here.
// KeysV1, the account interface (a key's own usage statement), is open to
// every active key whatever its interfaces and plan, and is not counted.
const (
	AdminV1         = "adminv1"
	CovidV1         = "covidv1"
	GeoBoundariesV1 = "geoboundariesv1"
	GeocoderV1      = "geocoderv1"
	IsochroneV1     = "isochronev1"
	KeysV1          = "keysv1"
	LookupsV1       = "lookupsv1"
	MapsV1          = "mapsv1"
	MatchV1         = "matchv1"
	OSRMV1          = "osrmv1"
	RouteV1         = "routev1"
	SOAP            = "soap"
	TDMV1           = "tdmv1"
	TilesV1         = "tilesv1"
	TimezonesV1     = "timezonesv1"
	Zip4V1          = "zip4v1"
)

// known is every interface name, sorted.
var known = []string{AdminV1, CovidV1, GeoBoundariesV1, GeocoderV1, IsochroneV1, KeysV1, LookupsV1, MapsV1, MatchV1, OSRMV1, RouteV1, SOAP, TDMV1, TilesV1, TimezonesV1, Zip4V1}

// Known returns every interface a key can be limited to, sorted.
func Known() []string { return slices.Clone(known) }

// IsKnown reports whether name is an interface geosvc serves.
func IsKnown(name string) bool {
	_, ok := slices.BinarySearch(known, name)
	return ok
}

// knownList is the known names for error messages: "adminv1, ...".
func knownList() string { return strings.Join(known, ", ") }
