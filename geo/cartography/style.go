package cartography

import (
	"image/color"
	"maps"
	"math"

	"github.com/geosvc/geosvc/geo/render"
)

// Paint is a colour and a width in pixels; a colour of alpha 0 is not
// drawn.
type Paint struct {
	Color color.RGBA
	Width float64
}

// Item is how one legend item is drawn: a background's fill (Inner) and
// outline (Border), a road's fill (Inner), casing (Border) and name
// (Text), a label's text (Text). Hatch draws Inner as diagonal lines
// every Hatch pixels instead of a fill (the 1-bit style's areas).
type Item struct {
	Inner, Border Paint
	Text          render.TextStyle
	Hatch         int
}

// Style is the look of a map: an Item for every MapBackgroundType,
// MapRoadType and MapLabelType name of the specification.
type Style struct {
	Background map[string]Item
	Road       map[string]Item
	Label      map[string]Item
	// Mono marks a 1-bit style (WBMP): no anti-aliased greys.
	Mono bool
}

// Clone returns a copy of s that can be changed without changing s.
func (s *Style) Clone() *Style {
	return &Style{Background: maps.Clone(s.Background), Road: maps.Clone(s.Road), Label: maps.Clone(s.Label), Mono: s.Mono}
}

// scaled returns a copy of s for an image of k times the pixel density:
// line widths, hatch spacing, text sizes and halos k times as large.
func (s *Style) scaled(k float64) *Style {
	out := s.Clone()
	item := func(it Item) Item {
		it.Inner.Width *= k
		it.Border.Width *= k
		it.Text.Size *= k
		it.Text.HaloWidth = max(1, int(math.Round(k)))
		if it.Hatch > 0 {
			it.Hatch = max(1, int(math.Round(float64(it.Hatch)*k)))
		}
		return it
	}
	for _, m := range []map[string]Item{out.Background, out.Road, out.Label} {
		for n, it := range m {
			m[n] = item(it)
		}
	}
	return out
}

func rgb(v uint32) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255} }

// BackgroundTypes are the MapBackgroundType names, in drawing order
// (Border, Province and Railway are lines).
var BackgroundTypes = []string{"Land", "Water", "Park", "Woodland", "Moor", "Sand", "Industry", "Community", "RailroadArea", "Buildings", "Railway", "Border", "Province"}

// RoadTypes are the MapRoadType names of roads, minor first (drawing
// order), then the route overlays.
var RoadTypes = []string{"OtherRoad", "OtherRoadCity", "LocalRoad", "LocalRoadCity", "FerryCar", "FerryCargo", "FerryTrain",
	"RegionalRoad", "RegionalRoadCity", "FederalHighway", "FederalHighwayCity", "DualCarriageWay", "DualCarriageWayCity", "Motorway",
	"PrimaryRoute", "SecondaryRoute", "TertiaryRoute"}

// LabelTypes are the MapLabelType names, in the specification's order.
var LabelTypes = []string{"Capital", "City500K", "City100K", "City50K", "City20K", "City5K", "City1K", "CitySmall",
	"DistrictNumbered", "District100K", "District50K", "District20K", "District5K", "District1K", "DistrictSmall", "ScaleBar"}

// labelPriority are the label types by priority (placed first).
var labelPriority = []string{"ScaleBar", "Capital", "City500K", "City100K", "City50K", "City20K", "City5K", "City1K", "CitySmall",
	"District100K", "District50K", "District20K", "District5K", "District1K", "DistrictNumbered", "DistrictSmall"}

// Default returns the colour style (after OpenStreetMap's standard map).
func Default() *Style {
	textColor := rgb(0x222222)
	halo := color.RGBA{255, 255, 255, 255}
	area := func(fill, border uint32, w float64) Item {
		it := Item{Inner: Paint{Color: rgb(fill)}}
		if w > 0 {
			it.Border = Paint{Color: rgb(border), Width: w}
		}
		return it
	}
	line := func(c uint32, w float64) Item { return Item{Inner: Paint{Color: rgb(c), Width: w}} }
	road := func(inner, casing uint32, w float64, textSize float64) Item {
		return Item{Inner: Paint{Color: rgb(inner), Width: w}, Border: Paint{Color: rgb(casing), Width: 1},
			Text: render.TextStyle{Color: textColor, Size: textSize, Halo: halo}}
	}
	s := &Style{
		Background: map[string]Item{
			"Land": area(0xF2EFE9, 0, 0), "Water": area(0xAAD3DF, 0, 0), "Park": area(0xC8FACC, 0x9DD4A0, 1),
			"Woodland": area(0xADD19E, 0, 0), "Moor": area(0xD6D99F, 0, 0), "Sand": area(0xF5E9C6, 0, 0),
			"Industry": area(0xEBDBE8, 0, 0), "Community": area(0xE0DFDF, 0, 0), "RailroadArea": area(0xE6D1E3, 0, 0),
			"Buildings": area(0xD9D0C9, 0xC4B6AB, 1),
			"Railway":   line(0x707070, 1.5), "Border": line(0x8F4F8F, 2), "Province": line(0xA884A8, 1.2),
		},
		Road: map[string]Item{
			"Motorway": road(0xE892A2, 0xDC2A67, 5, 11), "DualCarriageWay": road(0xF9B29C, 0xC84E2F, 4.5, 11), "DualCarriageWayCity": road(0xF9B29C, 0xC84E2F, 4.5, 11),
			"FederalHighway": road(0xFCD6A4, 0xA06B00, 4, 10.5), "FederalHighwayCity": road(0xFCD6A4, 0xA06B00, 4, 10.5),
			"RegionalRoad": road(0xF7FABF, 0x707D05, 3.5, 10), "RegionalRoadCity": road(0xF7FABF, 0x707D05, 3.5, 10),
			"LocalRoad": road(0xFFFFFF, 0xBBBBBB, 2.5, 9.5), "LocalRoadCity": road(0xFFFFFF, 0xBBBBBB, 2.5, 9.5),
			"OtherRoad": road(0xFFFFFF, 0xCCCCCC, 1.5, 9), "OtherRoadCity": road(0xFFFFFF, 0xCCCCCC, 1.5, 9),
			"FerryCar": line(0x6666FF, 1.5), "FerryCargo": line(0x6666FF, 1.5), "FerryTrain": line(0x6666FF, 1.5),
			"PrimaryRoute": line(0x0055DD, 5), "SecondaryRoute": line(0x229922, 4), "TertiaryRoute": line(0x993399, 3),
		},
		Label: map[string]Item{},
	}
	sizes := map[string]float64{"ScaleBar": 10, "Capital": 16, "City500K": 16, "City100K": 15, "City50K": 14, "City20K": 13, "City5K": 12, "City1K": 11, "CitySmall": 10,
		"District100K": 13, "District50K": 12, "District20K": 11.5, "District5K": 11, "District1K": 10.5, "DistrictNumbered": 10, "DistrictSmall": 10}
	for _, n := range LabelTypes {
		st := render.TextStyle{Color: textColor, Size: sizes[n], Halo: halo}
		switch {
		case n == "Capital" || n == "City500K" || n == "City100K" || n == "City50K":
			st.Bold = true
		case len(n) > 8 && n[:8] == "District":
			st.Italic = true
			st.Color = rgb(0x555555)
		}
		s.Label[n] = Item{Text: st}
	}
	return s
}

// Mono returns the 1-bit style (WBMP): land white, water, woods and sand
// hatched, buildings outlined, roads, lines and text black on white
// halos.
func Mono() *Style {
	s := Default().Clone()
	s.Mono = true
	black := color.RGBA{0, 0, 0, 255}
	white := color.RGBA{255, 255, 255, 255}
	for n, it := range s.Background {
		it.Inner.Color, it.Border = white, Paint{}
		switch n {
		case "Water":
			it.Inner.Color, it.Hatch = black, 4
		case "Woodland", "Moor":
			it.Inner.Color, it.Hatch = black, 8
		case "Sand", "Industry", "RailroadArea":
			it.Inner.Color, it.Hatch = black, 12
		case "Buildings", "Park":
			it.Border = Paint{Color: black, Width: 1}
		case "Railway", "Border", "Province":
			it.Inner.Color = black
		}
		s.Background[n] = it
	}
	for n, it := range s.Road {
		it.Inner.Color = black
		it.Border = Paint{}
		it.Text.Color, it.Text.Halo = black, white
		s.Road[n] = it
	}
	for n, it := range s.Label {
		it.Text.Color, it.Text.Halo = black, white
		s.Label[n] = it
	}
	return s
}
