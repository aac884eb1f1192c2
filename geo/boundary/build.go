package boundary

import (
	"fmt"
	"strings"
)

// BuildOptions configures Build.
type BuildOptions struct {
	// OSMPath is the OSM extract to read (.osm.pbf, .osm, .osm.bz2, .osm.gz).
	OSMPath string
	// Out is the bundle directory FileName is written into.
	Out string
	// GeoJSON are optional GeoJSON files (FeatureCollections of Polygon or
	// MultiPolygon features) whose areas are added, or replace the areas
	// of the same id: properties name, iso_a3 (or iso_a2), admin_level
	// (OSM level) or category (a geo-boundary category code or name), and
	// optionally id.
	GeoJSON []string
	// AdminLevels and GeoBoundaries are the YAML mapping tables; nil means
	// the embedded configs/admin_levels.yaml and configs/geoboundaries.yaml.
	AdminLevels, GeoBoundaries []byte
}

// Report says what Build imported and what it could not.
type Report struct {
	// Source is the OSM file's base name.
	Source string
	// Relations is the number of boundary/multipolygon relations read;
	// Ways the number of closed boundary ways read.
	Relations, Ways int
	// Admin and Geo count the areas of each kind written.
	Admin, Geo int
	// AdminByLevel counts administrative areas by OSM admin_level.
	AdminByLevel map[int]int
	// GeoByCategory counts geo-boundaries by category name.
	GeoByCategory map[string]int
	// Broken are the relations whose rings could not be closed (cut by
	// the extract's edge, or broken in OSM), by id, with the reason.
	Broken []Broken
	// Clipped are the ids of the relations written as the union of their
	// complete sub-areas (countries and states cut by the extract).
	Clipped []int64
	// FromGeoJSON counts the areas added or replaced from GeoJSON files.
	FromGeoJSON int
	// NewCategories are boundary=* values found that configs do not list,
	// each given its own category code.
	NewCategories []Category
}

// Broken is a relation the import could not assemble.
type Broken struct {
	// ID is the OSM relation id.
	ID int64
	// Name is its name tag.
	Name string
	// AdminLevel is its admin_level, 0 when none.
	AdminLevel int
	// Reason says why ("2 open rings", "3 member ways missing").
	Reason string
}

// String renders the report for the build log.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "boundaries from %s: %d relations, %d closed ways read; %d admin areas %v, %d geo-boundaries %v",
		r.Source, r.Relations, r.Ways, r.Admin, r.AdminByLevel, r.Geo, r.GeoByCategory)
	if len(r.Clipped) > 0 {
		fmt.Fprintf(&b, "\n  clipped to their complete sub-areas: %v", r.Clipped)
	}
	if len(r.Broken) > 0 {
		fmt.Fprintf(&b, "\n  %d relations not closed in the extract (left out):", len(r.Broken))
		for i, br := range r.Broken {
			if i == 20 {
				fmt.Fprintf(&b, "\n    ... %d more", len(r.Broken)-20)
				break
			}
			fmt.Fprintf(&b, "\n    r%d %q level %d: %s", br.ID, br.Name, br.AdminLevel, br.Reason)
		}
	}
	if r.FromGeoJSON > 0 {
		fmt.Fprintf(&b, "\n  %d areas from GeoJSON", r.FromGeoJSON)
	}
	for _, c := range r.NewCategories {
		fmt.Fprintf(&b, "\n  new category %d %s", c.Code, c.Name)
	}
	return b.String()
}

// Build reads the boundaries of opts.OSMPath (and opts.GeoJSON) and writes
// the layer file into opts.Out.
func Build(opts BuildOptions) (*Report, error) { return build(opts) }
