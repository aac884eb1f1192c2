package soap

import "github.com/geosvc/geosvc/routing"

// roadDataName is a route's RoadDataName: the bundle's name and the date
// of its OpenStreetMap data ("delaware (OSM 2026-01-02)"), the name alone
// when the data has no date. RouteResult has no field for a data set:
// WantDataSet is accepted and ignored.
func (s *Service) roadDataName(g *routing.Graph) string {
	name := ""
	if b := s.opts.Bundle.Load(); b != nil {
		name = b.Name()
	}
	ts := g.Meta().Timestamp
	switch {
	case ts.IsZero():
		return name
	case name == "":
		return "OSM " + ts.UTC().Format("2006-01-02")
	}
	return name + " (OSM " + ts.UTC().Format("2006-01-02") + ")"
}
