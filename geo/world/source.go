package world

import "github.com/geosvc/geosvc/geo/world/internal/worldfile"

// Source describes where a part of the layer comes from, for attribution.
type Source struct {
	// Name is the value of Feature.Source: "naturalearth" or "census".
	Name string
	// Data says what the data is ("Natural Earth 4.1.0 Admin 0 -
	// Countries, 1:10m") and DataLicense its licence ("public domain").
	Data, DataLicense string
	// Package, Version and PackageLicense name the npm package the data
	// was converted from ("world-atlas", "2.0.2", "ISC").
	Package, Version, PackageLicense string
	// File is the package's file read, SHA256 its hex digest.
	File, SHA256 string
	// Step is the source's quantization grid step in degrees, longitude
	// then latitude: the precision of every coordinate.
	Step [2]float64
}

// Metres per degree at the equator on the WGS 84 ellipsoid: of longitude
// (2π × 6,378,137 m / 360) and of latitude (the meridian arc there).
const (
	metresPerDegreeLon = 111319.49
	metresPerDegreeLat = 110574.27
)

// StepMetres returns Step in metres at the equator (a longitude step
// shrinks with the cosine of the latitude away from it).
func (s Source) StepMetres() (lon, lat float64) {
	return s.Step[0] * metresPerDegreeLon, s.Step[1] * metresPerDegreeLat
}

// Sources returns the layer's sources: Natural Earth's countries, then
// the Census Bureau's states and counties.
func Sources() ([]Source, error) {
	l, err := decoded()
	if err != nil {
		return nil, err
	}
	return l.sources, nil
}

func sourceOf(t worldfile.Topology) Source {
	s := t.Source
	return Source{
		Name: s.Name, Data: s.Data, DataLicense: s.DataLicense,
		Package: s.Package, Version: s.Version, PackageLicense: s.PackageLicense,
		File: s.File, SHA256: s.SHA256,
		Step: t.Scale,
	}
}
