package osmroad

import (
	"sort"
	"strings"

	"github.com/paulmach/osm"
)

// CountrySide is the side of the road traffic keeps to in one country, as
// its OSM country boundary relation states it.
type CountrySide struct {
	// ISO2 is the country's ISO 3166-1 alpha-2 code (upper case).
	ISO2 string
	// Left is true for driving_side=left.
	Left bool
}

// isDrivingSideRelation reports whether r is a country boundary
// (boundary=administrative, admin_level=2) carrying a driving_side tag:
// OSM's convention for the side traffic keeps to in a country (untagged
// countries drive on the right). An extract holds the relation of every
// country it cuts, even where it lacks the relation's members.
func isDrivingSideRelation(r *osm.Relation) bool {
	return r.Tags.Find("driving_side") != "" && r.Tags.Find("admin_level") == "2" &&
		r.Tags.Find("boundary") == "administrative"
}

// countrySide records r's driving_side under its ISO 3166-1 code; a
// relation without a code, or with another value than left or right, is
// counted as ignored.
func (b *builder) countrySide(r *osm.Relation) {
	var code string
	for _, k := range []string{"ISO3166-1:alpha2", "ISO3166-1"} {
		if c := strings.ToUpper(strings.TrimSpace(r.Tags.Find(k))); len(c) == 2 {
			code = c
			break
		}
	}
	side := r.Tags.Find("driving_side")
	if code == "" || (side != "left" && side != "right") {
		b.rep.DrivingSidesIgnored++
		return
	}
	if b.sides == nil {
		b.sides = map[string]bool{}
	}
	b.sides[code] = side == "left"
}

// countrySides returns the recorded sides, by code.
func (b *builder) countrySides() []CountrySide {
	out := make([]CountrySide, 0, len(b.sides))
	for code, left := range b.sides {
		out = append(out, CountrySide{ISO2: code, Left: left})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ISO2 < out[j].ISO2 })
	return out
}
