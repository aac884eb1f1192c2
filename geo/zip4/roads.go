package zip4

import (
	"fmt"
	"sort"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/osm"

	"github.com/geosvc/geosvc/geo/osmfile"
)

// Road is one OSM way of the street network the derivation reads.
type Road struct {
	// ID is the OSM way id.
	ID int64
	// Name is the street name (name, else tiger:name_base with its
	// type), "" when none.
	Name string
	// ZipLeft and ZipRight are the raw tiger:zip_left and tiger:zip_right
	// values, "" when untagged.
	ZipLeft, ZipRight string
	// Nodes are the way's node ids and Points their positions (lon/lat),
	// in way order.
	Nodes  []int64
	Points []orb.Point
}

// Tagged reports whether the road carries a TIGER ZIP on either side.
func (r *Road) Tagged() bool { return r.ZipLeft != "" || r.ZipRight != "" }

// streetHighways are the highway values of the street network: the ways
// that end block faces and bound face polygons. highway=service
// (driveways, parking aisles) counts only when TIGER gave it a ZIP.
var streetHighways = map[string]bool{
	"motorway": true, "trunk": true, "primary": true, "secondary": true, "tertiary": true,
	"unclassified": true, "residential": true, "living_street": true, "road": true,
	"motorway_link": true, "trunk_link": true, "primary_link": true, "secondary_link": true,
	"tertiary_link": true, "service": true,
}

// isStreet reports whether the way's tags make it part of the street
// network.
func isStreet(tags osm.Tags) bool {
	hw := tags.Find("highway")
	if !streetHighways[hw] || tags.Find("area") == "yes" {
		return false
	}
	if hw == "service" {
		return tags.Find("tiger:zip_left") != "" || tags.Find("tiger:zip_right") != ""
	}
	return true
}

// Source is what ReadOSM returns: the street network and the county FIPS
// codes of the extract's county relations.
type Source struct {
	// Name is the OSM file's base name.
	Name string
	// Roads is the street network, by way id.
	Roads []Road
	// CountyFIPS maps the OSM relation id of every county (admin_level 6
	// boundary relation) that has a FIPS code in its tags to that
	// five-digit code.
	CountyFIPS map[int64]string
}

// ReadOSM reads the street network and the county FIPS codes of an OSM
// file (any format geo/osmfile reads) in two passes: ways and relations,
// then the nodes of the streets.
func ReadOSM(path string) (*Source, error) {
	f, err := osmfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("zip4: %w", err)
	}
	src := &Source{Name: f.Name(), CountyFIPS: map[int64]string{}}
	_, err = f.Scan(osmfile.Filter{
		SkipNodes: true,
		Way:       func(w *osm.Way) bool { return isStreet(w.Tags) },
		Relation:  func(r *osm.Relation) bool { return countyFIPS(r.Tags) != "" },
	}, func(o osm.Object) error {
		switch o := o.(type) {
		case *osm.Way:
			r := Road{ID: int64(o.ID), Name: streetName(o.Tags),
				ZipLeft: o.Tags.Find("tiger:zip_left"), ZipRight: o.Tags.Find("tiger:zip_right")}
			r.Nodes = make([]int64, len(o.Nodes))
			for i, n := range o.Nodes {
				r.Nodes[i] = int64(n.ID)
			}
			if len(r.Nodes) >= 2 {
				src.Roads = append(src.Roads, r)
			}
		case *osm.Relation:
			src.CountyFIPS[int64(o.ID)] = countyFIPS(o.Tags)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("zip4: %w", err)
	}
	sort.Slice(src.Roads, func(i, j int) bool { return src.Roads[i].ID < src.Roads[j].ID })

	// Pass 2: the positions of the streets' nodes, written by index so
	// that the decoder goroutines never share a map write.
	n := 0
	for _, r := range src.Roads {
		n += len(r.Nodes)
	}
	ids := make([]int64, 0, n)
	for _, r := range src.Roads {
		ids = append(ids, r.Nodes...)
	}
	coords := osmfile.NewNodeCoords(ids)
	_, err = f.Scan(osmfile.Filter{SkipWays: true, SkipRelations: true, Node: func(n *osm.Node) bool {
		coords.Record(n)
		return false
	}}, func(osm.Object) error { return nil })
	if err != nil {
		return nil, fmt.Errorf("zip4: %w", err)
	}
	// Keep each way's run of nodes the extract has (a way cut by the
	// extract's edge loses the missing ends).
	out := src.Roads[:0]
	for _, r := range src.Roads {
		pts := make([]orb.Point, 0, len(r.Nodes))
		nodes := r.Nodes[:0] // in place: the list is the road's own
		for _, id := range r.Nodes {
			if p, ok := coords.Point(id); ok {
				nodes, pts = append(nodes, id), append(pts, p)
			}
		}
		if len(nodes) >= 2 {
			r.Nodes, r.Points = nodes, pts
			out = append(out, r)
		}
	}
	clear(src.Roads[len(out):])
	src.Roads = out
	return src, nil
}

// streetName returns a way's street name: name, else the TIGER base name
// and type ("Main" "St").
func streetName(tags osm.Tags) string {
	if n := strings.TrimSpace(tags.Find("name")); n != "" {
		return n
	}
	return strings.TrimSpace(strings.TrimSpace(tags.Find("tiger:name_base")) + " " + strings.TrimSpace(tags.Find("tiger:name_type")))
}

// countyFIPS returns the five-digit county FIPS code of a county
// relation's tags (boundary=administrative, admin_level=6): nist:fips_code
// (Delaware's counties), else tiger:STATEFP + tiger:COUNTYFP, else a
// five-digit ref:fips; "" when none.
func countyFIPS(tags osm.Tags) string {
	if tags.Find("boundary") != "administrative" || tags.Find("admin_level") != "6" {
		return ""
	}
	if v := strings.TrimSpace(tags.Find("nist:fips_code")); isDigits(v, 5) {
		return v
	}
	if s, c := strings.TrimSpace(tags.Find("tiger:STATEFP")), strings.TrimSpace(tags.Find("tiger:COUNTYFP")); isDigits(s, 2) && isDigits(c, 3) {
		return s + c
	}
	if v := strings.TrimSpace(tags.Find("ref:fips")); isDigits(v, 5) {
		return v
	}
	return ""
}
