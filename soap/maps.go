package soap

import (
	"context"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/geo/render"
	"github.com/geosvc/geosvc/routing/profile"
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

// legendColor is how a map draws a background, a road or its parts.
type legendColor struct {
	Color           string `xml:"Color,attr,omitempty"`
	WorldWidth      string `xml:"WorldWidth,attr,omitempty"`
	Width           string `xml:"Width,attr,omitempty"`
	LargeScaleWidth string `xml:"LargeScaleWidth,attr,omitempty"`
}

// legendText is how a map writes (here: marks) a label.
type legendText struct {
	Color string `xml:"Color,attr,omitempty"`
	Size  string `xml:"Size,attr,omitempty"`
	Bold  bool   `xml:"Bold,attr,omitempty"`
	Name  string `xml:"Name,attr,omitempty"`
}

// backgroundLegendItem, roadLegendItem and labelLegendItem are legend
// entries.
type backgroundLegendItem struct {
	Name   string       `xml:"Name"`
	Inner  *legendColor `xml:"Inner"`
	Border *legendColor `xml:"Border"`
}

type roadLegendItem struct {
	Name  string       `xml:"Name"`
	Inner *legendColor `xml:"Inner,omitempty"`
}

type labelLegendItem struct {
	Name string      `xml:"Name"`
	Text *legendText `xml:"Text"`
}

// mapData is a rendered map (SPEC.md, "MapData").
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

// Map colors by MapRoadType (and the route overlays), widths in pixels.
var roadStyles = map[string]struct {
	col   color.RGBA
	width float64
}{
	"Motorway": {rgb(0xe8, 0x92, 0xa2), 4}, "DualCarriageWay": {rgb(0xf9, 0xb2, 0x9c), 3.5}, "DualCarriageWayCity": {rgb(0xf9, 0xb2, 0x9c), 3.5},
	"FederalHighway": {rgb(0xfc, 0xd6, 0xa4), 3}, "FederalHighwayCity": {rgb(0xfc, 0xd6, 0xa4), 3},
	"RegionalRoad": {rgb(0xf7, 0xfa, 0xbf), 2.5}, "RegionalRoadCity": {rgb(0xf7, 0xfa, 0xbf), 2.5},
	"LocalRoad": {rgb(0xb0, 0xb0, 0xb0), 1.5}, "LocalRoadCity": {rgb(0xb0, 0xb0, 0xb0), 1.5},
	"OtherRoad": {rgb(0xcc, 0xcc, 0xcc), 1}, "OtherRoadCity": {rgb(0xcc, 0xcc, 0xcc), 1},
	"FerryCar": {rgb(0x66, 0x66, 0xff), 1.5}, "FerryCargo": {rgb(0x66, 0x66, 0xff), 1.5}, "FerryTrain": {rgb(0x66, 0x66, 0xff), 1.5},
	"PrimaryRoute": {rgb(0x00, 0x55, 0xdd), 5}, "SecondaryRoute": {rgb(0x22, 0x99, 0x22), 4}, "TertiaryRoute": {rgb(0x99, 0x33, 0x99), 3},
}

// roadOrder draws minor roads first.
var roadOrder = []string{"OtherRoad", "OtherRoadCity", "LocalRoad", "LocalRoadCity", "FerryCar", "FerryCargo", "FerryTrain",
	"RegionalRoad", "RegionalRoadCity", "FederalHighway", "FederalHighwayCity", "DualCarriageWay", "DualCarriageWayCity", "Motorway"}

// levelOfDetail is the lowest road order index drawn at each level.
var levelOfDetail = map[int]int{0: 0, 1: 2, 2: 7, 3: 11}

// Label classes by population, largest first.
var labelClasses = []struct {
	name string
	pop  uint32
	r    float64
}{
	{"City500K", 500000, 7}, {"City100K", 100000, 6}, {"City50K", 50000, 5}, {"City20K", 20000, 4}, {"City5K", 5000, 3.5}, {"City1K", 1000, 3}, {"CitySmall", 0, 2.5},
}

var (
	landColor   = rgb(0xf2, 0xef, 0xe9)
	markerColor = rgb(0xd0, 0x10, 0x10)
	labelColor  = rgb(0x33, 0x33, 0x33)
)

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 255} }

func hexColor(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

// parseHexColor reads "#RRGGBB".
func parseHexColor(s string) (color.RGBA, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil || len(s) != 6 {
		return color.RGBA{}, false
	}
	return rgb(uint8(v>>16), uint8(v>>8), uint8(v)), true
}

// Defaults and bounds of a view.
const (
	defaultAreaM = 2000
	minAreaM     = 50
	maxAreaM     = 2_000_000
)

// view works out the map's view: the bound (X, Y)-(X2, Y2), or the
// centre (X, Y) and AreaX x AreaY metres; moved PanX/PanY pixels; then
// the Action.
func view(mv *mapView, focus []orb.Point) (render.View, error) {
	if e := strings.TrimSpace(mv.Encoding); e != encodingWGS84 {
		return render.View{}, senderFault("Encoding %q is not supported (use %s)", e, encodingWGS84)
	}
	if mv.Width < 1 || mv.Width > render.MaxSide || mv.Height < 1 || mv.Height > render.MaxSide {
		return render.View{}, senderFault("Width and Height must be 1 to %d pixels, not %d x %d", render.MaxSide, mv.Width, mv.Height)
	}
	c, err := parsePoint("", mv.X, mv.Y)
	if err != nil {
		return render.View{}, err
	}
	var v render.View
	if strings.TrimSpace(mv.X2) != "" || strings.TrimSpace(mv.Y2) != "" {
		c2, err := parsePoint("", mv.X2, mv.Y2)
		if err != nil {
			return render.View{}, senderFault("X2 and Y2: %s", err.Error())
		}
		v = render.ViewOf(orb.Bound{Min: c, Max: c}.Extend(c2), mv.Width, mv.Height)
	} else {
		w, h := float64(mv.AreaX), float64(mv.AreaY)
		if w <= 0 && h <= 0 {
			w = defaultAreaM
		}
		if w <= 0 {
			w = h * float64(mv.Width) / float64(mv.Height)
		}
		v = render.View{Center: c, WidthM: w, HeightM: w * float64(mv.Height) / float64(mv.Width), W: mv.Width, H: mv.Height}
	}
	pan := mv.PanX
	if pan == 0 {
		pan = mv.Panx
	}
	if pan != 0 || mv.PanY != 0 {
		v.Center = v.Point(float64(v.W)/2+float64(pan), float64(v.H)/2+float64(mv.PanY))
	}
	zoom := float64(mv.ZoomFactor)
	if zoom <= 1 {
		zoom = 2
	}
	switch a := strings.TrimSpace(mv.Action); a {
	case "", "None":
	case "ZoomIn":
		v.WidthM, v.HeightM = v.WidthM/zoom, v.HeightM/zoom
	case "ZoomOut":
		v.WidthM, v.HeightM = v.WidthM*zoom, v.HeightM*zoom
	case "ZoomPois", "ZoomRoute":
		if len(focus) > 0 {
			b := orb.MultiPoint(focus).Bound()
			fit := render.ViewOf(b, v.W, v.H)
			v.Center, v.WidthM, v.HeightM = fit.Center, fit.WidthM*1.2, fit.HeightM*1.2
		}
	default:
		deg, ok := compass[a]
		if !ok {
			return render.View{}, senderFault("Action %q is not an ImageAction", a)
		}
		rad := deg * math.Pi / 180 // half the view that way
		v.Center = v.Point(float64(v.W)/2*(1+math.Sin(rad)), float64(v.H)/2*(1-math.Cos(rad)))
	}
	if v.WidthM < minAreaM {
		v.HeightM, v.WidthM = v.HeightM*minAreaM/v.WidthM, minAreaM
	}
	if v.WidthM > maxAreaM {
		v.HeightM, v.WidthM = v.HeightM*maxAreaM/v.WidthM, maxAreaM
	}
	return v, nil
}

// compass gives the bearing of each direction Action.
var compass = map[string]float64{
	"N": 0, "NNE": 22.5, "NE": 45, "ENE": 67.5, "E": 90, "ESE": 112.5, "SE": 135, "SSE": 157.5,
	"S": 180, "SSW": 202.5, "SW": 225, "WSW": 247.5, "W": 270, "WNW": 292.5, "NW": 315, "NNW": 337.5,
}

func (s *Service) mapSimple(ctx context.Context, body []byte) (any, error) {
	var mv mapView
	if err := xml.Unmarshal(body, &mv); err != nil {
		return nil, senderFault("malformed MapSimple request: %v", err)
	}
	md, err := s.drawMap(ctx, &mv, nil)
	if err != nil {
		return nil, err
	}
	return mapSimpleResponse{Result: md}, nil
}

func (s *Service) mapOp(ctx context.Context, body []byte) (any, error) {
	var mv mapView
	if err := xml.Unmarshal(body, &mv); err != nil {
		return nil, senderFault("malformed Map request: %v", err)
	}
	var route []orb.Point
	if rd := strings.TrimSpace(mv.RouteData); rd != "" {
		raw, err := base64.StdEncoding.DecodeString(rd)
		if err != nil {
			return nil, senderFault("RouteData is not base64: %v", err)
		}
		if route, err = decodePolyline(string(raw)); err != nil {
			return nil, senderFault("RouteData is not a route of RoutePlanner: %v", err)
		}
	}
	md, err := s.drawMap(ctx, &mv, route)
	if err != nil {
		return nil, err
	}
	return mapResponse{Result: md}, nil
}

// mapLocations returns the request's Locations and, with UseDbSet, those
// of the key's set whose fid DbRecord lists (all when it lists none),
// with their points.
func (s *Service) mapLocations(ctx context.Context, mv *mapView) ([]*locationInput, []orb.Point, error) {
	locs := append([]*locationInput(nil), mv.Locations.Items...)
	if mv.UseDbSet {
		set, err := s.keySetLocations(ctx)
		if err != nil {
			return nil, nil, err
		}
		want := map[string]bool{}
		for _, r := range mv.DbRecords {
			for _, id := range append([]string{r.Text}, r.Items...) {
				if id = strings.TrimSpace(id); id != "" {
					want[id] = true
				}
			}
		}
		for _, li := range set {
			if len(want) == 0 || want[li.FID] {
				locs = append(locs, li)
			}
		}
	}
	var kept []*locationInput
	var pts []orb.Point
	for i, li := range locs {
		if li == nil {
			continue
		}
		p, err := parsePoint("", li.X, li.Y)
		if err != nil {
			return nil, nil, senderFault("location %d: %s", i+1, err.Error())
		}
		kept = append(kept, li)
		pts = append(pts, p)
	}
	return kept, pts, nil
}

// drawMap renders the map of a MapSimple or Map request.
func (s *Service) drawMap(ctx context.Context, mv *mapView, route []orb.Point) (mapData, error) {
	locs, pts, err := s.mapLocations(ctx, mv)
	if err != nil {
		return mapData{}, err
	}
	focus := pts
	if strings.TrimSpace(mv.Action) == "ZoomRoute" {
		focus = route
	}
	v, err := view(mv, focus)
	if err != nil {
		return mapData{}, err
	}
	format, ok := map[string]render.Format{"Png": render.PNG, "Gif": render.GIF, "Wbmp": render.WBMP}[strings.TrimSpace(mv.ImageType)]
	if !ok {
		return mapData{}, senderFault("ImageType %q is not Gif, Wbmp or Png", mv.ImageType)
	}
	metric := strings.TrimSpace(mv.Metrics) != "Miles"
	if m := strings.TrimSpace(mv.Metrics); m != "" && m != "Meters" && m != "Miles" {
		return mapData{}, senderFault("Metrics %q is not Meters or Miles", m)
	}
	minRoad, ok := levelOfDetail[mv.LevelOfDetail]
	if !ok {
		return mapData{}, senderFault("LevelOfDetail %d: give 0 (every road) to 3 (motorways only)", mv.LevelOfDetail)
	}
	g, err := s.graph()
	if err != nil {
		return mapData{}, err
	}
	if name := strings.TrimSpace(mv.RoadDataName); name != "" && s.opts.RoadDataName != nil && name != s.opts.RoadDataName() {
		return mapData{}, senderFault("RoadDataName %q: this server has %q", name, s.opts.RoadDataName())
	}
	styles := legendStyles(mv.Legend)
	canvas, err := render.NewCanvas(v, styles.land)
	if err != nil {
		return mapData{}, senderFault("%v", err)
	}
	// Roads, minor first.
	byType := map[string][][]orb.Point{}
	g.RoadsIn(v.Bound(), func(shape []orb.Point, rt profile.RoadType, _ string) {
		byType[rt.String()] = append(byType[rt.String()], shape)
	})
	var drawn []string
	for i, rt := range roadOrder {
		if i < minRoad || len(byType[rt]) == 0 {
			continue
		}
		st := styles.roads[rt]
		for _, shape := range byType[rt] {
			canvas.Line(shape, st.col, st.width)
		}
		drawn = append(drawn, rt)
	}
	if len(route) > 0 {
		st := styles.roads["PrimaryRoute"]
		canvas.Line(route, st.col, st.width)
		drawn = append(drawn, "PrimaryRoute")
	}
	// Places as dots by population.
	var labels []string
	if ix, err := s.index(); err == nil {
		radius := math.Hypot(v.WidthM, v.HeightM) / 2
		seen := map[string]bool{}
		for _, c := range ix.Nearby(v.Center, radius, geocode.NearbyCities, 500) {
			cls := labelClass(c)
			canvas.Dot(c.Location, cls.r, labelColor)
			if !seen[cls.name] {
				seen[cls.name] = true
				labels = append(labels, cls.name)
			}
		}
	}
	drawScaleBar(canvas, metric)
	labels = append(labels, "ScaleBar")
	// Locations on top, with their image map areas.
	md := mapData{X: coord(v.Center[0]), Y: coord(v.Center[1]), AreaX: int(math.Round(v.WidthM)), AreaY: int(math.Round(v.HeightM)), Encoding: encodingWGS84}
	var areas []mapArea
	for i, p := range pts {
		canvas.Dot(p, 5, markerColor)
		x, y := v.Pixel(p)
		if x < 0 || y < 0 || x >= float64(v.W) || y >= float64(v.H) {
			continue
		}
		href := ""
		if u := strings.TrimSpace(mv.ImageMapURL); u != "" {
			href = strings.ReplaceAll(u, "{fid}", locs[i].FID)
		}
		areas = append(areas, mapArea{Shape: "circle", Alt: locs[i].Name, Coords: fmt.Sprintf("%d,%d,6", int(x), int(y)), Href: href})
	}
	if len(areas) > 0 {
		md.ImageMap = &struct {
			Areas []mapArea `xml:"Area"`
		}{areas}
	}
	if mv.WantLegend {
		md.BackgroundLegend = &backgroundLegend{Items: []backgroundLegendItem{{Name: "Land", Inner: &legendColor{Color: hexColor(styles.land)}}}}
		md.RoadLegend = &roadLegend{}
		for _, rt := range drawn {
			st := styles.roads[rt]
			md.RoadLegend.Items = append(md.RoadLegend.Items, roadLegendItem{Name: rt, Inner: &legendColor{Color: hexColor(st.col), Width: strconv.FormatFloat(st.width, 'f', -1, 64)}})
		}
		md.LabelLegend = &labelLegend{}
		sort.SliceStable(labels, func(i, j int) bool { return labelRank(labels[i]) < labelRank(labels[j]) })
		for _, l := range labels {
			md.LabelLegend.Items = append(md.LabelLegend.Items, labelLegendItem{Name: l, Text: &legendText{Color: hexColor(labelColor), Size: labelSize(l)}})
		}
	}
	if mv.WantImageData {
		img, err := canvas.Encode(format)
		if err != nil {
			return mapData{}, err
		}
		md.ImageData = base64.StdEncoding.EncodeToString(img)
	}
	return md, nil
}

// mapStyles are the colors a map is drawn with.
type mapStyles struct {
	land  color.RGBA
	roads map[string]struct {
		col   color.RGBA
		width float64
	}
}

// legendStyles returns the default styles with the colors and widths a
// request's Legend sets (Land's Inner color, a road type's Inner color
// and width).
func legendStyles(l *legend) mapStyles {
	st := mapStyles{land: landColor, roads: map[string]struct {
		col   color.RGBA
		width float64
	}{}}
	for k, v := range roadStyles {
		st.roads[k] = v
	}
	if l == nil {
		return st
	}
	if l.Background != nil {
		for _, it := range l.Background.Items {
			if c, ok := parseHexColor(colorOf(it.Inner)); ok && it.Name == "Land" {
				st.land = c
			}
		}
	}
	if l.Road != nil {
		for _, it := range l.Road.Items {
			cur, known := st.roads[it.Name]
			if !known || it.Inner == nil {
				continue
			}
			if c, ok := parseHexColor(it.Inner.Color); ok {
				cur.col = c
			}
			if w, err := strconv.ParseFloat(it.Inner.Width, 64); err == nil && w > 0 && w <= 20 {
				cur.width = w
			}
			st.roads[it.Name] = cur
		}
	}
	return st
}

func colorOf(c *legendColor) string {
	if c == nil {
		return ""
	}
	return c.Color
}

// labelClass returns the class of a place by population (place=city
// without one counts as City20K).
func labelClass(c geocode.Candidate) struct {
	name string
	pop  uint32
	r    float64
} {
	pop := c.Population
	if pop == 0 && c.HasType("locality") && c.PlaceClass == "city" {
		pop = 20000
	}
	for _, cls := range labelClasses {
		if pop >= cls.pop {
			return cls
		}
	}
	return labelClasses[len(labelClasses)-1]
}

func labelRank(name string) int {
	for i, c := range labelClasses {
		if c.name == name {
			return i
		}
	}
	return len(labelClasses)
}

func labelSize(name string) string {
	for _, c := range labelClasses {
		if c.name == name {
			return strconv.FormatFloat(2*c.r, 'f', -1, 64)
		}
	}
	return "10"
}

// drawScaleBar draws a bar of a round length (1, 2 or 5 times a power of
// ten metres, or miles) of at most a quarter of the image's width at its
// lower left corner.
func drawScaleBar(c *render.Canvas, metric bool) {
	unit := 1.0
	if !metric {
		unit = 1609.344
	}
	maxM := c.View.MetresPerPixel() * float64(c.View.W) / 4
	length := unit
	for _, step := range []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000} {
		if step*unit <= maxM {
			length = step * unit
		}
	}
	px := int(length / c.View.MetresPerPixel())
	y := c.View.H - 8
	c.Rect(image.Rect(6, y, 6+px, y+3), labelColor)
}

// decodePolyline reads Google's encoded polyline (precision 5, latitude
// first) into lon/lat points.
func decodePolyline(s string) ([]orb.Point, error) {
	var out []orb.Point
	var lat, lon int64
	next := func(i *int) (int64, error) {
		var v, shift uint64
		for {
			if *i >= len(s) || shift > 60 {
				return 0, fmt.Errorf("truncated at byte %d", *i)
			}
			b := uint64(s[*i]) - 63
			*i++
			if b > 0x3f {
				return 0, fmt.Errorf("byte %d is not polyline text", *i-1)
			}
			v |= (b & 0x1f) << shift
			shift += 5
			if b < 0x20 {
				break
			}
		}
		if v&1 != 0 {
			return ^int64(v >> 1), nil
		}
		return int64(v >> 1), nil
	}
	for i := 0; i < len(s); {
		dlat, err := next(&i)
		if err != nil {
			return nil, err
		}
		dlon, err := next(&i)
		if err != nil {
			return nil, err
		}
		lat, lon = lat+dlat, lon+dlon
		p := orb.Point{float64(lon) / 1e5, float64(lat) / 1e5}
		if math.Abs(p[0]) > 180 || math.Abs(p[1]) > 90 {
			return nil, fmt.Errorf("point %v out of range", p)
		}
		out = append(out, p)
	}
	return out, nil
}

func (s *Service) displaceLocations(ctx context.Context, body []byte) (any, error) {
	var mv mapView
	if err := xml.Unmarshal(body, &mv); err != nil {
		return nil, senderFault("malformed MapDisplaceLocations request: %v", err)
	}
	locs, pts, err := s.mapLocations(ctx, &mv)
	if err != nil {
		return nil, err
	}
	v, err := view(&mv, pts)
	if err != nil {
		return nil, err
	}
	iw, ih := iconSize(mv.IconWidth, mv.IconHeight)
	var placed []image.Rectangle
	var resp displaceResponse
	for i, p := range pts {
		x, y := v.Pixel(p)
		at := freeSpot(placed, int(math.Round(x)), int(math.Round(y)), iw, ih)
		placed = append(placed, iconBox(at.X, at.Y, iw, ih))
		li := *locs[i]
		q := v.Point(float64(at.X), float64(at.Y))
		li.X, li.Y, li.Encoding = coord(q[0]), coord(q[1]), encodingWGS84
		resp.Result.Locations = append(resp.Result.Locations, li)
	}
	return resp, nil
}

func (s *Service) getLocation(ctx context.Context, body []byte) (any, error) {
	var mv mapView
	if err := xml.Unmarshal(body, &mv); err != nil {
		return nil, senderFault("malformed MapGetLocation request: %v", err)
	}
	locs, pts, err := s.mapLocations(ctx, &mv)
	if err != nil {
		return nil, err
	}
	v, err := view(&mv, nil)
	if err != nil {
		return nil, err
	}
	vx, errX := strconv.ParseFloat(strings.TrimSpace(mv.ViewX), 64)
	vy, errY := strconv.ParseFloat(strings.TrimSpace(mv.ViewY), 64)
	if errX != nil || errY != nil || vx < 0 || vy < 0 || vx > float64(v.W) || vy > float64(v.H) {
		return nil, senderFault("ViewX and ViewY must be a pixel of the %d x %d image, not %q, %q", v.W, v.H, mv.ViewX, mv.ViewY)
	}
	iw, ih := iconSize(mv.IconWidth, mv.IconHeight)
	click := image.Pt(int(vx), int(vy))
	var resp getLocationResponse
	for i, p := range pts {
		x, y := v.Pixel(p)
		if click.In(iconBox(int(math.Round(x)), int(math.Round(y)), iw, ih)) {
			li := *locs[i]
			li.Encoding = encodingWGS84
			resp.Result.Locations = append(resp.Result.Locations, li)
		}
	}
	if len(resp.Result.Locations) == 0 { // nothing there: the clicked point itself
		q := v.Point(vx, vy)
		resp.Result.Locations = []locationInput{{locationTail: locationTail{Type: "point", X: coord(q[0]), Y: coord(q[1]), Encoding: encodingWGS84}}}
	}
	return resp, nil
}

// iconSize returns the icon size in pixels (16 x 16 by default).
func iconSize(w, h int) (int, int) {
	if w <= 0 {
		w = 16
	}
	if h <= 0 {
		h = 16
	}
	return min(w, 256), min(h, 256)
}

// iconBox is the rectangle of an icon centred on (x, y).
func iconBox(x, y, w, h int) image.Rectangle {
	return image.Rect(x-w/2, y-h/2, x-w/2+w, y-h/2+h)
}

// freeSpot returns the pixel nearest (x, y), searched ring by ring out to
// 8 icon sizes, where an icon overlaps none of placed; (x, y) itself when
// there is none.
func freeSpot(placed []image.Rectangle, x, y, w, h int) image.Point {
	free := func(p image.Point) bool {
		b := iconBox(p.X, p.Y, w, h)
		for _, r := range placed {
			if b.Overlaps(r) {
				return false
			}
		}
		return true
	}
	if free(image.Pt(x, y)) {
		return image.Pt(x, y)
	}
	step := max(1, min(w, h)/4)
	for ring := 1; ring <= 32; ring++ {
		d := ring * step
		best, bestD := image.Point{}, math.Inf(1)
		for dx := -d; dx <= d; dx += step {
			for _, dy := range []int{-d, d} {
				for _, p := range []image.Point{{x + dx, y + dy}, {x + dy, y + dx}} {
					if dd := math.Hypot(float64(p.X-x), float64(p.Y-y)); dd < bestD && free(p) {
						best, bestD = p, dd
					}
				}
			}
		}
		if !math.IsInf(bestD, 1) {
			return best
		}
	}
	return image.Pt(x, y)
}
