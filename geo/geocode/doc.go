// Package geocode owns geosvc's gazetteer: an index of address points,
// address interpolation ranges, named streets, places, postcodes and named
// POIs built from an OSM extract (Build), stored in the bundle as
// geocode.bin (Save, Load), and searched forward (Forward: free-form or
// structured text to candidates) and in reverse (Reverse: a point to the
// closest addressable location and its context).
//
// Candidates are structured (components, location, location type,
// viewport, stable place id, partial match), not HTTP responses: the REST
// geocoder (api/geocoder.go) and the SOAP gazetteer both render them.
//
// Names and queries are normalised with the tables of configs/geocode.yaml
// (Tables): case, accents, punctuation, street types, directionals,
// ordinals and common European forms.
package geocode
