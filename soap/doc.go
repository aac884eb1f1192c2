// Package soap is geosvc's SOAP location service: the WSDL
// (location.wsdl, document/literal, SOAP 1.1 and 1.2 bindings of the
// fourteen operations of SPEC.md), the envelopes and faults of both SOAP
// versions, the SubscriptionKey check (the REST interfaces' key store,
// interface "soap") and the operations: the gazetteer
// (GazetteerSimple, Gazetteer: address validation and completion on the
// geocoder's index), RoutePlannerSimple and RoutePlanner (routing's graph,
// its turn-by-turn steps described in six languages, stops ordered by
// routing.BestOrder for TSP), ProximitySimple and Proximity (places,
// postcodes, streets or your own locations around a point, by straight
// line, road distance or drive time), the location sets
// (LocationCreateSetSimple, LocationUpload, LocationDeleteSetSimple, kept
// in Redis), the maps (MapSimple and Map drawn by geo/render from the
// routing graph's roads; MapDisplaceLocations, MapGetLocation) and
// LocationGetSubscriptionKey.
package soap
