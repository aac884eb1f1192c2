// Package timezone owns geosvc's time-zone layer: the IANA zone of a point
// (offline polygons of github.com/ringsaturn/tzf), the zone's data for a
// year (standard and DST offsets, DST start and end instants from the tz
// database's transitions, English names and abbreviations from Unicode
// CLDR, the countries of IANA's zone1970.tab and zone.tab) and the
// bundle's administrative areas per zone.
//
// Time comes from one injectable clock (Options.Clock): nothing here reads
// the wall clock on its own. The tz database is Go's embedded time/tzdata,
// so a host without zoneinfo files works the same.
package timezone
