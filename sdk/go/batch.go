package geosvc

import (
	"context"
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
