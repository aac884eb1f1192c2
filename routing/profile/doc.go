// Package profile holds the car routing profile: the speeds, access rules,
// turn-cost parameters and road categories read from configs/car.yaml, and
// the parsers for the OSM tags they apply to (maxspeed, oneway, access).
package profile
