package soap

import (
	"context"
	"encoding/xml"
	"sort"
	"strconv"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/routing"
)

// proximitySimpleRequest is the ProximitySimple request element.
type proximitySimpleRequest struct {
	X, Y              string
	Encoding          string
	MaxNofResults     int
	MaxDistanceMeters int
	NodeType          string
	SearchType        string
	UseDbSet          bool
	SubscriptionKey   string
}

type proximitySimpleResponse struct {
	XMLName xml.Name       `xml:"http://geosvc.org/LocationService/ ProximitySimpleResponse"`
	Result  locationInputs `xml:"ProximitySimpleResult"`
}

// Limits of a proximity search.
const (
	// MaxProximityResults bounds MaxNofResults.
	MaxProximityResults = 1000
	// MaxProximityMeters bounds MaxDistanceMeters of the Radius and
	// RoadDistance searches; MaxProximityMinutes that of RoadTimeMinutes.
	MaxProximityMeters  = 200_000
	MaxProximityMinutes = 240
	// proximityFastestMS is the fastest a car goes (m/s, 150 km/h): a
	// RoadTimeMinutes search looks that far in a straight line.
	proximityFastestMS = 150 / 3.6
)

// proximityKinds maps the node types answered from the gazetteer.
var proximityKinds = map[string]geocode.NearbyKind{
	"Cities":      geocode.NearbyCities,
	"LargeCities": geocode.NearbyLargeCities,
	"PostalCodes": geocode.NearbyPostalCodes,
	"Streets":     geocode.NearbyStreets,
}

func (s *Service) proximitySimple(_ context.Context, body []byte) (any, error) {
	var req proximitySimpleRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return nil, senderFault("malformed ProximitySimple request: %v", err)
	}
	if e := strings.TrimSpace(req.Encoding); e != EncodingWGS84 {
		return nil, senderFault("Encoding %q is not supported (use %s)", e, EncodingWGS84)
	}
	p, err := parsePoint("", req.X, req.Y)
	if err != nil {
		return nil, err
	}
	kind, ok := proximityKinds[strings.TrimSpace(req.NodeType)]
	switch nt := strings.TrimSpace(req.NodeType); {
	case req.UseDbSet || nt == "DBLocations":
		return nil, senderFault("location sets (UseDbSet, NodeType DBLocations) are not available in this release")
	case nt == "Node" || nt == "ReachableNode":
		return nil, senderFault("NodeType %s is not available in this release (Cities, LargeCities, PostalCodes, Streets are)", nt)
	case !ok:
		return nil, senderFault("NodeType %q is not a ProximityNodeTypes value", nt)
	}
	if req.MaxNofResults < 1 || req.MaxNofResults > MaxProximityResults {
		return nil, senderFault("MaxNofResults %d: give 1 to %d", req.MaxNofResults, MaxProximityResults)
	}
	st := strings.TrimSpace(req.SearchType)
	limit, unit := MaxProximityMeters, "metres"
	if st == "RoadTimeMinutes" {
		limit, unit = MaxProximityMinutes, "minutes"
	}
	if req.MaxDistanceMeters < 1 || req.MaxDistanceMeters > limit {
		return nil, senderFault("MaxDistanceMeters %d: give 1 to %d (%s for SearchType %s)", req.MaxDistanceMeters, limit, unit, st)
	}
	ix, err := s.index()
	if err != nil {
		return nil, err
	}
	var found []nearbyResult
	switch st {
	case "Radius":
		for _, c := range ix.Nearby(p, float64(req.MaxDistanceMeters), kind, req.MaxNofResults) {
			found = append(found, nearbyResult{c: c, metres: c.Distance})
		}
	case "RoadDistance", "RoadTimeMinutes":
		g, err := s.graph()
		if err != nil {
			return nil, err
		}
		radius := float64(req.MaxDistanceMeters)
		if st == "RoadTimeMinutes" {
			radius *= 60 * proximityFastestMS
		}
		found, err = byRoad(g, p, ix.Nearby(p, radius, kind, MaxProximityResults), st, req.MaxDistanceMeters, req.MaxNofResults)
		if err != nil {
			return nil, err
		}
	default:
		return nil, senderFault("SearchType %q is not a ProximitySearchTypes value (Radius, RoadDistance, RoadTimeMinutes)", st)
	}
	var resp proximitySimpleResponse
	resp.Result.Locations = make([]LocationInput, 0, len(found))
	for _, r := range found {
		resp.Result.Locations = append(resp.Result.Locations, r.locationInput())
	}
	return resp, nil
}

// nearbyResult is a proximity hit: the gazetteer's candidate and its
// distance (straight, or by road) and travel time (by road; -1 when not
// computed).
type nearbyResult struct {
	c       geocode.Candidate
	metres  float64
	seconds int
}

// byRoad keeps the candidates whose road distance (RoadDistance, metres)
// or travel time (RoadTimeMinutes, minutes) from p is within max, nearest
// first, at most limit.
func byRoad(g *routing.Graph, p orb.Point, cs []geocode.Candidate, searchType string, max, limit int) ([]nearbyResult, error) {
	from := g.Snap(p, routing.DefaultSnapRadiusM)
	if !from.OK {
		return nil, senderFault("the point has no road within %d m", routing.DefaultSnapRadiusM)
	}
	if len(cs) == 0 {
		return nil, nil
	}
	dst := make([]routing.Snap, len(cs))
	for i, c := range cs {
		dst[i] = g.Snap(c.Location, routing.DefaultSnapRadiusM)
	}
	m := routing.Shortest
	if searchType == "RoadTimeMinutes" {
		m = routing.Fastest
	}
	t := g.Matrix(m, []routing.Snap{from}, dst)
	var out []nearbyResult
	for j, c := range cs {
		d, dist := t.At(0, j)
		if d == routing.NoRoute || !dst[j].OK {
			continue
		}
		if searchType == "RoadTimeMinutes" && float64(d) > float64(max)*60 || searchType == "RoadDistance" && int(dist) > max {
			continue
		}
		out = append(out, nearbyResult{c: c, metres: float64(dist), seconds: int(d)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if searchType == "RoadTimeMinutes" {
			return out[i].seconds < out[j].seconds
		}
		return out[i].metres < out[j].metres
	})
	return out[:min(limit, len(out))], nil
}

// locationInput writes a proximity hit: its components in the location
// fields, Name its formatted address, Type its Google type, X/Y its
// location, Radius its distance in metres (by road for the road
// searches) and, for those, Time its travel time in minutes.
func (r nearbyResult) locationInput() LocationInput {
	c := r.c
	field := func(t string) *LocationInputField {
		if l, _ := c.Component(t); l != "" {
			return &LocationInputField{Name: l}
		}
		return nil
	}
	li := LocationInput{Country: field("country"), State: field("administrative_area_level_1"), City: field("locality"),
		Street: field("route"), PostCode: field("postal_code"), FID: c.PlaceID}
	li.Name = c.FormattedAddress
	if len(c.Types) > 0 {
		li.Type = c.Types[0]
	}
	li.X, li.Y = coord(c.Location[0]), coord(c.Location[1])
	li.Radius = strconv.FormatFloat(r.metres, 'f', 0, 64)
	if r.seconds > 0 {
		li.Time = strconv.FormatFloat(float64(r.seconds)/60, 'f', 1, 64)
	}
	li.Encoding = EncodingWGS84
	return li
}
