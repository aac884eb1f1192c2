package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/geosvc/geosvc/geo/world/internal/config"
	"github.com/geosvc/geosvc/geo/world/internal/topojson"
	"github.com/geosvc/geosvc/geo/world/internal/worldfile"
)

// censusFeatures builds the state and county features of us-atlas's
// counties topology: the states object (merged from the counties, so the
// two layers share their borders) and the counties, named by cfg's rule.
// statesTopo is us-atlas's states-10m.json, whose states must have the
// same ids and names.
func censusFeatures(t, statesTopo *topojson.Topology, topo uint8, cfg *config.Counties) ([]worldfile.Feature, error) {
	states, err := collection(t, "states")
	if err != nil {
		return nil, err
	}
	other, err := collection(statesTopo, "states")
	if err != nil {
		return nil, fmt.Errorf("states-10m.json: %w", err)
	}
	otherNames := map[string]string{}
	for _, g := range other.Geometries {
		otherNames[g.ID] = g.StringProperty("name")
	}
	var fs []worldfile.Feature
	stateName := map[string]string{}
	for _, g := range states.Geometries {
		name := g.StringProperty("name")
		if !digits(g.ID, 2) || name == "" || stateName[g.ID] != "" {
			return nil, fmt.Errorf("state %q %q: want a new 2-digit FIPS code and a name", g.ID, name)
		}
		if otherNames[g.ID] != name {
			return nil, fmt.Errorf("state %s is %q in counties-10m.json, %q in states-10m.json", g.ID, name, otherNames[g.ID])
		}
		stateName[g.ID] = name
		fs = append(fs, worldfile.Feature{Kind: worldfile.KindState, Topology: topo, ID: g.ID, ISO2: "US", Name: name, Polygons: refs32(g.Polygons)})
	}
	if len(otherNames) != len(stateName) {
		return nil, fmt.Errorf("%d states in counties-10m.json, %d in states-10m.json", len(stateName), len(otherNames))
	}
	for st := range cfg.States {
		if stateName[st] == "" {
			return nil, fmt.Errorf("counties.states names %s, which is no state of the data", st)
		}
	}
	counties, err := collection(t, "counties")
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var missing []string
	for _, g := range counties.Geometries {
		name := g.StringProperty("name")
		if !digits(g.ID, 5) || name == "" || seen[g.ID] {
			return nil, fmt.Errorf("county %q %q: want a new 5-digit FIPS code and a name", g.ID, name)
		}
		if stateName[g.ID[:2]] == "" {
			return nil, fmt.Errorf("county %s %q: no state %s in the data", g.ID, name, g.ID[:2])
		}
		seen[g.ID] = true
		if _, miss := cfg.Describe(g.ID); miss {
			missing = append(missing, g.ID+" "+name)
		}
		fs = append(fs, worldfile.Feature{Kind: worldfile.KindCounty, Topology: topo, ID: g.ID, ISO2: "US", Name: cfg.FullName(g.ID, name), Polygons: refs32(g.Polygons)})
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("counties without the entry of their own counties.listed asks for: %s", strings.Join(missing, "; "))
	}
	var unknown []string
	for fips := range cfg.Counties {
		if !seen[fips] {
			unknown = append(unknown, fips)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, fmt.Errorf("counties.counties names counties the data does not have: %v", unknown)
	}
	return fs, nil
}

// collection returns the GeometryCollection object name of t.
func collection(t *topojson.Topology, name string) (*topojson.Geometry, error) {
	g := t.Objects[name]
	if g == nil || g.Type != topojson.TypeGeometryCollection {
		return nil, fmt.Errorf("no %s collection", name)
	}
	return g, nil
}
