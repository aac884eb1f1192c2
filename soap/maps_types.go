package soap

import (
	"encoding/xml"
	"strings"
)

// mapView are the view fields every map operation shares.
type mapView struct {
	X, Y, X2, Y2              string
	Encoding                  string
	ZoomFactor, AreaX, AreaY  int
	PanX, PanY                int
	Panx                      int // MapDisplaceLocations' spelling
	Action                    string
	Width, Height             int
	IconWidth, IconHeight     int
	ViewX, ViewY              string
	LevelOfDetail             int
	ImageType, Metrics        string
	UseDbSet                  bool
	WantImageData, WantLegend bool
	ImageMapURL               string `xml:"ImageMapUrl"`
	RoadDataName, RouteData   string
	LegendFile                string
	SubscriptionKey           string
	DbRecords                 []dbRecord `xml:"DbRecord"`
	Locations                 struct {
		Items []*locationInput `xml:"LocationInput"`
	} `xml:"Locations"`
	Legend *legend `xml:"Legend"`
}

// dbRecord is a DbRecord: a string (MapSimple) or an ArrayOfString (Map,
// MapGetLocation).
type dbRecord struct {
	Text  string   `xml:",chardata"`
	Items []string `xml:"string"`
}

// legend is a map's legend (and, in a Map request, the colors to draw
// with).
type legend struct {
	Background *backgroundLegend `xml:"BackgroundLegend,omitempty"`
	Road       *roadLegend       `xml:"RoadLegend,omitempty"`
	Label      *labelLegend      `xml:"LabelLegend,omitempty"`
}

type backgroundLegend struct {
	Items []backgroundLegendItem `xml:"BackgroundLegendItem"`
}
type roadLegend struct {
	Items []roadLegendItem `xml:"RoadLegendItem"`
}
type labelLegend struct {
	Items []labelLegendItem `xml:"LabelLegendItem"`
}

// xsiNil is the xsi:nil attribute of an element the schema declares
// nillable: "true" when the element is nil.
type xsiNil struct {
	Nil string `xml:"http://www.w3.org/2001/XMLSchema-instance nil,attr,omitempty"`
}

// isNil reports whether the element was sent as xsi:nil.
func (n xsiNil) isNil() bool {
	return strings.TrimSpace(n.Nil) == "true" || strings.TrimSpace(n.Nil) == "1"
}

// legendColor is how a map draws a background, a road or its parts.
type legendColor struct {
	Color           string `xml:"Color,attr,omitempty"`
	WorldWidth      string `xml:"WorldWidth,attr,omitempty"`
	Width           string `xml:"Width,attr,omitempty"`
	LargeScaleWidth string `xml:"LargeScaleWidth,attr,omitempty"`
	xsiNil
}

// legendText is how a map writes a label or a road's name.
type legendText struct {
	Color                  string `xml:"Color,attr,omitempty"`
	Size                   string `xml:"Size,attr,omitempty"`
	Bold                   *bool  `xml:"Bold,attr,omitempty"`
	Italic                 *bool  `xml:"Italic,attr,omitempty"`
	Name                   string `xml:"Name,attr,omitempty"`
	Density                string `xml:"Density,attr,omitempty"`
	Rotation               *bool  `xml:"Rotation,attr,omitempty"`
	BackgroundColor        string `xml:"BackgroundColor,attr,omitempty"`
	BackGroundTransparency string `xml:"BackGroundTransparency,attr,omitempty"`
	xsiNil
}

// nilColor and nilText are the xsi:nil elements of a required, nillable
// LegendColor or LegendText.
func nilColor() *legendColor { return &legendColor{xsiNil: xsiNil{Nil: "true"}} }
func nilText() *legendText   { return &legendText{xsiNil: xsiNil{Nil: "true"}} }

// backgroundLegendItem, roadLegendItem and labelLegendItem are legend
// entries. Inner and Border of a background item and Text of a label item
// are required and nillable: they are always written, as xsi:nil when
// empty.
type backgroundLegendItem struct {
	Name   string       `xml:"Name"`
	Inner  *legendColor `xml:"Inner"`
	Border *legendColor `xml:"Border"`
}

type roadLegendItem struct {
	Name   string       `xml:"Name"`
	Inner  *legendColor `xml:"Inner,omitempty"`
	Border *legendColor `xml:"Border,omitempty"`
	Outer  *legendColor `xml:"Outer,omitempty"`
	Arrow  *legendColor `xml:"Arrow,omitempty"`
	Text   *legendText  `xml:"Text,omitempty"`
}

type labelLegendItem struct {
	Name string      `xml:"Name"`
	Text *legendText `xml:"Text"`
}

// mapData is a rendered map (SPEC.md, "MapData"); the operations' result
// element is required and nillable, and always holds a map here.
type mapData struct {
	X, Y         string
	AreaX, AreaY int
	Encoding     string
	ImageMap     *struct {
		Areas []mapArea `xml:"Area"`
	} `xml:"ImageMap,omitempty"`
	BackgroundLegend *backgroundLegend `xml:"BackgroundLegend,omitempty"`
	RoadLegend       *roadLegend       `xml:"RoadLegend,omitempty"`
	LabelLegend      *labelLegend      `xml:"LabelLegend,omitempty"`
	ImageData        string            `xml:"ImageData,omitempty"`
}

// mapArea is a clickable area of the image (an HTML image map's area).
type mapArea struct {
	Shape  string `xml:"Shape,attr"`
	Alt    string `xml:"Alt,attr,omitempty"`
	Coords string `xml:"Coords,attr"`
	Href   string `xml:"Href,attr,omitempty"`
}

type mapSimpleResponse struct {
	XMLName xml.Name `xml:"http://geosvc.org/LocationService/ MapSimpleResponse"`
	Result  mapData  `xml:"MapSimpleResult"`
}

type mapResponse struct {
	XMLName xml.Name `xml:"http://geosvc.org/LocationService/ MapResponse"`
	Result  mapData  `xml:"MapResult"`
}

type displaceResponse struct {
	XMLName xml.Name       `xml:"http://geosvc.org/LocationService/ MapDisplaceLocationsResponse"`
	Result  locationInputs `xml:"MapDisplaceLocationsResult"`
}

type getLocationResponse struct {
	XMLName xml.Name       `xml:"http://geosvc.org/LocationService/ MapGetLocationResponse"`
	Result  locationInputs `xml:"MapGetLocationResult"`
}
