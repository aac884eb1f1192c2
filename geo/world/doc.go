// Package world owns geosvc's world base layer: real public-domain
// boundaries embedded in the binary, so that a point anywhere on Earth has
// a country, and a point in the United States also its state and county,
// whatever OSM extract the bundle was built from.
//
// The features are Natural Earth's admin-0 countries at 1:10m (version
// 4.1.0, from the npm package world-atlas 2.0.2) and the US Census
// Bureau's 2017 cartographic boundary states and counties (from the npm
// package us-atlas 3.0.1), public domain both, with the rules of
// configs/world.yaml applied (ids for the features Natural Earth leaves
// without one, full county names). They are generated into world.bin by
// internal/gen (go generate; docs/world.md says how) and decoded once, on
// first use. Features lists them; Lookup answers which one contains a
// point.
package world
