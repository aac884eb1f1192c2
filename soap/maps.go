package soap

// The map operations: MapSimple and Map draw maps (geo/cartography) of the
// loaded bundle; MapDisplaceLocations and MapGetLocation answer from the
// same view math without drawing. XML types are in maps_types.go, styles
// and legends in maps_style.go, the view in maps_view.go, icon layout in
// maps_icons.go and RouteData's codec in polyline.go.

import (
	"context"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/cartography"
	"github.com/geosvc/geosvc/geo/render"
)

// markerColor is the colour of the request's locations on a map.
var markerColor = color.RGBA{0xd0, 0x10, 0x10, 255}

// markerRadius is the radius of a location's marker in pixels.
const markerRadius = 5

// levelOfDetail is, for each LevelOfDetail, the road types drawn: 0
// every road, 1 without OtherRoad, 2 regional roads and larger, 3
// dual carriageways and motorways.
var levelOfDetail = map[int][]string{
	0: cartography.RoadTypes[:14],
	1: cartography.RoadTypes[2:14],
	2: cartography.RoadTypes[7:14],
	3: cartography.RoadTypes[11:14],
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
	roads, ok := levelOfDetail[mv.LevelOfDetail]
	if !ok {
		return mapData{}, senderFault("LevelOfDetail %d: give 0 (every road) to 3 (motorways only)", mv.LevelOfDetail)
	}
	st, err := s.mapStyle(format == render.WBMP, mv.LegendFile, mv.Legend)
	if err != nil {
		return mapData{}, err
	}
	g, err := s.graph()
	if err != nil {
		return mapData{}, err
	}
	// RoadDataName may be the bundle's name or a route's RoadDataName
	// (the name with the date of its data), as RoutePlanner answers it.
	b := s.opts.Bundle.Load()
	if name := strings.TrimSpace(mv.RoadDataName); name != "" && b != nil && b.Name() != "" &&
		name != b.Name() && name != s.roadDataName(g) {
		return mapData{}, senderFault("RoadDataName %q: this server has %q", name, s.roadDataName(g))
	}
	// Labels keep clear of the markers drawn over the map.
	var reserved []image.Rectangle
	pr := v.Projector()
	for _, p := range pts {
		x, y := pr.Pixel(p)
		reserved = append(reserved, iconBox(int(math.Round(x)), int(math.Round(y)), 2*markerRadius+2, 2*markerRadius+2))
	}
	canvas, drawn, err := cartography.Draw(b.MapSources(), cartography.Request{
		View: v, Style: st, Route: route, Labels: true, ScaleBar: true, Metric: metric, Reserved: reserved, Legend: mv.WantLegend,
		Road: func(rt string) bool {
			for _, r := range roads {
				if r == rt {
					return true
				}
			}
			return false
		},
	})
	if err != nil {
		return mapData{}, senderFault("%v", err)
	}
	// Locations on top, with their image map areas.
	marker := markerColor
	if st.Mono {
		marker = color.RGBA{0, 0, 0, 255}
	}
	md := mapData{X: coord(v.Center[0]), Y: coord(v.Center[1]), AreaX: int(math.Round(v.WidthM)), AreaY: int(math.Round(v.HeightM)), Encoding: encodingWGS84}
	var areas []mapArea
	for i, p := range pts {
		canvas.Dot(p, markerRadius, marker)
		x, y := pr.Pixel(p)
		if x < 0 || y < 0 || x >= float64(v.W) || y >= float64(v.H) {
			continue
		}
		href := ""
		if u := strings.TrimSpace(mv.ImageMapURL); u != "" {
			href = strings.ReplaceAll(u, "{fid}", locs[i].FID)
		}
		areas = append(areas, mapArea{Shape: "circle", Alt: locs[i].Name, Coords: fmt.Sprintf("%d,%d,%d", int(x), int(y), markerRadius+1), Href: href})
	}
	if len(areas) > 0 {
		md.ImageMap = &struct {
			Areas []mapArea `xml:"Area"`
		}{areas}
	}
	if mv.WantLegend {
		md.BackgroundLegend, md.RoadLegend, md.LabelLegend = legendOut(st, drawn)
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
