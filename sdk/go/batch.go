package geosvc

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/geosvc/geosvc/sdk/go/openapi"
)

// TimeZoneAt returns the time zone and the local area at p at the instant
// at (timezonesv1/xy2tzdata with timestamp): the zone's data of that
// instant's year, and its RawOffsetS, DstOffsetS, TimeZoneId and
// Abbreviation at the instant (their sum is the UTC offset then).
func (c *Client) TimeZoneAt(ctx context.Context, p Point, at time.Time) (*TimeZone, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	ts := strconv.FormatInt(at.Unix(), 10)
	r, err := c.raw.Xy2tzdataWithResponse(ctx, &openapi.Xy2tzdataParams{X: p.Lon, Y: p.Lat, Timestamp: &ts})
	if err != nil {
		return nil, wrap("xy2tzdata", err)
	}
	v, err := result("xy2tzdata", r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return nil, err
	}
	return &TimeZone{TimeZoneResponse: *v, Name: r.HTTPResponse.Header.Get("X-Time-Zone")}, nil
}

// AdminHierarchy returns every administrative area at p, admin0 (the
// country) first, in one request (adminv1/xy2hierarchy): each area once,
// with xy2admininfo's properties; withGeometry adds each area's polygon
// containing p.
func (c *Client) AdminHierarchy(ctx context.Context, p Point, withGeometry bool) ([]openapi.AdminHierarchyFeature, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	params := &openapi.Xy2hierarchyParams{X: p.Lon, Y: p.Lat}
	if withGeometry {
		g := openapi.Xy2hierarchyParamsGeometryTrue
		params.Geometry = &g
	}
	r, err := c.raw.Xy2hierarchyWithResponse(ctx, params)
	if err != nil {
		return nil, wrap("xy2hierarchy", err)
	}
	v, err := result("xy2hierarchy", r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return nil, err
	}
	return v.Features, nil
}

// GeocodeBatch geocodes up to 1,000 addresses in one request
// (POST /geocoderv1/batch): one response per address, in order, each as
// Geocode's answer would be; an invalid address gets its own
// INVALID_REQUEST response, with an error message naming it.
func (c *Client) GeocodeBatch(ctx context.Context, addresses []string) ([]openapi.GeocodeResponse, error) {
	return c.geocodeBatch(ctx, openapi.GeocodeBatch{Addresses: &addresses})
}

// ReverseGeocodeBatch reverse-geocodes up to 1,000 points in one request
// (POST /geocoderv1/batch): one response per point, in order, each as
// ReverseGeocode's answer would be.
func (c *Client) ReverseGeocodeBatch(ctx context.Context, points []Point) ([]openapi.GeocodeResponse, error) {
	ps, err := batchPoints(points)
	if err != nil {
		return nil, err
	}
	return c.geocodeBatch(ctx, openapi.GeocodeBatch{Reverse: &ps})
}

func (c *Client) geocodeBatch(ctx context.Context, body openapi.GeocodeBatch) ([]openapi.GeocodeResponse, error) {
	r, err := c.raw.GeocodeBatchWithResponse(ctx, body)
	if err != nil {
		return nil, wrap("geocode-batch", err)
	}
	v, err := result("geocode-batch", r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return nil, err
	}
	return v.Results, nil
}

// LookupLayer is a layer of LookupsBatch.
type LookupLayer = openapi.LookupsBatchLayers

// The layers of LookupsBatch, each the answer of one GET lookup.
const (
	LayerTimezone      LookupLayer = "timezone"      // timezonesv1/xy2tzdata
	LayerAdmin         LookupLayer = "admin"         // adminv1/xy2hierarchy
	LayerGeoBoundaries LookupLayer = "geoboundaries" // geoboundariesv1/xy2bounddata
	LayerZIP4          LookupLayer = "zip4"          // zip4v1/xy2zip
	LayerCovid         LookupLayer = "covid"         // covidv1/xy2data?admin=8
)

// LookupsBatch looks up to 10,000 points in the layers named
// (POST /lookupsv1/batch): one result per point, in order, with Status
// 200 and each layer's answer as its GET endpoint gives it, or 400 and a
// Message for an invalid point. at, when not zero, is the instant of the
// timezone layer (as TimeZoneAt).
func (c *Client) LookupsBatch(ctx context.Context, points []Point, layers []LookupLayer, at time.Time) ([]openapi.LookupsResult, error) {
	ps, err := batchPoints(points)
	if err != nil {
		return nil, err
	}
	body := openapi.LookupsBatch{Points: ps, Layers: layers}
	if !at.IsZero() {
		ts := strconv.FormatInt(at.Unix(), 10)
		body.Timestamp = &ts
	}
	r, err := c.raw.LookupsBatchWithResponse(ctx, body)
	if err != nil {
		return nil, wrap("lookups-batch", err)
	}
	v, err := result("lookups-batch", r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return nil, err
	}
	return v.Results, nil
}

// batchPoints converts points for a batch body. A point out of range is
// sent as it is: the server answers it in its own result (status 400),
// not the whole batch; only NaN and infinities, which JSON cannot carry,
// are refused here.
func batchPoints(points []Point) ([]openapi.BatchPoint, error) {
	out := make([]openapi.BatchPoint, len(points))
	for i, p := range points {
		if math.IsNaN(p.Lon) || math.IsNaN(p.Lat) || math.IsInf(p.Lon, 0) || math.IsInf(p.Lat, 0) {
			return nil, fmt.Errorf("geosvc: points[%d] %v: NaN and infinities cannot be sent as JSON", i, p)
		}
		out[i] = openapi.BatchPoint{X: p.Lon, Y: p.Lat}
	}
	return out, nil
}
