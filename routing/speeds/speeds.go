// Package speeds reads speed data a customer owns, to apply by the hour
// of the week: OSRM's segment speed file (CSV rows
// from_osm_node,to_osm_node,speed_kmh[,rate]) extended with an optional
// fifth column, the hour of the week 0..167 in local time (0 = Monday
// 00:00-00:59; a row without it applies at every hour), and a rule form
// in YAML (road class and/or a GeoJSON polygon, a factor or a speed, a
// window of days and hours).
//
// Parsing is all or nothing: the first bad line or field is an *Error
// naming it, and nothing of the file is returned. Mapping the data onto
// a road graph is package routing's (routing.Graph.MapSpeeds).
package speeds

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/geosvc/geosvc/routing/area"
)

// Hours is the number of hour-of-week buckets: 7 x 24.
const Hours = 168

// AllHours is a Segment's Hour when the row applies at every hour.
const AllHours = -1

// MaxKmh is the largest speed accepted (the routing metrics' bound).
const MaxKmh = 250

// MaxBytes is the largest speed file accepted (a request body of
// POST /admin/speeds included).
const MaxBytes = 256 << 20

// Segment is one row of a segment speed file: the directed segment
// between two consecutive OSM nodes of a way, its speed and the hour it
// applies at.
type Segment struct {
	From, To int64
	Kmh      float64
	// Rate is OSRM's optional weight rate column: checked (> 0) and kept,
	// not used by geosvc's metrics (0 when absent).
	Rate float64
	// Hour is the hour of the week 0..167, or AllHours.
	Hour int
	// Line is the row's line number in the file (1-based).
	Line int
}

// Rule is one rule of a YAML speed file: the roads it matches (a class
// list and/or an area; none of either matches every road), what it does
// to their speed (Kmh replaces it, Factor multiplies it) and when
// (Hours[h] for each hour of the week).
type Rule struct {
	// Name is the rule's name, for reports ("" when not given).
	Name string
	// Classes are OSM highway values ("primary", "motorway_link"); empty
	// matches every class.
	Classes []string
	// Area, when not empty, restricts the rule to road segments whose
	// midpoint lies inside it.
	Area area.Set
	// Exactly one of Kmh and Factor is > 0.
	Kmh, Factor float64
	// Hours[h] is true at the hours of the week the rule applies.
	Hours [Hours]bool
}

// Data is a parsed speed file.
type Data struct {
	// Segments are the rows of a CSV file, in file order.
	Segments []Segment
	// Rules are the rules of a YAML file, in file order (later rules
	// apply on top of earlier ones).
	Rules []Rule
	// Caps are conditional maximum speeds (OSM's maxspeed:conditional,
	// from the bundle, CapSegments): a segment at an hour is driven no
	// faster than its cap, after the rows and rules apply.
	Caps []Segment
	// Version names the data: the first 12 hex digits of the SHA-256 of
	// the file's bytes, the same in every process that loads the file.
	Version string
	// Format is "csv" or "yaml".
	Format string
}

// Error is a bad speed file: the line (1-based, 0 when not known), the
// field ("speed_kmh", "hour", "rules[2].hours") and what is wrong.
type Error struct {
	Line  int
	Field string
	Msg   string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s: %s", e.Line, e.Field, e.Msg)
	}
	return e.Field + ": " + e.Msg
}

// versionOf returns the version of a file's bytes.
func versionOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
}

// Parse reads a speed file by its name's extension: .yaml or .yml is the
// rule form, anything else the CSV.
func Parse(name string, b []byte) (*Data, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml":
		return ParseYAML(b)
	}
	return ParseCSV(b)
}

// FormatOf returns "yaml" for a .yaml or .yml file name, else "csv".
func FormatOf(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml":
		return "yaml"
	}
	return "csv"
}
