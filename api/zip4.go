package api

import (
	"math"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/geo/zip4"
	"github.com/geosvc/geosvc/keys"
)

// zip4Interface is the interface name of the ZIP+4 endpoint, as keys and
// usage counters know it.
const zip4Interface = keys.Zip4V1

// Zip4 answer constants.
const (
	// zip4CRSName is the EPSG 4326 URN of the feature collections.
	zip4CRSName = "urn:ogc:def:crs:EPSG::4326"
	// zip4GeometryName is each feature's geometry_name (the same as
	// adminv1's).
	zip4GeometryName = "geom"
	// zip4IDPrefix prefixes a feature's uid to make its id.
	zip4IDPrefix = "zip4."
)

// Zip4Options configures the zip4v1 endpoint.
type Zip4Options struct {
	// Bundle is the data bundle answered from; nil, or holding none yet,
	// while it loads (the endpoint answers 503 then).
	Bundle *bundle.Current
}

// RegisterZip4 adds GET /zip4v1/xy2zip to g (Server.Protected):
// ?x=LAT&y=LON answers the ZIP+4 areas containing the point, ?zip9=CODE
// the area of that code, both as the spec's feature collection.
func RegisterZip4(g *echo.Group, opts Zip4Options) {
	h := &zip4Handler{bundle: opts.Bundle}
	g.GET("/"+zip4Interface+"/xy2zip", h.xy2zip)
}

// zip4Handler serves zip4v1.
type zip4Handler struct {
	bundle *bundle.Current
}

// layer returns the ZIP+4 layer of the bundle being served, nil while it
// loads.
func (h *zip4Handler) layer() *zip4.Layer {
	if b := h.bundle.Load(); b != nil {
		return b.Zip4
	}
	return nil
}

// zip4Collection is the body of xy2zip (SPEC.md, ZIP+4 feature
// collection).
type zip4Collection struct {
	Type          string        `json:"type"`
	TotalFeatures int           `json:"totalFeatures"`
	Features      []zip4Feature `json:"features"`
	CRS           zip4CRS       `json:"crs"`
	// BBox is [min_lat, min_lon, max_lat, max_lon] (latitude first, as
	// the spec shows it) over every feature; null when there are none (as
	// adminv1 answers).
	BBox []float64 `json:"bbox"`
}

// zip4CRS is a named coordinate reference system.
type zip4CRS struct {
	Type       string            `json:"type"`
	Properties zip4CRSProperties `json:"properties"`
}

// zip4CRSProperties holds the CRS name.
type zip4CRSProperties struct {
	Name string `json:"name"`
}

// zip4Feature is one ZIP+4 area.
type zip4Feature struct {
	Type         string         `json:"type"`
	ID           string         `json:"id"`
	Geometry     zip4Geometry   `json:"geometry"`
	GeometryName string         `json:"geometry_name"`
	Properties   zip4Properties `json:"properties"`
}

// zip4Geometry is a MultiPolygon of [lon, lat] positions.
type zip4Geometry struct {
	Type        string           `json:"type"`
	Coordinates orb.MultiPolygon `json:"coordinates"`
}

// zip4Properties are a feature's properties: the spec's uid, zip, zip9,
// fips and bbox ([min_lon, min_lat, max_lon, max_lat], longitude first),
// and geosvc's extension telling derived codes from authoritative ones.
type zip4Properties struct {
	UID  string     `json:"uid"`
	Zip  string     `json:"zip"`
	Zip9 string     `json:"zip9"`
	FIPS string     `json:"fips"`
	BBox [4]float64 `json:"bbox"`
	// Source is "derived-tiger" for a +4 derived from TIGER block faces
	// (not a USPS code), "file" for one from an authoritative file.
	Source string `json:"source"`
	// Derived is true when the +4 is derived, not a USPS code.
	Derived bool `json:"derived"`
	// Street and Side name the block face of a derived feature.
	Street string `json:"street,omitempty"`
	Side   string `json:"side,omitempty"`
}

// xy2zip answers both forms of /zip4v1/xy2zip.
func (h *zip4Handler) xy2zip(c echo.Context) error {
	q, err := parseZip4Query(c.QueryParams())
	if err != nil {
		return httpError(http.StatusBadRequest, err.Error())
	}
	l := h.layer()
	if l == nil {
		return httpError(http.StatusServiceUnavailable, "data bundle loading")
	}
	var ids []int
	if q.ByCode {
		ids = l.ByZip9(q.Zip9)
	} else {
		ids = l.At(make([]int, 0, 4), q.Point)
	}
	return c.JSON(http.StatusOK, newZip4Collection(l, ids))
}

// newZip4Collection answers features ids of l.
func newZip4Collection(l *zip4.Layer, ids []int) zip4Collection {
	meta := l.Meta()
	out := zip4Collection{
		Type:     "FeatureCollection",
		Features: make([]zip4Feature, 0, len(ids)),
		CRS:      zip4CRS{Type: "name", Properties: zip4CRSProperties{Name: zip4CRSName}},
	}
	minLon, minLat, maxLon, maxLat := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, i := range ids {
		f := l.Feature(i)
		b := l.Bound(i)
		minLon, minLat = math.Min(minLon, b.Min[0]), math.Min(minLat, b.Min[1])
		maxLon, maxLat = math.Max(maxLon, b.Max[0]), math.Max(maxLat, b.Max[1])
		out.Features = append(out.Features, zip4Feature{
			Type:         "Feature",
			ID:           zip4IDPrefix + f.UID,
			Geometry:     zip4Geometry{Type: "MultiPolygon", Coordinates: zip4Round(f.Geometry)},
			GeometryName: zip4GeometryName,
			Properties: zip4Properties{
				UID: f.UID, Zip: f.Zip(), Zip9: f.Zip9, FIPS: f.FIPS,
				BBox:   [4]float64{geo.Round7(b.Min[0]), geo.Round7(b.Min[1]), geo.Round7(b.Max[0]), geo.Round7(b.Max[1])},
				Source: meta.Source, Derived: meta.Derived,
				Street: f.Street, Side: f.Side,
			},
		})
	}
	out.TotalFeatures = len(out.Features)
	if len(out.Features) > 0 {
		out.BBox = []float64{geo.Round7(minLat), geo.Round7(minLon), geo.Round7(maxLat), geo.Round7(maxLon)}
	}
	return out
}

// zip4Round rounds positions to 7 decimals (about a centimetre), in place:
// the geometry is a copy.
func zip4Round(mp orb.MultiPolygon) orb.MultiPolygon {
	for _, poly := range mp {
		for _, ring := range poly {
			for i, p := range ring {
				ring[i] = orb.Point{geo.Round7(p[0]), geo.Round7(p[1])}
			}
		}
	}
	return mp
}
