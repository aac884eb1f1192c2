package vectortile

import (
	"encoding/json"
	"fmt"
	"image/color"
	"net/url"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/cartography"
)

// Attribution is the data sources' attribution the TileJSON and the
// style carry (maps of the tiles must show it).
const Attribution = `© <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors (ODbL); Natural Earth; US Census`

// LayerInfo describes one layer of the tiles: its fields and their types
// (TileJSON's vector_layers).
type LayerInfo struct {
	ID          string            `json:"id"`
	Description string            `json:"description"`
	MinZoom     int               `json:"minzoom"`
	MaxZoom     int               `json:"maxzoom"`
	Fields      map[string]string `json:"fields"`
}

// Layers are the tiles' layers, in drawing order.
var Layers = []LayerInfo{
	{ID: "land", Description: "Land: the world base layer's countries (Natural Earth) and the extract's box; the sea is what no land covers", MaxZoom: MaxZoom,
		Fields: map[string]string{"class": "String: country or extract", "iso2": "String: a country's ISO 3166-1 alpha-2 code"}},
	{ID: "water", Description: "Water areas: the sea from the coastline, lakes, rivers' areas", MaxZoom: MaxZoom,
		Fields: map[string]string{"class": "String: water"}},
	{ID: "landuse", Description: "Land use and cover", MaxZoom: MaxZoom,
		Fields: map[string]string{"class": "String: park, wood, moor, sand, industrial, community or railway"}},
	{ID: "buildings", Description: "Buildings", MinZoom: buildingsMinZoom, MaxZoom: MaxZoom, Fields: map[string]string{}},
	{ID: "railways", Description: "Railway lines", MinZoom: railwaysMinZoom, MaxZoom: MaxZoom, Fields: map[string]string{"class": "String: rail"}},
	{ID: "boundaries", Description: "Country (admin_level 2) and state (4) borders", MaxZoom: MaxZoom,
		Fields: map[string]string{"admin_level": "Number: 2 or 4"}},
	{ID: "roads", Description: "Roads of the routing graph: motorways and dual carriageways from zoom 0, federal and regional roads from 8, local roads from 11, every road from 13", MaxZoom: MaxZoom,
		Fields: map[string]string{"class": "String: the OSM highway value (motorway, primary, residential, motorway_link...) or ferry",
			"type": "String: the SOAP MapRoadType (Motorway, FederalHighway, LocalRoad...)", "name": "String: the road's name",
			"ref": "String: its route numbers", "oneway": "Number: 1 when cars drive it along the line's direction only",
			"brunnel": "String: bridge or tunnel (OSM bridge=*, tunnel=*)", "layer": "Number: OSM layer=* (-5..5) when not 0"}},
	{ID: "places", Description: "Place labels, the most important first, thinned per zoom", MaxZoom: MaxZoom,
		Fields: map[string]string{"name": "String", "class": "String: city, town, village, hamlet, suburb, quarter or neighbourhood",
			"rank": "Number: 1 (a capital) .. 16, the SOAP MapLabelType's position", "population": "Number: when tagged", "capital": "Boolean: when a capital"}},
}

// query returns "?token=TOKEN" ("" without a token).
func query(token string) string {
	if token == "" {
		return ""
	}
	return "?token=" + url.QueryEscape(token)
}

// TileJSON returns the TileJSON 3.0.0 document of the tiles under base
// (".../tilesv1"), their URLs with the tile token when there is one; b is
// the extract's box (extract_bounds, and the center's).
func TileJSON(base, token string, b orb.Bound) []byte {
	c := b.Center()
	doc := map[string]any{
		"tilejson":    "3.0.0",
		"name":        "geosvc",
		"description": "geosvc's vector tiles of its data bundle",
		"version":     "1.0.0",
		"attribution": Attribution,
		"scheme":      "xyz",
		"tiles":       []string{base + "/{z}/{x}/{y}.mvt" + query(token)},
		"minzoom":     0,
		"maxzoom":     MaxZoom,
		// Tiles exist everywhere (the world base layer's land and borders
		// around the extract): bounds are the world's, or a client would
		// not ask for the tiles around the extract; the extract's box is
		// extract_bounds.
		"bounds":         []float64{-180, -85.0511, 180, 85.0511},
		"extract_bounds": []float64{b.Min[0], b.Min[1], b.Max[0], b.Max[1]},
		"center":         []float64{c[0], c[1], 10},
		"vector_layers":  Layers,
	}
	out, _ := json.Marshal(doc)
	return out
}

func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Fonts are the style's font stacks (served as glyphs by geosvc).
var (
	fontRegular = []string{"Go Regular"}
	fontBold    = []string{"Go Bold"}
	fontItalic  = []string{"Go Italic"}
)

// Style returns the MapLibre style (version 8) of the tiles under base,
// in the colours of geo/cartography's default style, with geosvc's
// sprite and glyphs.
func Style(base, token string) []byte {
	st := cartography.Default()
	bg := func(n string) string { return hex(st.Background[n].Inner.Color) }
	layers := []map[string]any{
		{"id": "sea", "type": "background", "paint": map[string]any{"background-color": bg("Water")}},
		{"id": "land", "type": "fill", "source": "geosvc", "source-layer": "land", "paint": map[string]any{"fill-color": bg("Land")}},
	}
	fill := func(id, srcLayer string, filter []any, item string, minzoom int) {
		l := map[string]any{"id": id, "type": "fill", "source": "geosvc", "source-layer": srcLayer,
			"paint": map[string]any{"fill-color": bg(item)}}
		if b := st.Background[item].Border; b.Color.A > 0 {
			l["paint"].(map[string]any)["fill-outline-color"] = hex(b.Color)
		}
		if filter != nil {
			l["filter"] = filter
		}
		if minzoom > 0 {
			l["minzoom"] = minzoom
		}
		layers = append(layers, l)
	}
	for _, lu := range []struct{ class, item string }{{"park", "Park"}, {"wood", "Woodland"}, {"moor", "Moor"}, {"sand", "Sand"},
		{"industrial", "Industry"}, {"community", "Community"}, {"railway", "RailroadArea"}} {
		fill("landuse-"+lu.class, "landuse", []any{"==", []any{"get", "class"}, lu.class}, lu.item, 0)
	}
	fill("water", "water", nil, "Water", 0)
	fill("buildings", "buildings", nil, "Buildings", buildingsMinZoom)
	rail := st.Background["Railway"].Inner
	layers = append(layers, map[string]any{"id": "railways", "type": "line", "source": "geosvc", "source-layer": "railways", "minzoom": railwaysMinZoom,
		"paint": map[string]any{"line-color": hex(rail.Color), "line-width": widths(rail.Width), "line-dasharray": []float64{3, 2}}})
	for _, lv := range []struct {
		level int
		item  string
	}{{4, "Province"}, {2, "Border"}} {
		it := st.Background[lv.item].Inner
		layers = append(layers, map[string]any{"id": fmt.Sprintf("boundaries-%d", lv.level), "type": "line", "source": "geosvc", "source-layer": "boundaries",
			"filter": []any{"==", []any{"get", "admin_level"}, lv.level},
			"paint":  map[string]any{"line-color": hex(it.Color), "line-width": widths(it.Width), "line-dasharray": []float64{4, 2}}})
	}
	// Roads: every casing (from zoom 11), then every fill, minor first.
	var casings, fills []map[string]any
	for _, rt := range cartography.RoadTypes {
		it, ok := st.Road[rt]
		if !ok || rt == "PrimaryRoute" || rt == "SecondaryRoute" || rt == "TertiaryRoute" {
			continue
		}
		filter := []any{"==", []any{"get", "type"}, rt}
		if it.Border.Color.A > 0 {
			casings = append(casings, map[string]any{"id": "road-casing-" + rt, "type": "line", "source": "geosvc", "source-layer": "roads", "minzoom": 11,
				"filter": filter, "layout": map[string]any{"line-join": "round", "line-cap": "round"},
				"paint": map[string]any{"line-color": hex(it.Border.Color), "line-width": widths(it.Inner.Width + 2*it.Border.Width)}})
		}
		l := map[string]any{"id": "road-" + rt, "type": "line", "source": "geosvc", "source-layer": "roads",
			"filter": filter, "layout": map[string]any{"line-join": "round", "line-cap": "round"},
			"paint": map[string]any{"line-color": hex(it.Inner.Color), "line-width": widths(it.Inner.Width)}}
		if rt == "FerryCar" || rt == "FerryCargo" || rt == "FerryTrain" {
			l["paint"].(map[string]any)["line-dasharray"] = []float64{4, 3}
			l["layout"] = map[string]any{"line-join": "round"}
		}
		fills = append(fills, l)
	}

	layers = append(layers, casings...)
	layers = append(layers, fills...)
	// Tunnels: their roads faded by a veil of the land's colour.
	layers = append(layers, map[string]any{"id": "road-tunnel-shade", "type": "line", "source": "geosvc", "source-layer": "roads", "minzoom": 12,
		"filter": []any{"==", []any{"get", "brunnel"}, "tunnel"},
		"paint":  map[string]any{"line-color": bg("Land"), "line-opacity": 0.5, "line-width": widths(st.Road["LocalRoad"].Inner.Width + 2)}})
	text := st.Road["LocalRoad"].Text
	halo := hex(text.Halo)
	layers = append(layers,
		map[string]any{"id": "road-oneway", "type": "symbol", "source": "geosvc", "source-layer": "roads", "minzoom": 15,
			"filter": []any{"==", []any{"get", "oneway"}, 1},
			"layout": map[string]any{"symbol-placement": "line", "symbol-spacing": 90, "icon-image": "oneway", "icon-rotation-alignment": "map", "icon-size": 0.8}},
		map[string]any{"id": "road-labels", "type": "symbol", "source": "geosvc", "source-layer": "roads", "minzoom": 12,
			"layout": map[string]any{"symbol-placement": "line", "text-field": []any{"coalesce", []any{"get", "name"}, []any{"get", "ref"}},
				"text-font": fontRegular, "text-size": text.Size + 1, "text-max-angle": 30},
			"paint": map[string]any{"text-color": hex(text.Color), "text-halo-color": halo, "text-halo-width": 1.5}})
	// Places: size, weight and style of the raster maps' label types.
	size := []any{"match", []any{"get", "rank"}}
	font := []any{"match", []any{"get", "rank"}}
	colour := []any{"match", []any{"get", "rank"}}
	for i, n := range cartography.LabelTypes {
		if n == "ScaleBar" {
			continue
		}
		ts := st.Label[n].Text
		f := fontRegular
		switch {
		case ts.Bold:
			f = fontBold
		case ts.Italic:
			f = fontItalic
		}
		size = append(size, i+1, ts.Size+2)
		font = append(font, i+1, []any{"literal", f})
		colour = append(colour, i+1, hex(ts.Color))
	}
	size = append(size, 11)
	font = append(font, []any{"literal", fontRegular})
	colour = append(colour, hex(text.Color))
	layers = append(layers, map[string]any{"id": "places", "type": "symbol", "source": "geosvc", "source-layer": "places",
		"layout": map[string]any{"text-field": []any{"get", "name"}, "text-font": font, "text-size": size, "symbol-sort-key": []any{"get", "rank"},
			"icon-image":  []any{"case", []any{"==", []any{"get", "capital"}, true}, "capital", []any{"<=", []any{"get", "rank"}, 8}, "place", ""},
			"text-anchor": "top", "text-offset": []float64{0, 0.5}, "text-max-width": 8},
		"paint": map[string]any{"text-color": colour, "text-halo-color": halo, "text-halo-width": 1.5}})
	doc := map[string]any{
		"version": 8,
		"name":    "geosvc",
		"metadata": map[string]any{
			"geosvc:palette": "geo/cartography's default style (the raster tiles' and SOAP maps' colours)",
		},
		"sources": map[string]any{
			"geosvc": map[string]any{"type": "vector", "url": base + "/tiles.json" + query(token), "attribution": Attribution},
		},
		"sprite":  base + "/sprite",
		"glyphs":  base + "/fonts/{fontstack}/{range}.pbf",
		"layers":  layers,
		"center":  []float64{0, 0},
		"zoom":    1,
		"bearing": 0,
		"pitch":   0,
	}
	out, _ := json.Marshal(doc)
	return out
}

// widths is a line width (pixels, as the raster maps draw it at zoom
// 14-15) through the zooms: thinner out, wider in.
func widths(w float64) []any {
	return []any{"interpolate", []any{"exponential", 1.5}, []any{"zoom"}, 5, w * 0.25, 10, w * 0.5, 14, w, 18, w * 4}
}
