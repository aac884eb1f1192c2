package soap

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/xml"
	"image"
	"image/gif"
	"image/png"
	"strconv"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/render"
	"github.com/geosvc/geosvc/routing"
)

// mapBody is a map request (op MapSimple, Map, ...) of the given fields,
// in the WSDL's order.
func mapBody(op, key string, fields map[string]string, inner string) string {
	base := map[string]string{"X": "-75.4990", "Y": "39.0000", "Encoding": "EPGS4326", "ZoomFactor": "2", "AreaX": "500", "AreaY": "0",
		"PanX": "0", "PanY": "0", "Action": "None", "ImageType": "Png", "LevelOfDetail": "0", "Width": "200", "Height": "100",
		"Metrics": "Meters", "UseDbSet": "false", "WantImageData": "true", "WantLegend": "true"}
	for k, v := range fields {
		base[k] = v
	}
	var b strings.Builder
	b.WriteString("<" + op + ` xmlns="http://geosvc.org/LocationService/">`)
	for _, k := range []string{"ViewX", "ViewY", "X", "Y", "X2", "Y2", "Encoding", "ZoomFactor", "AreaX", "AreaY", "PanX", "PanY", "Action",
		"ImageType", "LevelOfDetail", "Width", "Height", "IconWidth", "IconHeight", "Metrics", "UseDbSet", "WantImageData", "ImageMapUrl", "WantLegend", "RoadDataName", "RouteData"} {
		if v, ok := base[k]; ok {
			b.WriteString("<" + k + ">" + v + "</" + k + ">")
		}
	}
	b.WriteString(inner + "<SubscriptionKey>" + key + "</SubscriptionKey></" + op + ">")
	return b.String()
}

func mapResult(t *testing.T, body []byte, op string) mapData {
	t.Helper()
	var env struct {
		Body struct {
			Inner []byte `xml:",innerxml"`
		} `xml:"Body"`
	}
	if err := xml.Unmarshal(body, &env); err != nil {
		t.Fatal(err)
	}
	var md struct {
		Simple mapData `xml:"MapSimpleResult"`
		Full   mapData `xml:"MapResult"`
	}
	if err := xml.Unmarshal(env.Body.Inner, &md); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if op == "Map" {
		return md.Full
	}
	return md.Simple
}

func TestMapSimple(t *testing.T) {
	f := newFixture(t, false)
	g := tinyGraph(t)
	f.setGraph(g)
	rec := f.post("text/xml", envelope11(mapBody("MapSimple", f.key, nil, "")))
	if code, reason := faultOf(t, rec.Body.String()); code != "" {
		t.Fatalf("fault %s %s", code, reason)
	}
	md := mapResult(t, rec.Body.Bytes(), "MapSimple")
	if md.X != "-75.4990000" || md.Y != "39.0000000" || md.AreaX != 500 || md.AreaY != 250 || md.Encoding != encodingWGS84 {
		t.Errorf("view: %+v", md)
	}
	raw, _ := base64.StdEncoding.DecodeString(md.ImageData)
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil || img.Bounds() != image.Rect(0, 0, 200, 100) {
		t.Fatalf("image: %v %v", err, img)
	}
	// North Main Street runs through the centre (lat 39.0000): its pixel
	// has the color the legend gives its road type; a corner is land.
	if md.RoadLegend == nil || len(md.RoadLegend.Items) != 1 || md.BackgroundLegend == nil {
		t.Fatalf("legend %+v %+v", md.RoadLegend, md.BackgroundLegend)
	}
	road := md.RoadLegend.Items[0]
	want, _ := parseHexColor(road.Inner.Color)
	if r, g, b, _ := img.At(100, 50).RGBA(); uint8(r>>8) != want.R || uint8(g>>8) != want.G || uint8(b>>8) != want.B {
		t.Errorf("centre pixel %v, want the %s color %s", img.At(100, 50), road.Name, road.Inner.Color)
	}
	land, _ := parseHexColor(md.BackgroundLegend.Items[0].Inner.Color)
	if r, _, _, _ := img.At(2, 2).RGBA(); uint8(r>>8) != land.R {
		t.Errorf("corner pixel %v, want land %v", img.At(2, 2), land)
	}
	// Testville (population 1200) is drawn and listed; so is the scale bar.
	var labels []string
	for _, l := range md.LabelLegend.Items {
		labels = append(labels, l.Name)
	}
	if strings.Join(labels, ",") != "City1K,ScaleBar" {
		t.Errorf("labels %v", labels)
	}

	// Other image types, and no image data when not wanted.
	for typ, check := range map[string]func([]byte) error{
		"Gif": func(b []byte) error {
			img, err := gif.Decode(bytes.NewReader(b))
			if err == nil && img.Bounds().Dx() != 200 {
				err = strconv.ErrRange
			}
			return err
		},
		"Wbmp": func(b []byte) error {
			if len(b) != 2+2+1+100*25 || b[0] != 0 || b[2] != 0x81 || b[3] != 0x48 {
				return strconv.ErrSyntax
			}
			return nil
		},
	} {
		md := mapResult(t, f.post("text/xml", envelope11(mapBody("MapSimple", f.key, map[string]string{"ImageType": typ}, ""))).Body.Bytes(), "MapSimple")
		raw, _ := base64.StdEncoding.DecodeString(md.ImageData)
		if err := check(raw); err != nil {
			t.Errorf("%s: %v (%d bytes)", typ, err, len(raw))
		}
	}
	if md := mapResult(t, f.post("text/xml", envelope11(mapBody("MapSimple", f.key, map[string]string{"WantImageData": "false", "WantLegend": "false"}, ""))).Body.Bytes(), "MapSimple"); md.ImageData != "" || md.RoadLegend != nil {
		t.Errorf("unwanted image or legend: %+v", md)
	}
}

func TestMapActions(t *testing.T) {
	f := newFixture(t, false)
	g := tinyGraph(t)
	f.setGraph(g)
	get := func(fields map[string]string) mapData {
		t.Helper()
		fields["WantImageData"] = "false"
		rec := f.post("text/xml", envelope11(mapBody("MapSimple", f.key, fields, "")))
		if code, reason := faultOf(t, rec.Body.String()); code != "" {
			t.Fatalf("%v: fault %s %s", fields, code, reason)
		}
		return mapResult(t, rec.Body.Bytes(), "MapSimple")
	}
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	if md := get(map[string]string{"Action": "ZoomIn"}); md.AreaX != 250 {
		t.Errorf("ZoomIn: area %d, want 250", md.AreaX)
	}
	if md := get(map[string]string{"Action": "ZoomOut", "ZoomFactor": "4"}); md.AreaX != 2000 {
		t.Errorf("ZoomOut x4: area %d, want 2000", md.AreaX)
	}
	if md := get(map[string]string{"Action": "N"}); num(md.Y) <= 39.0 || md.X != "-75.4990000" {
		t.Errorf("N: centre %s %s, want north", md.X, md.Y)
	}
	if md := get(map[string]string{"PanX": "50"}); num(md.X) <= -75.499 {
		t.Errorf("PanX 50: centre %s, want east", md.X)
	}
	if md := get(map[string]string{"X2": "-75.4980", "Y2": "39.0010", "AreaX": "0"}); md.AreaX < 86 || md.AreaX > 230 {
		t.Errorf("bound view: area %d x %d", md.AreaX, md.AreaY)
	}
	for _, tc := range []struct {
		fields map[string]string
		reason string
	}{
		{map[string]string{"ImageType": "Bmp"}, "ImageType"},
		{map[string]string{"LevelOfDetail": "9"}, "LevelOfDetail 9"},
		{map[string]string{"Action": "Up"}, "ImageAction"},
		{map[string]string{"Width": "5000"}, "Width and Height"},
		{map[string]string{"RoadDataName": "atlantis"}, "RoadDataName"},
		{map[string]string{"Metrics": "Furlongs"}, "Metrics"},
	} {
		f.setName("tiny")
		rec := f.post("text/xml", envelope11(mapBody("MapSimple", f.key, tc.fields, "")))
		if code, reason := faultOf(t, rec.Body.String()); code != "soap:Client" || !strings.Contains(reason, tc.reason) {
			t.Errorf("%v: fault %q %q, want one about %s", tc.fields, code, reason, tc.reason)
		}
	}
}

func TestMapRouteAndLocations(t *testing.T) {
	f := newFixture(t, false)
	g := tinyGraph(t)
	f.setGraph(g)
	// A route along Main Street, as RoutePlanner returns it.
	r, err := g.Route(context.Background(), routing.Fastest, g.Snap(routing.Fastest, orb.Point{-75.4999, 39.0}, 0), g.Snap(routing.Fastest, orb.Point{-75.4982, 39.0}, 0))
	if err != nil {
		t.Fatal(err)
	}
	rd := base64.StdEncoding.EncodeToString([]byte(encodePolyline(r.Geometry)))
	locs := `<Locations><LocationInput fid="home"><Name>Home</Name><X>-75.4995</X><Y>39.0004</Y><Encoding>EPGS4326</Encoding></LocationInput></Locations>`
	// The route's RoadDataName (the bundle's name with its data's date)
	// names this server's data as the bare name does.
	f.setName("tiny")
	for _, name := range []string{"tiny", f.svc.roadDataName(g)} {
		rec := f.post("text/xml", envelope11(mapBody("MapSimple", f.key, map[string]string{"RoadDataName": name}, "")))
		if code, reason := faultOf(t, rec.Body.String()); code != "" {
			t.Errorf("RoadDataName %q: fault %s %s", name, code, reason)
		}
	}
	rec := f.post("text/xml", envelope11(mapBody("Map", f.key, map[string]string{"RouteData": rd, "ImageMapUrl": "https://app.test/loc/{fid}"}, locs)))
	if code, reason := faultOf(t, rec.Body.String()); code != "" {
		t.Fatalf("fault %s %s", code, reason)
	}
	md := mapResult(t, rec.Body.Bytes(), "Map")
	raw, _ := base64.StdEncoding.DecodeString(md.ImageData)
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	v := render.View{Center: orb.Point{-75.499, 39.0}, WidthM: 500, HeightM: 250, W: 200, H: 100}
	rx, ry := v.Pixel(orb.Point{-75.4990, 39.0})
	if r, g, b, _ := img.At(int(rx), int(ry)).RGBA(); uint8(r>>8) != 0x00 || uint8(g>>8) != 0x55 || uint8(b>>8) != 0xdd {
		t.Errorf("route pixel %v, want the PrimaryRoute color", img.At(int(rx), int(ry)))
	}
	hx, hy := v.Pixel(orb.Point{-75.4995, 39.0004})
	if md.ImageMap == nil || len(md.ImageMap.Areas) != 1 {
		t.Fatalf("image map %+v", md.ImageMap)
	}
	a := md.ImageMap.Areas[0]
	if a.Shape != "circle" || a.Alt != "Home" || a.Href != "https://app.test/loc/home" || a.Coords != strconv.Itoa(int(hx))+","+strconv.Itoa(int(hy))+",6" {
		t.Errorf("area %+v, want a circle at %.0f,%.0f", a, hx, hy)
	}
	// ZoomRoute fits the route.
	md = mapResult(t, f.post("text/xml", envelope11(mapBody("Map", f.key, map[string]string{"RouteData": rd, "Action": "ZoomRoute", "WantImageData": "false"}, ""))).Body.Bytes(), "Map")
	if md.AreaX > 200 || md.AreaX < 140 {
		t.Errorf("ZoomRoute: area %d m for a 146 m route", md.AreaX)
	}
	rec = f.post("text/xml", envelope11(mapBody("Map", f.key, map[string]string{"RouteData": base64.StdEncoding.EncodeToString([]byte("\x01\x02"))}, "")))
	if _, reason := faultOf(t, rec.Body.String()); !strings.Contains(reason, "RouteData") {
		t.Errorf("bad RouteData: %q", reason)
	}
}

func TestDisplaceAndGetLocation(t *testing.T) {
	f := newFixture(t, false)
	g := tinyGraph(t)
	f.setGraph(g)
	two := `<Locations><LocationInput fid="a"><X>-75.4990</X><Y>39.0000</Y><Encoding>EPGS4326</Encoding></LocationInput>` +
		`<LocationInput fid="b"><X>-75.4990</X><Y>39.0000</Y><Encoding>EPGS4326</Encoding></LocationInput></Locations>`
	fields := map[string]string{"IconWidth": "16", "IconHeight": "16"}
	rec := f.post("text/xml", envelope11(mapBody("MapDisplaceLocations", f.key, fields, two)))
	var env struct {
		Locs []locationInput `xml:"Body>MapDisplaceLocationsResponse>MapDisplaceLocationsResult>LocationInput"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &env); err != nil || len(env.Locs) != 2 {
		t.Fatalf("%v: %s", err, rec.Body)
	}
	v := render.View{Center: orb.Point{-75.499, 39.0}, WidthM: 500, HeightM: 250, W: 200, H: 100}
	var boxes []image.Rectangle
	for _, l := range env.Locs {
		x, _ := strconv.ParseFloat(l.X, 64)
		y, _ := strconv.ParseFloat(l.Y, 64)
		px, py := v.Pixel(orb.Point{x, y})
		boxes = append(boxes, iconBox(int(px+0.5), int(py+0.5), 16, 16))
	}
	if boxes[0].Overlaps(boxes[1]) || env.Locs[0].X != "-75.4990000" {
		t.Errorf("icons still overlap or the first moved: %v %+v", boxes, env.Locs)
	}
	// A click on the first icon finds it; a click far away, the point.
	cx, cy := v.Pixel(orb.Point{-75.4990, 39.0})
	click := func(x, y float64) []locationInput {
		fields := map[string]string{"ViewX": strconv.Itoa(int(x)), "ViewY": strconv.Itoa(int(y)), "IconWidth": "16", "IconHeight": "16"}
		rec := f.post("text/xml", envelope11(mapBody("MapGetLocation", f.key, fields, `<Locations><LocationInput fid="a"><X>-75.4990</X><Y>39.0000</Y><Encoding>EPGS4326</Encoding></LocationInput></Locations>`)))
		var env struct {
			Locs []locationInput `xml:"Body>MapGetLocationResponse>MapGetLocationResult>LocationInput"`
		}
		if err := xml.Unmarshal(rec.Body.Bytes(), &env); err != nil {
			t.Fatal(err)
		}
		return env.Locs
	}
	if got := click(cx+3, cy-3); len(got) != 1 || got[0].FID != "a" {
		t.Errorf("click on the icon: %+v", got)
	}
	if got := click(5, 5); len(got) != 1 || got[0].Type != "point" || got[0].X == "" {
		t.Errorf("click elsewhere: %+v", got)
	}
}
