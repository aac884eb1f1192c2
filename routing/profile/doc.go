// Package profile holds the car routing profile: the speeds, access rules,
// turn-cost parameters and road categories read from configs/car.yaml
// (modelled on OSRM's car.lua), and the pure parsers of the OSM tags they
// apply to (maxspeed, oneway, access, duration), kept inside.
// Profile.Way, Profile.Node and Profile.Restriction turn a way's, a node's
// and a restriction relation's tags into what the road import keeps;
// Profile.TurnCostS is the turn cost the graph builder applies.
package profile
