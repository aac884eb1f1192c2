// Package timezone owns geosvc's time-zone layer: the IANA zone of a point
// (offline polygons of github.com/ringsaturn/tzf), the zone's data for a
// year (standard and DST offsets, DST start and end instants from the tz
// database's transitions, English names and abbreviations from Unicode
// CLDR, the countries of IANA's zone1970.tab and zone.tab) and the
// bundle's administrative areas per zone.
//
// Time comes from one injectable clock (Options.Clock, time.Now unless
// set); nothing else here reads the wall clock. Zone rules come from the
// tz database embedded in this package (tzdata.go), never from the host's
// zoneinfo files, so answers depend on the binary alone.
package timezone
