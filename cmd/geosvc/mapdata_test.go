package main

import (
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/mapdata"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// TestMapLayerInBundle: `geosvc build` writes the map layer into the
// manifest, and bundle.Open opens it, with the sea in Delaware Bay.
func TestMapLayerInBundle(t *testing.T) {
	dir, err := delawareBundle(t)
	extracts.Need(t, err)
	m, err := bundle.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range m.Layers {
		if l.Name == bundle.LayerMap && l.File == mapdata.FileName && l.Size > 0 {
			found = true
		}
	}
	if !found {
		t.Fatalf("manifest layers %+v have no %s", m.Layers, bundle.LayerMap)
	}
	b, err := bundle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l := b.Map
	if l == nil {
		t.Fatal("no map layer after loading")
	}
	bay := orb.Point{-75.2, 39.1}
	water := false
	for _, a := range l.Areas(orb.Bound{Min: bay, Max: bay}, 10) {
		water = water || a.Class == mapdata.Water
	}
	if !water {
		t.Error("no water in Delaware Bay in the loaded layer")
	}
}
