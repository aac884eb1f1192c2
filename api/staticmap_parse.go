package api

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/cartography"
)

// Limits of a static map's overlays.
const (
	maxStaticMarkers     = 100  // markers, over every markers parameter
	maxStaticPaths       = 20   // path parameters
	maxStaticPathPoints  = 5000 // points, over every path
	maxStaticRoutePoints = 10   // the route's points (start, stops, end)
	maxStaticLabel       = 30   // a marker label's characters
	maxStaticWeight      = 20   // a path's width in pixels
	maxStaticSide        = 2048 // the image's width and height in pixels
)

// staticColors are the colour names a marker or path may give (Google
// Static Maps' names), besides 0xRRGGBB and 0xRRGGBBAA.
var staticColors = map[string]color.NRGBA{
	"black": {0, 0, 0, 255}, "brown": {0x96, 0x4B, 0x00, 255}, "green": {0x1E, 0x96, 0x1E, 255},
	"purple": {0x80, 0x30, 0xA0, 255}, "yellow": {0xF0, 0xC8, 0x00, 255}, "blue": {0x10, 0x50, 0xD0, 255},
	"gray": {0x80, 0x80, 0x80, 255}, "orange": {0xFF, 0x80, 0x00, 255}, "red": {0xD0, 0x10, 0x10, 255},
	"white": {255, 255, 255, 255},
}

// markerRadius are the marker sizes by name, in pixels at scale 1.
var markerRadius = map[string]float64{"tiny": 4, "small": 6, "mid": 9}

// parseStaticColor reads a colour name or 0xRRGGBB[AA], as an
// alpha-premultiplied colour.
func parseStaticColor(s string) (color.RGBA, string) {
	if c, ok := staticColors[strings.ToLower(s)]; ok {
		return color.RGBAModel.Convert(c).(color.RGBA), ""
	}
	hex, ok := strings.CutPrefix(strings.ToLower(s), "0x")
	if ok && (len(hex) == 6 || len(hex) == 8) {
		if v, err := strconv.ParseUint(hex, 16, 32); err == nil {
			if len(hex) == 6 {
				v = v<<8 | 0xff
			}
			c := color.NRGBA{uint8(v >> 24), uint8(v >> 16), uint8(v >> 8), uint8(v)}
			return color.RGBAModel.Convert(c).(color.RGBA), ""
		}
	}
	return color.RGBA{}, fmt.Sprintf("color %s is not a colour: use 0xRRGGBB, 0xRRGGBBAA or black, brown, green, purple, yellow, blue, gray, orange, red or white", quoteEcho(s))
}

// parseMarkers reads the value of the i-th markers parameter: items
// separated by "|", styles (color:, label:, size:) and locations
// "lon,lat" or "lon,lat,label", longitude first. A style applies to
// every location of the parameter; a location's own label wins over
// label:. Messages name the parameter and item: "markers[0][2]: ...".
func parseMarkers(i int, v string) ([]cartography.Marker, string) {
	var out []cartography.Marker
	style := cartography.Marker{}
	label := ""
	name := func(k int) string { return fmt.Sprintf("markers[%d][%d]", i, k) }
	for k, item := range strings.Split(v, "|") {
		item = strings.TrimSpace(item)
		key, val, isStyle := strings.Cut(item, ":")
		switch {
		case item == "":
			return nil, name(k) + ": an empty item (two | in a row, or one at an end)"
		case isStyle && key == "color":
			c, msg := parseStaticColor(val)
			if msg != "" {
				return nil, name(k) + ": " + msg
			}
			style.Color = c
		case isStyle && key == "label":
			if msg := checkLabel(val); msg != "" {
				return nil, name(k) + ": " + msg
			}
			label = val
		case isStyle && key == "size":
			r, ok := markerRadius[val]
			if !ok {
				return nil, fmt.Sprintf("%s: size %s is not tiny, small or mid", name(k), quoteEcho(val))
			}
			style.Radius = r
		case isStyle:
			return nil, fmt.Sprintf("%s: %s is not a marker style: use color:, label: or size:", name(k), quoteEcho(key))
		default:
			parts := strings.SplitN(item, ",", 3)
			if len(parts) < 2 {
				return nil, fmt.Sprintf(`%s: %s is not a location "lon,lat" or "lon,lat,label", nor a style (color:, label:, size:)`, name(k), quoteEcho(item))
			}
			p, msg := parseLonLat(parts[0] + "," + parts[1])
			if msg != "" {
				return nil, name(k) + ": " + msg
			}
			if msg := checkMercatorLat(p[1]); msg != "" {
				return nil, name(k) + ": " + msg
			}
			mk := style
			mk.Point = p
			mk.Label = label
			if len(parts) == 3 {
				if msg := checkLabel(parts[2]); msg != "" {
					return nil, name(k) + ": " + msg
				}
				mk.Label = parts[2]
			}
			out = append(out, mk)
		}
	}
	// Styles apply to the whole parameter, wherever they are written.
	for k := range out {
		out[k].Color, out[k].Radius = style.Color, style.Radius
		if out[k].Label == "" {
			out[k].Label = label
		}
	}
	if len(out) == 0 {
		return nil, fmt.Sprintf("markers[%d]: no location: give at least one lon,lat", i)
	}
	return out, ""
}

// checkLabel checks a marker's label: 1 to 30 printable characters.
func checkLabel(s string) string {
	n := utf8.RuneCountInString(s)
	if !utf8.ValidString(s) || n == 0 || n > maxStaticLabel {
		return fmt.Sprintf("label %s must be 1 to %d characters", quoteEcho(s), maxStaticLabel)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Sprintf("label %s holds a character that is not printable", quoteEcho(s))
		}
	}
	return ""
}

// checkMercatorLat refuses a latitude web mercator cannot draw.
func checkMercatorLat(lat float64) string {
	if math.Abs(lat) > maxMercatorLat {
		return fmt.Sprintf("latitude %g is beyond web mercator's %.4f degrees", lat, maxMercatorLat)
	}
	return ""
}

// maxMercatorLat is web mercator's latitude limit, in degrees.
const maxMercatorLat = 85.0511287798

// parsePath reads the value of the i-th path parameter: styles
// (color:, weight:) and either points "lon,lat" separated by "|" or one
// encoded polyline "enc:..." (Google's polyline format at precision 1e5,
// which stores latitude first, as every encoder of it does), the last
// item: it runs to the end of the value, "|" included.
func parsePath(i int, v string) (cartography.Path, string) {
	var p cartography.Path
	name := func(k int) string { return fmt.Sprintf("path[%d][%d]", i, k) }
	enc, colored := false, false
	rest := v
	for k := 0; rest != "" || k == 0; k++ {
		var item string
		item, rest, _ = strings.Cut(rest, "|")
		item = strings.TrimSpace(item)
		if strings.HasPrefix(item, "enc:") && rest != "" {
			// An encoded polyline may hold "|": it runs to the end.
			item, rest = item+"|"+rest, ""
		}
		key, val, isStyle := strings.Cut(item, ":")
		switch {
		case item == "":
			return p, name(k) + ": an empty item (two | in a row, or one at an end)"
		case isStyle && key == "color":
			c, msg := parseStaticColor(val)
			if msg != "" {
				return p, name(k) + ": " + msg
			}
			p.Color, colored = c, true
		case isStyle && key == "weight":
			w, err := strconv.ParseFloat(val, 64)
			if err != nil || !isDecimal(val) || w <= 0 || w > maxStaticWeight {
				return p, fmt.Sprintf("%s: weight %s must be a number of pixels above 0 and at most %d", name(k), quoteEcho(val), maxStaticWeight)
			}
			p.Weight = w
		case isStyle && key == "enc":
			if enc || len(p.Points) > 0 {
				return p, name(k) + ": an encoded polyline must be the path's only points"
			}
			pts, err := decodePolyline(val, 5)
			if err != nil {
				return p, fmt.Sprintf("%s: enc: is not an encoded polyline: %v", name(k), err)
			}
			if len(pts) > maxStaticPathPoints {
				return p, fmt.Sprintf("%s: more than %d points", name(k), maxStaticPathPoints)
			}
			for j, q := range pts {
				if q[0] < -180 || q[0] > 180 || q[1] < -90 || q[1] > 90 {
					return p, fmt.Sprintf("%s: point %d of the polyline (%g, %g) is off the globe", name(k), j, q[0], q[1])
				}
				if msg := checkMercatorLat(q[1]); msg != "" {
					return p, fmt.Sprintf("%s: point %d of the polyline: %s", name(k), j, msg)
				}
			}
			p.Points, enc = pts, true
		case isStyle:
			return p, fmt.Sprintf("%s: %s is not a path style: use color:, weight: or enc:", name(k), quoteEcho(key))
		default:
			if enc {
				return p, name(k) + ": an encoded polyline must be the path's only points"
			}
			q, msg := parseLonLat(item)
			if msg != "" {
				return p, name(k) + ": " + msg
			}
			if msg := checkMercatorLat(q[1]); msg != "" {
				return p, name(k) + ": " + msg
			}
			if len(p.Points) == maxStaticPathPoints {
				return p, fmt.Sprintf("%s: more than %d points", name(k), maxStaticPathPoints)
			}
			p.Points = append(p.Points, q)
		}
	}
	if len(p.Points) < 2 {
		return p, fmt.Sprintf("path[%d]: a path needs 2 points or more (lon,lat|lon,lat, or enc:)", i)
	}
	if !colored {
		p.Color = color.RGBA{0x10, 0x50, 0xD0, 0xff}
	}
	return p, ""
}

// parseRoutePoints reads route=lon,lat;lon,lat[;...]: 2 to 10 points.
func parseRoutePoints(v string) ([]orb.Point, string) {
	parts := strings.Split(v, ";")
	if len(parts) < 2 || len(parts) > maxStaticRoutePoints {
		return nil, fmt.Sprintf("route must be 2 to %d points lon,lat separated by ;, got %d", maxStaticRoutePoints, len(parts))
	}
	pts := make([]orb.Point, len(parts))
	for i, s := range parts {
		p, msg := parseLonLat(strings.TrimSpace(s))
		if msg == "" {
			msg = checkMercatorLat(p[1])
		}
		if msg != "" {
			return nil, fmt.Sprintf("route[%d]: %s", i, msg)
		}
		pts[i] = p
	}
	return pts, ""
}

// parseSize reads size=WxH: each side 1 to 2048 pixels.
func parseSize(v string) (w, h int, msg string) {
	ws, hs, ok := strings.Cut(strings.ToLower(v), "x")
	w, errW := strconv.Atoi(ws)
	h, errH := strconv.Atoi(hs)
	if !ok || errW != nil || errH != nil || w < 1 || h < 1 || w > maxStaticSide || h > maxStaticSide {
		return 0, 0, fmt.Sprintf("size %s must be WIDTHxHEIGHT in pixels, each 1 to %d (e.g. 600x400)", quoteEcho(v), maxStaticSide)
	}
	return w, h, ""
}

// parseBBox reads bbox=minlon,minlat,maxlon,maxlat.
func parseBBox(v string) (orb.Bound, string) {
	parts := strings.Split(v, ",")
	if len(parts) != 4 {
		return orb.Bound{}, fmt.Sprintf("bbox %s must be minlon,minlat,maxlon,maxlat", quoteEcho(v))
	}
	var f [4]float64
	for i, s := range parts {
		s = strings.TrimSpace(s)
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || !isDecimal(s) {
			return orb.Bound{}, fmt.Sprintf("bbox: %s is not a decimal number", quoteEcho(s))
		}
		f[i] = x
	}
	b := orb.Bound{Min: orb.Point{f[0], f[1]}, Max: orb.Point{f[2], f[3]}}
	switch {
	case b.Min[0] < -180 || b.Max[0] > 180:
		return b, "bbox: longitudes must be in [-180, 180]"
	case math.Abs(b.Min[1]) > maxMercatorLat || math.Abs(b.Max[1]) > maxMercatorLat:
		return b, fmt.Sprintf("bbox: latitudes must be within web mercator's ±%.4f degrees", maxMercatorLat)
	case b.Min[0] >= b.Max[0] || b.Min[1] >= b.Max[1]:
		return b, "bbox: minlon must be less than maxlon and minlat less than maxlat (the order is minlon,minlat,maxlon,maxlat)"
	}
	return b, ""
}
