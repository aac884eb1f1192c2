package soap

import (
	"math"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/render"
)

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
