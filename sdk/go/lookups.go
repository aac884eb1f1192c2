package geosvc

import (
	"context"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/geosvc/geosvc/sdk/go/openapi"
)

// Info returns the server's version, its interfaces and its data bundle
// (GET /v1/info; no key needed).
func (c *Client) Info(ctx context.Context) (*openapi.Info, error) {
	r, err := c.raw.GetInfoWithResponse(ctx)
	if err != nil {
		return nil, wrap("info", err)
	}
	return result("info", r.HTTPResponse, r.Body, r.JSON200)
}

// ZIP4 is a zip4v1 answer: the feature collection and its bbox read
// longitude first.
type ZIP4 struct {
	openapi.Zip4Collection
	// Bounds is the collection's bbox (written latitude first by the
	// server), nil when empty.
	Bounds *Bounds
}

// ZIP4 returns the ZIP+4 areas containing p (zip4v1/xy2zip; the client
// sends x = latitude, y = longitude, as the interface wants).
func (c *Client) ZIP4(ctx context.Context, p Point) (*ZIP4, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	lat, lon := p.Lat, p.Lon
	return c.zip4(ctx, &openapi.Zip4Xy2zipParams{X: &lat, Y: &lon})
}

// ZIP4Code returns the area(s) of a nine-digit ZIP+4 code.
func (c *Client) ZIP4Code(ctx context.Context, zip9 string) (*ZIP4, error) {
	return c.zip4(ctx, &openapi.Zip4Xy2zipParams{Zip9: &zip9})
}

func (c *Client) zip4(ctx context.Context, params *openapi.Zip4Xy2zipParams) (*ZIP4, error) {
	r, err := c.raw.Zip4Xy2zipWithResponse(ctx, params)
	if err != nil {
		return nil, wrap("xy2zip", err)
	}
	v, err := result("xy2zip", r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return nil, err
	}
	return &ZIP4{Zip4Collection: *v, Bounds: boundsLatFirst(v.Bbox)}, nil
}

// GeocodeOptions narrows a geocoder request; the zero value asks for
// everything.
type GeocodeOptions struct {
	// Components filters by component, "country:US|postal_code:19901".
	Components string
	// Bounds biases results towards a viewport, "lat,lng|lat,lng" (the
	// geocoder writes latitude first, as Google's does).
	Bounds string
	// ResultType and LocationType filter results ("street_address|route",
	// "ROOFTOP").
	ResultType, LocationType string
	// BoundsRestrict makes Bounds a filter instead of a bias
	// (bounds_mode=restrict; Geocode only).
	BoundsRestrict bool
	// Lang names the answer in these languages, BCP 47 tags preferred
	// first ("de,fr"): OSM's name:xx where the data has it, else the
	// default name.
	Lang string
}

// Geocode returns the places matching a free-text address
// (geocoderv1/geocoder). ZERO_RESULTS is an answer with no results; any
// other status than OK is an *APIError with Status set.
func (c *Client) Geocode(ctx context.Context, address string, opts *GeocodeOptions) (*openapi.GeocodeResponse, error) {
	p := &openapi.GeocodeParams{Address: &address}
	if opts != nil {
		p.Components = nonEmpty(opts.Components)
		p.Bounds = nonEmpty(opts.Bounds)
		p.ResultType = nonEmpty(opts.ResultType)
		p.LocationType = nonEmpty(opts.LocationType)
		if opts.BoundsRestrict {
			mode := openapi.GeocodeParamsBoundsModeRestrict
			p.BoundsMode = &mode
		}
		if opts.Lang != "" {
			lang := openapi.Lang(opts.Lang)
			p.Lang = &lang
		}
	}
	r, err := c.raw.GeocodeWithResponse(ctx, p)
	if err != nil {
		return nil, wrap("geocode", err)
	}
	return geocoded("geocode", r.HTTPResponse, r.Body, r.JSON200)
}

// ReverseGeocode returns the addresses at p, nearest first
// (geocoderv1/rev-geocoder); opts' ResultType and LocationType apply.
func (c *Client) ReverseGeocode(ctx context.Context, p Point, opts *GeocodeOptions) (*openapi.GeocodeResponse, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	params := &openapi.ReverseGeocodeParams{X: p.Lon, Y: p.Lat}
	if opts != nil {
		params.ResultType = nonEmpty(opts.ResultType)
		params.LocationType = nonEmpty(opts.LocationType)
		if opts.Lang != "" {
			lang := openapi.Lang(opts.Lang)
			params.Lang = &lang
		}
	}
	r, err := c.raw.ReverseGeocodeWithResponse(ctx, params)
	if err != nil {
		return nil, wrap("rev-geocode", err)
	}
	return geocoded("rev-geocode", r.HTTPResponse, r.Body, r.JSON200)
}

// geocoded turns a geocoder status other than OK and ZERO_RESULTS into an
// error.
func geocoded(op string, resp *http.Response, body []byte, v *openapi.GeocodeResponse) (*openapi.GeocodeResponse, error) {
	v, err := result(op, resp, body, v)
	if err != nil {
		return nil, err
	}
	if v.Status != "OK" && v.Status != "ZERO_RESULTS" {
		e := &APIError{Op: op, StatusCode: resp.StatusCode, Status: string(v.Status), RequestID: resp.Header.Get("X-Request-Id")}
		if v.ErrorMessage != nil {
			e.Message = *v.ErrorMessage
		}
		return nil, e
	}
	return v, nil
}

// TimeZone is a timezonesv1 answer with the zone's IANA name.
type TimeZone struct {
	openapi.TimeZoneResponse
	// Name is the IANA name of the zone ("America/New_York"), from the
	// X-Time-Zone header.
	Name string
}

// TimeZone returns the time zone and the local area at p
// (timezonesv1/xy2tzdata).
func (c *Client) TimeZone(ctx context.Context, p Point) (*TimeZone, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	r, err := c.raw.Xy2tzdataWithResponse(ctx, &openapi.Xy2tzdataParams{X: p.Lon, Y: p.Lat})
	if err != nil {
		return nil, wrap("xy2tzdata", err)
	}
	v, err := result("xy2tzdata", r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return nil, err
	}
	return &TimeZone{TimeZoneResponse: *v, Name: r.HTTPResponse.Header.Get("X-Time-Zone")}, nil
}

// AdminLevel is an administrative level of adminv1, Admin0 (country) to
// Admin8 (usually municipalities).
type AdminLevel = openapi.Xy2admininfoParamsType

// The administrative levels.
const (
	Admin0 AdminLevel = "admin0"
	Admin1 AdminLevel = "admin1"
	Admin2 AdminLevel = "admin2"
	Admin3 AdminLevel = "admin3"
	Admin4 AdminLevel = "admin4"
	Admin5 AdminLevel = "admin5"
	Admin6 AdminLevel = "admin6"
	Admin7 AdminLevel = "admin7"
	Admin8 AdminLevel = "admin8"
)

// Admin is an adminv1 answer: at most one feature, and the bbox of its
// polygon read longitude first.
type Admin struct {
	openapi.AdminCollection
	// Bounds is the polygon's bbox (written latitude first by the
	// server), nil when there is no area.
	Bounds *Bounds
}

// Area returns the area's feature, or nil when the point is in none.
func (a *Admin) Area() *openapi.AdminFeature {
	if len(a.Features) == 0 {
		return nil
	}
	return &a.Features[0]
}

// AreaBounds returns the whole area's bbox (properties.bbox, longitude
// first), nil when there is no area.
func (a *Admin) AreaBounds() *Bounds {
	if f := a.Area(); f != nil {
		return boundsLonFirst(f.Properties.Bbox)
	}
	return nil
}

// Admin returns the administrative area of level at p, or the nearest
// coarser one (adminv1/xy2admininfo).
func (c *Client) Admin(ctx context.Context, p Point, level AdminLevel) (*Admin, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	r, err := c.raw.Xy2admininfoWithResponse(ctx, &openapi.Xy2admininfoParams{X: p.Lon, Y: p.Lat, Type: level})
	if err != nil {
		return nil, wrap("xy2admininfo", err)
	}
	v, err := result("xy2admininfo", r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return nil, err
	}
	return &Admin{AdminCollection: *v, Bounds: boundsLatFirst(v.Bbox)}, nil
}

// GeoBoundaries returns the non-administrative boundaries containing p,
// smallest first (geoboundariesv1/xy2bounddata); category 0 asks for all,
// else only that category (920 postal_code, 921 protected_area...).
func (c *Client) GeoBoundaries(ctx context.Context, p Point, category int) ([]openapi.GeoBoundary, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	params := &openapi.Xy2bounddataParams{X: p.Lon, Y: p.Lat}
	if category != 0 {
		params.GeoBoundary = &category
	}
	r, err := c.raw.Xy2bounddataWithResponse(ctx, params)
	if err != nil {
		return nil, wrap("xy2bounddata", err)
	}
	v, err := result("xy2bounddata", r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return nil, err
	}
	return v.Boundaries, nil
}

// Routing is a matrix's or a route's cost: Fastest (the default) or
// Shortest.
type Routing string

// The routings.
const (
	Fastest  Routing = "fastest"
	Shortest Routing = "shortest"
)

// Route returns the route from one point to another (routev1/route; the
// client writes the points "lon,lat"); routing "" is Fastest.
func (c *Client) Route(ctx context.Context, from, to Point, routing Routing) (*openapi.Route, error) {
	return c.RouteWith(ctx, from, to, RouteOptions{Routing: routing})
}

// RouteOptions are some of routev1's optional parameters: routing,
// speeds, avoid, alternatives and lang. For the others (departure_time,
// arrival_time, profile, vehicle, avoid_polygons, radiuses, bearings,
// approaches, snapping) call the generated client, Client.Raw's
// RouteWithResponse with openapi.RouteParams.
type RouteOptions struct {
	// Routing is what the route minimises; "" is Fastest (the server
	// also takes "efficient" and "safest").
	Routing Routing
	// Speeds are km/h by RoadType ("Motorway": 80).
	Speeds map[string]float64
	// Avoid are road kinds to avoid: "ferry", "motorway", "toll",
	// "unpaved".
	Avoid []string
	// Alternatives asks for up to this many alternative routes (0 to 2),
	// in the answer's Alternatives.
	Alternatives int
	// Lang names the steps' streets in these languages where the data
	// has them (OSM's name:xx), BCP 47 tags preferred first ("de",
	// "fr-CA,fr"); the answer's Lang says the one used ("": the
	// default names).
	Lang string
}

// RouteWith is Route with the options of RouteOptions (routing, speeds,
// avoid, alternatives, lang); routev1's other parameters go through
// Client.Raw.
func (c *Client) RouteWith(ctx context.Context, from, to Point, o RouteOptions) (*openapi.Route, error) {
	if err := from.check(); err != nil {
		return nil, err
	}
	if err := to.check(); err != nil {
		return nil, err
	}
	params := &openapi.RouteParams{From: from.String(), To: to.String()}
	if o.Routing != "" {
		r := openapi.RouteParamsRouting(o.Routing)
		params.Routing = &r
	}
	if len(o.Speeds) > 0 {
		names := make([]string, 0, len(o.Speeds))
		for n := range o.Speeds {
			names = append(names, n)
		}
		sort.Strings(names)
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = n + ":" + strconv.FormatFloat(o.Speeds[n], 'f', -1, 64)
		}
		v := strings.Join(parts, ",")
		params.Speeds = &v
	}
	if len(o.Avoid) > 0 {
		v := strings.Join(o.Avoid, ",")
		params.Avoid = &v
	}
	if o.Alternatives != 0 {
		n := o.Alternatives
		params.Alternatives = &n
	}
	if o.Lang != "" {
		l := o.Lang
		params.Lang = &l
	}
	r, err := c.raw.RouteWithResponse(ctx, params)
	if err != nil {
		return nil, wrap("route", err)
	}
	return result("route", r.HTTPResponse, r.Body, r.JSON200)
}

// Match matches a GPS trace to the roads (matchv1/match): body is the
// request as api/openapi.yaml gives it (points, radiuses, gaps, tidy,
// routing, profile). A trace with no road near is an *APIError of status
// 404 (code NoSegment or NoMatch in its body).
func (c *Client) Match(ctx context.Context, body openapi.MatchJSONRequestBody) (*openapi.MatchAnswer, error) {
	r, err := c.raw.MatchWithResponse(ctx, body)
	if err != nil {
		return nil, wrap("match", err)
	}
	return result("match", r.HTTPResponse, r.Body, r.JSON200)
}

// CovidCountries lists the countries with health data
// (covidv1/countries/list).
func (c *Client) CovidCountries(ctx context.Context) (*openapi.CovidCountries, error) {
	r, err := c.raw.CovidCountriesWithResponse(ctx)
	if err != nil {
		return nil, wrap("covid-countries", err)
	}
	return result("covid-countries", r.HTTPResponse, r.Body, r.JSON200)
}

// CovidCountry returns the records of every administration of a country
// (ISO3) at level admin ("admin0", "admin1", "admin2", "admin8"), on date
// (the zero time: the latest) (covidv1/country2data).
func (c *Client) CovidCountry(ctx context.Context, iso3, admin string, date time.Time) (*openapi.CovidRecords, error) {
	r, err := c.raw.Country2dataWithResponse(ctx, &openapi.Country2dataParams{Country: iso3, Admin: admin, Date: covidDate(date)})
	if err != nil {
		return nil, wrap("country2data", err)
	}
	return result("country2data", r.HTTPResponse, r.Body, r.JSON200)
}

// CovidAt returns the health data of the administrations at p, from level
// admin up to the country (covidv1/xy2data).
func (c *Client) CovidAt(ctx context.Context, p Point, admin string, date time.Time) (*openapi.CovidHierarchyResponse, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	r, err := c.raw.Xy2dataWithResponse(ctx, &openapi.Xy2dataParams{X: p.Lon, Y: p.Lat, Admin: admin, Date: covidDate(date)})
	if err != nil {
		return nil, wrap("xy2data", err)
	}
	return result("xy2data", r.HTTPResponse, r.Body, r.JSON200)
}

// CovidTileAt returns the web-mercator tile of zoom (14..20) holding p
// with its health data (covidv1/xy2tile).
func (c *Client) CovidTileAt(ctx context.Context, p Point, zoom int) (*openapi.CovidTileCollection, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	r, err := c.raw.Xy2tileWithResponse(ctx, &openapi.Xy2tileParams{X: p.Lon, Y: p.Lat, Zoom: zoom})
	if err != nil {
		return nil, wrap("xy2tile", err)
	}
	return result("xy2tile", r.HTTPResponse, r.Body, r.JSON200)
}

// CovidTile returns the tile x, y of zoom (covidv1/index2tile).
func (c *Client) CovidTile(ctx context.Context, x, y, zoom int) (*openapi.CovidTileCollection, error) {
	r, err := c.raw.Index2tileWithResponse(ctx, &openapi.Index2tileParams{X: x, Y: y, Zoom: &zoom})
	if err != nil {
		return nil, wrap("index2tile", err)
	}
	return result("index2tile", r.HTTPResponse, r.Body, r.JSON200)
}

func covidDate(t time.Time) *openapi.CovidDate {
	if t.IsZero() {
		return nil
	}
	return &openapi_types.Date{Time: t}
}

// TileToken returns a token that opens map tiles for an hour in the
// key's name (tilesv1/token), for a browser map that must not hold the key.
func (c *Client) TileToken(ctx context.Context) (*openapi.TileToken, error) {
	r, err := c.raw.TileTokenWithResponse(ctx)
	if err != nil {
		return nil, wrap("tile-token", err)
	}
	return result("tile-token", r.HTTPResponse, r.Body, r.JSON200)
}

// Tile returns the PNG of map tile z/x/y (tilesv1; XYZ web mercator).
func (c *Client) Tile(ctx context.Context, z, x, y int) ([]byte, error) {
	r, err := c.raw.TileWithResponse(ctx, z, x, y, nil)
	if err != nil {
		return nil, wrap("tile", err)
	}
	if r.StatusCode() != http.StatusOK {
		return nil, newAPIError("tile", r.HTTPResponse, r.Body)
	}
	return r.Body, nil
}

// Trial applies for a free-trial key (keysv1/trial; no key needed): the
// key is in the answer, shown only once.
func (c *Client) Trial(ctx context.Context, req openapi.TrialRequest) (*openapi.TrialIssued, error) {
	r, err := c.raw.KeysTrialWithResponse(ctx, req)
	if err != nil {
		return nil, wrap("trial", err)
	}
	if r.StatusCode() != http.StatusCreated || r.JSON201 == nil {
		return nil, newAPIError("trial", r.HTTPResponse, r.Body)
	}
	return r.JSON201, nil
}

// Checkout starts the purchase of a plan (keysv1/checkout; no key needed):
// the payment page's URL, and the key that works once paid.
func (c *Client) Checkout(ctx context.Context, req openapi.CheckoutRequest) (*openapi.CheckoutStarted, error) {
	r, err := c.raw.KeysCheckoutWithResponse(ctx, req)
	if err != nil {
		return nil, wrap("checkout", err)
	}
	return result("checkout", r.HTTPResponse, r.Body, r.JSON200)
}

// Usage returns the key's usage statement of month ("2026-11"; "" for the
// current one) (keysv1/usage).
func (c *Client) Usage(ctx context.Context, month string) (*openapi.Statement, error) {
	r, err := c.raw.KeysUsageWithResponse(ctx, &openapi.KeysUsageParams{Month: nonEmpty(month)})
	if err != nil {
		return nil, wrap("usage", err)
	}
	return result("usage", r.HTTPResponse, r.Body, r.JSON200)
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
