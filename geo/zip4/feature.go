package zip4

import (
	"sort"

	"github.com/paulmach/orb"
)

// Sources of a layer's features (Feature.Source, Layer.Source).
const (
	// SourceDerived marks a +4 code derived from TIGER block faces of
	// OpenStreetMap roads: not a USPS code.
	SourceDerived = "derived-tiger"
	// SourceFile marks a feature read from an authoritative ZIP+4 file
	// (geosvc build --zip4).
	SourceFile = "file"
)

// Sides of a street, relative to the direction of its OSM way
// (Feature.Side of derived features).
const (
	SideLeft  = "left"
	SideRight = "right"
)

// Feature is one ZIP+4 area as the layer is built from.
type Feature struct {
	// UID is the feature's stable id: "w<way>.<face>.<L|R>" for a derived
	// block-face side (the OSM way, the face's index along it, the side),
	// the file's uid property (or "file.<index>") for a file feature.
	UID string
	// Zip9 is the nine-digit ZIP+4 code; its first five digits are the
	// ZIP5.
	Zip9 string
	// FIPS is the five-digit county FIPS code at Rep, "" when no county
	// of the bundle contains it.
	FIPS string
	// Street is the name of the street whose face this is (derived
	// features; "" when the street has no name or for file features).
	Street string
	// Side is SideLeft or SideRight for derived features, "" otherwise.
	Side string
	// Geometry is the area in lon/lat.
	Geometry orb.MultiPolygon
	// Rep is a point inside Geometry (a representative point).
	Rep orb.Point
}

// Zip returns the ZIP5 part of the feature's code.
func (f *Feature) Zip() string {
	if len(f.Zip9) < 5 {
		return f.Zip9
	}
	return f.Zip9[:5]
}

// sortFeatures puts features in zip9 order, then uid.
func sortFeatures(fs []Feature) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Zip9 != fs[j].Zip9 {
			return fs[i].Zip9 < fs[j].Zip9
		}
		return fs[i].UID < fs[j].UID
	})
}
