package api

// osrmDifferences are the differences from OSRM's own answers that
// docs/osrm.md states ("Compared with OSRM itself"), each with its
// reason; TestOSRMReference fails on any other, and on a number of a
// bounded one beyond its bound (measured on the recordings: the bound is
// the measure rounded up).
var osrmDifferences = []osrmDifference{
	// Weights and the step model.
	{path: "routes[].weight_name", why: "OSRM's car.lua weighs by routability, geosvc by duration"},
	{path: "trips[].weight_name", why: "OSRM's car.lua weighs by routability, geosvc by duration"},
	{path: "matchings[].weight_name", why: "OSRM's car.lua weighs by routability, geosvc by duration"},
	{path: "routes[].legs[].steps", kind: "length", why: "steps are geosvc's route description: OSRM has other step breaks (continue, end of road, name changes it suppresses)"},
	{req: "route-ramp-steps|route-s2-w2-steps", path: "routes[].legs[].summary", kind: "value", why: "OSRM counts the roads at the route's two ends by its own partial segments (ramp.osm: it leaves out the motorway driven 111 m from the start)"},
	{path: "routes[].legs[].steps[].intersections[]", why: "geosvc gives one intersection per step with the roads in and out only; OSRM every road of every intersection passed"},
	{path: "routes[].legs[].steps[].maneuver.type", req: "route-ramp-steps", why: "off a ramp onto a road at an angle: geosvc turn, OSRM new name"},
	{path: "routes[].legs[].steps[].ref", why: "geosvc writes route numbers normalized (I-95), OSRM the tag (I 95)"},
	{path: "routes[].legs[].steps[].destinations", why: "geosvc writes route numbers normalized (US-13), OSRM the tag (US 13)"},
	{path: "routes[].legs[].steps[].exits", kind: "extra", why: "geosvc takes a ramp's exit number from its motorway_junction node too, OSRM only from the way's junction:ref"},
	{path: "routes[].legs[].annotation.metadata.datasource_names", why: "geosvc names its one source profile, OSRM lua profile"},
	{path: "routes[].legs[].annotation.speed", within: 0.08, why: "OSRM's speed is of durations rounded to 0.1 s per stretch (22 m in 3.0 s vs 3.2 s)"},
	{path: "routes", req: "route-alternatives|route-alternatives-2", kind: "length", why: "OSRM's CH finds at most one alternative route; geosvc up to alternatives="},
	// Snapping: every component of a fixture is small in OSRM's terms.
	{set: "island.osm", req: "route-no-route|table-unreachable|table-fallback|trip-unreachable", why: "geosvc snaps to a road of the main component within the radius, OSRM (whose components under 1000 nodes are all small, a fixture's every one) to the nearest: the island point snaps to Side Street, 1455 m off, so a route exists"},
	// A tie at a via point.
	{set: "island.osm", req: "route-via-continue-default|route-via-continue-true", path: "routes[].legs[]", why: "both go on straight through the via point and turn at the dead end C; which leg turns follows each one's cost of turning round there: OSRM passes the via point southbound (round at C on the first leg, 254.3 + 143.7 m, 84.8 s), geosvc northbound (round at C on the second, 144.6 + 255.8 m, 85.1 s)"},
	// Delaware: two speed models.
	{set: "delaware", path: "durations", within: 0.015, why: "car.lua's speeds and turn penalties vs geosvc's car.yaml: -75.55,39.74 to -75.654,39.614: 982 s vs 993.6 s (1.2 %)"},
	{set: "delaware", path: "distances", within: 0.11, why: "the speed models choose other roads: -75.55,39.74 to -75.72,39.45: 41111 m vs 45629.3 m (9.9 %)"},
	{set: "delaware", req: "route-dover-lewes-geojson", path: "routes[].geometry", why: "overview=simplified: geosvc's Douglas-Peucker at 5 m keeps 164 points, OSRM's zoom-level generalization 20, up to 272 m off the road"},
	{set: "delaware", req: "nearest-3", path: "waypoints[].nodes", why: "the same two nodes, geosvc in the way's order, OSRM in its edge's direction"},
	{set: "delaware", req: "match-academy", path: "matchings[].confidence", why: "geosvc's map matching (docs/matching.md) scores its own confidence: 0.893 vs 0.980"},
	{set: "delaware", req: "match-academy", path: "tracepoints[].alternatives_count", why: "geosvc counts its own candidates"},
}
