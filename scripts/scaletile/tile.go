package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/paulmach/osm"
)

// extract is an OSM extract held in memory, to be written K x K times.
type extract struct {
	nodes     []*osm.Node
	ways      []*osm.Way
	relations []*osm.Relation
	// bounds of the nodes.
	minLon, minLat, maxLon, maxLat float64
	// Largest id of each type.
	maxNode, maxWay, maxRel int64
}

// add keeps one object of a scan.
func (e *extract) add(o osm.Object) {
	switch v := o.(type) {
	case *osm.Node:
		if len(e.nodes) == 0 {
			e.minLon, e.maxLon, e.minLat, e.maxLat = v.Lon, v.Lon, v.Lat, v.Lat
		}
		e.minLon, e.maxLon = math.Min(e.minLon, v.Lon), math.Max(e.maxLon, v.Lon)
		e.minLat, e.maxLat = math.Min(e.minLat, v.Lat), math.Max(e.maxLat, v.Lat)
		e.maxNode = max(e.maxNode, int64(v.ID))
		e.nodes = append(e.nodes, v)
	case *osm.Way:
		e.maxWay = max(e.maxWay, int64(v.ID))
		e.ways = append(e.ways, v)
	case *osm.Relation:
		e.maxRel = max(e.maxRel, int64(v.ID))
		e.relations = append(e.relations, v)
	}
}

// carRoads are the highway values of roads joins may start from: two-way
// roads a car takes between places.
var carRoads = map[string]bool{
	"trunk": true, "primary": true, "secondary": true, "tertiary": true,
	"unclassified": true, "residential": true,
}

// junction is a node where two or more two-way car roads meet.
type junction struct {
	id       osm.NodeID
	lon, lat float64
}

// junctions returns the junctions of two-way car roads of the extract.
func (e *extract) junctions() []junction {
	uses := map[osm.NodeID]int{}
	for _, w := range e.ways {
		t := w.Tags
		if !carRoads[t.Find("highway")] || t.Find("oneway") == "yes" || t.Find("oneway") == "-1" ||
			t.Find("junction") == "roundabout" || t.Find("access") == "no" || t.Find("area") == "yes" {
			continue
		}
		for i, wn := range w.Nodes {
			n := 1
			if i > 0 && i < len(w.Nodes)-1 {
				n = 2 // a node inside a way joins its two halves
			}
			uses[wn.ID] += n
		}
	}
	var out []junction
	for _, n := range e.nodes {
		if uses[n.ID] >= 3 {
			out = append(out, junction{n.ID, n.Lon, n.Lat})
		}
	}
	return out
}

// joinEnds picks, in each of bands equal strips across the extract, the
// junction furthest in one direction: east (dx 1), west (dx -1), north
// (dy 1) or south (dy -1). A strip without a junction gives none.
func (e *extract) joinEnds(js []junction, bands, dx, dy int) []junction {
	best := make([]junction, bands)
	found := make([]bool, bands)
	for _, j := range js {
		var f float64 // where along the border
		if dx != 0 {
			f = (j.lat - e.minLat) / (e.maxLat - e.minLat)
		} else {
			f = (j.lon - e.minLon) / (e.maxLon - e.minLon)
		}
		b := min(bands-1, max(0, int(f*float64(bands))))
		score := float64(dx)*j.lon + float64(dy)*j.lat
		if !found[b] || score > float64(dx)*best[b].lon+float64(dy)*best[b].lat {
			best[b], found[b] = j, true
		}
	}
	var out []junction
	for b := range best {
		if found[b] {
			out = append(out, best[b])
		}
	}
	return out
}

// tiling writes an extract K x K times side by side as OPL: copy (i, j)
// is shifted i steps east and j steps north (step), with ids
// offset so that no two copies share one, and neighbouring copies are
// joined by two-way trunk roads between junctions near their common
// border.
type tiling struct {
	e     *extract
	k     int
	bands int
	// Join ends in the original: east, west, north, south.
	east, west, north, south []junction
}

func newTiling(e *extract, k, bands int) *tiling {
	js := e.junctions()
	return &tiling{e: e, k: k, bands: bands,
		east: e.joinEnds(js, bands, 1, 0), west: e.joinEnds(js, bands, -1, 0),
		north: e.joinEnds(js, bands, 0, 1), south: e.joinEnds(js, bands, 0, -1)}
}

// step is the shift from one copy to the next, east and north: the
// extract's width and height, and a hundredth more, so that copies never
// overlap.
func (t *tiling) step() (dx, dy float64) {
	return 1.01 * (t.e.maxLon - t.e.minLon), 1.01 * (t.e.maxLat - t.e.minLat)
}

// copyIndex numbers copy (i, j).
func (t *tiling) copyIndex(i, j int) int64 { return int64(j*t.k + i) }

func (t *tiling) nodeID(c int64, id osm.NodeID) int64 { return c*(t.e.maxNode+1) + int64(id) }
func (t *tiling) wayID(c int64, id osm.WayID) int64   { return c*(t.e.maxWay+1) + int64(id) }
func (t *tiling) relID(c int64, id osm.RelationID) int64 {
	return c*(t.e.maxRel+1) + int64(id)
}

// Stats counts what a tiling wrote.
type Stats struct {
	Nodes, Ways, Relations, Joins int
}

// write writes the whole tiling as OPL to w: nodes, then ways (the joins
// last), then relations, each in id order, as osmium expects.
func (t *tiling) write(w io.Writer) (Stats, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	var st Stats
	dx, dy := t.step()
	var buf []byte
	for c := int64(0); c < int64(t.k*t.k); c++ {
		i, j := int(c)%t.k, int(c)/t.k
		for _, n := range t.e.nodes {
			buf = append(buf[:0], 'n')
			buf = strconv.AppendInt(buf, t.nodeID(c, n.ID), 10)
			buf = append(buf, " v1 dV T"...)
			buf = appendTags(buf, n.Tags)
			buf = append(buf, " x"...)
			buf = strconv.AppendFloat(buf, round7(n.Lon+float64(i)*dx), 'f', -1, 64)
			buf = append(buf, " y"...)
			buf = strconv.AppendFloat(buf, round7(n.Lat+float64(j)*dy), 'f', -1, 64)
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return st, err
			}
			st.Nodes++
		}
	}
	for c := int64(0); c < int64(t.k*t.k); c++ {
		for _, wy := range t.e.ways {
			buf = append(buf[:0], 'w')
			buf = strconv.AppendInt(buf, t.wayID(c, wy.ID), 10)
			buf = append(buf, " v1 dV T"...)
			buf = appendTags(buf, wy.Tags)
			buf = append(buf, " N"...)
			for x, wn := range wy.Nodes {
				if x > 0 {
					buf = append(buf, ',')
				}
				buf = append(buf, 'n')
				buf = strconv.AppendInt(buf, t.nodeID(c, wn.ID), 10)
			}
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return st, err
			}
			st.Ways++
		}
	}
	// The joins, with ids after every copy's ways.
	next := t.wayID(int64(t.k*t.k), 0) + 1
	join := func(a, b int64, from, to junction, name string) error {
		buf = append(buf[:0], 'w')
		buf = strconv.AppendInt(buf, next, 10)
		next++
		buf = append(buf, " v1 dV T"...)
		buf = appendTags(buf, osm.Tags{{Key: "highway", Value: "trunk"}, {Key: "name", Value: name}})
		buf = append(buf, " Nn"...)
		buf = strconv.AppendInt(buf, t.nodeID(a, from.id), 10)
		buf = append(buf, ",n"...)
		buf = strconv.AppendInt(buf, t.nodeID(b, to.id), 10)
		buf = append(buf, '\n')
		_, err := bw.Write(buf)
		st.Joins++
		return err
	}
	for j := 0; j < t.k; j++ {
		for i := 0; i < t.k; i++ {
			c := t.copyIndex(i, j)
			if i+1 < t.k {
				for b := 0; b < len(t.east) && b < len(t.west); b++ {
					if err := join(c, t.copyIndex(i+1, j), t.east[b], t.west[b], fmt.Sprintf("Scale Join %d-%d East %d", i, j, b+1)); err != nil {
						return st, err
					}
				}
			}
			if j+1 < t.k {
				for b := 0; b < len(t.north) && b < len(t.south); b++ {
					if err := join(c, t.copyIndex(i, j+1), t.north[b], t.south[b], fmt.Sprintf("Scale Join %d-%d North %d", i, j, b+1)); err != nil {
						return st, err
					}
				}
			}
		}
	}
	for c := int64(0); c < int64(t.k*t.k); c++ {
		for _, r := range t.e.relations {
			buf = append(buf[:0], 'r')
			buf = strconv.AppendInt(buf, t.relID(c, r.ID), 10)
			buf = append(buf, " v1 dV T"...)
			buf = appendTags(buf, r.Tags)
			buf = append(buf, " M"...)
			for x, m := range r.Members {
				if x > 0 {
					buf = append(buf, ',')
				}
				switch m.Type {
				case osm.TypeNode:
					buf = append(buf, 'n')
					buf = strconv.AppendInt(buf, t.nodeID(c, osm.NodeID(m.Ref)), 10)
				case osm.TypeWay:
					buf = append(buf, 'w')
					buf = strconv.AppendInt(buf, t.wayID(c, osm.WayID(m.Ref)), 10)
				default:
					buf = append(buf, 'r')
					buf = strconv.AppendInt(buf, t.relID(c, osm.RelationID(m.Ref)), 10)
				}
				buf = append(buf, '@')
				buf = appendEscaped(buf, m.Role)
			}
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return st, err
			}
			st.Relations++
		}
	}
	return st, bw.Flush()
}

// round7 rounds a coordinate to OSM's 7 decimals.
func round7(v float64) float64 { return math.Round(v*1e7) / 1e7 }

// appendTags appends tags in OPL's k=v,k=v form, in key order.
func appendTags(buf []byte, tags osm.Tags) []byte {
	ts := append(osm.Tags(nil), tags...)
	sort.Slice(ts, func(a, b int) bool { return ts[a].Key < ts[b].Key })
	for i, tg := range ts {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendEscaped(buf, tg.Key)
		buf = append(buf, '=')
		buf = appendEscaped(buf, tg.Value)
	}
	return buf
}

// appendEscaped appends s with OPL's escapes: every character but
// printable ones other than space, comma, equals, at and percent is
// written as %hex%.
func appendEscaped(buf []byte, s string) []byte {
	for _, r := range s {
		if r < 0x80 && (r == ' ' || r == ',' || r == '=' || r == '@' || r == '%' || !unicode.IsPrint(r)) ||
			r >= 0x80 && !unicode.IsPrint(r) {
			buf = append(buf, '%')
			buf = append(buf, strings.ToLower(strconv.FormatInt(int64(r), 16))...)
			buf = append(buf, '%')
			continue
		}
		buf = append(buf, string(r)...)
	}
	return buf
}
