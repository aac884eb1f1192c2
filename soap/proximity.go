package soap

import (
	"context"
	"encoding/xml"
	"sort"
	"strconv"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
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
	// maxProximityResults bounds MaxNofResults.
	maxProximityResults = 1000
	// maxProximityMeters bounds MaxDistanceMeters of the Radius and
	// RoadDistance searches; maxProximityMinutes that of RoadTimeMinutes.
	maxProximityMeters  = 200_000
	maxProximityMinutes = 240
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

func (s *Service) proximitySimple(ctx context.Context, body []byte) (any, error) {
	var req proximitySimpleRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return nil, senderFault("malformed ProximitySimple request: %v", err)
	}
	locs, err := s.proximity(ctx, proximityArgs{X: req.X, Y: req.Y, Encoding: req.Encoding, MaxNofResults: req.MaxNofResults,
		MaxDistance: req.MaxDistanceMeters, NodeType: req.NodeType, SearchType: req.SearchType, UseDbSet: req.UseDbSet})
	if err != nil {
		return nil, err
	}
	var resp proximitySimpleResponse
	resp.Result.Locations = locs
	return resp, nil
}

// proximityRequest is the Proximity request element: ProximitySimple's,
// with Locations to search among (NodeType DBLocations).
type proximityRequest struct {
	X, Y      string
	Encoding  string
	Locations struct {
		Items []*locationInput `xml:"LocationInput"`
	} `xml:"Locations"`
	NodeType          string
	SearchType        string
	MaxNofResults     int
	MaxdistanceMeters int
	UseDbSet          bool
	SubscriptionKey   string
}

type proximityResponse struct {
	XMLName xml.Name       `xml:"http://geosvc.org/LocationService/ ProximityResponse"`
	Result  locationInputs `xml:"ProximityResult"`
}

func (s *Service) proximityOp(ctx context.Context, body []byte) (any, error) {
	var req proximityRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return nil, senderFault("malformed Proximity request: %v", err)
	}
	locs, err := s.proximity(ctx, proximityArgs{X: req.X, Y: req.Y, Encoding: req.Encoding, MaxNofResults: req.MaxNofResults,
		MaxDistance: req.MaxdistanceMeters, NodeType: req.NodeType, SearchType: req.SearchType, UseDbSet: req.UseDbSet,
		Locations: req.Locations.Items})
	if err != nil {
		return nil, err
	}
	var resp proximityResponse
	resp.Result.Locations = locs
	return resp, nil
}

// proximityArgs are the inputs of both proximity operations.
type proximityArgs struct {
	X, Y, Encoding       string
	MaxNofResults        int
	MaxDistance          int
	NodeType, SearchType string
	UseDbSet             bool
	Locations            []*locationInput // the request's own, for DBLocations
}

// proximity finds what the args ask for around their point.
func (s *Service) proximity(ctx context.Context, a proximityArgs) ([]locationInput, error) {
	if e := strings.TrimSpace(a.Encoding); e != encodingWGS84 {
		return nil, senderFault("Encoding %q is not supported (use %s)", e, encodingWGS84)
	}
	p, err := parsePoint("", a.X, a.Y)
	if err != nil {
		return nil, err
	}
	nt := strings.TrimSpace(a.NodeType)
	kind, gazetteer := proximityKinds[nt]
	switch {
	case a.UseDbSet && nt != "DBLocations":
		return nil, senderFault("UseDbSet searches the key's location set: give NodeType DBLocations")
	case !gazetteer && nt != "DBLocations" && !roadNode(nt):
		return nil, senderFault("NodeType %q is not a ProximityNodeTypes value", nt)
	}
	if a.MaxNofResults < 1 || a.MaxNofResults > maxProximityResults {
		return nil, senderFault("MaxNofResults %d: give 1 to %d", a.MaxNofResults, maxProximityResults)
	}
	st := strings.TrimSpace(a.SearchType)
	switch st {
	case "Radius", "RoadDistance", "RoadTimeMinutes":
	default:
		return nil, senderFault("SearchType %q is not a ProximitySearchTypes value (Radius, RoadDistance, RoadTimeMinutes)", st)
	}
	limit, unit := maxProximityMeters, "metres"
	if st == "RoadTimeMinutes" {
		limit, unit = maxProximityMinutes, "minutes"
	}
	if a.MaxDistance < 1 || a.MaxDistance > limit {
		return nil, senderFault("the maximum distance %d: give 1 to %d (%s for SearchType %s)", a.MaxDistance, limit, unit, st)
	}
	radius := float64(a.MaxDistance) // straight-line bound of the candidates
	if st == "RoadTimeMinutes" {
		radius *= 60 * proximityFastestMS
	}
	if roadNode(nt) {
		return s.proximityNodes(ctx, p, nt == "ReachableNode", st, a.MaxDistance, radius, a.MaxNofResults)
	}
	var cands []nearbyResult
	if gazetteer {
		ix, err := s.index()
		if err != nil {
			return nil, err
		}
		n := a.MaxNofResults
		if st != "Radius" {
			n = maxProximityResults // the road search picks among more
		}
		for _, c := range ix.Nearby(p, radius, kind, n) {
			cands = append(cands, nearbyResult{at: c.Location, c: c, metres: c.Distance})
		}
	} else {
		locs := a.Locations
		if a.UseDbSet {
			set, err := s.keySetLocations(ctx)
			if err != nil {
				return nil, err
			}
			locs = append(append([]*locationInput(nil), locs...), set...)
		}
		for i, li := range locs {
			if li == nil {
				continue
			}
			at, err := parsePoint("", li.X, li.Y)
			if err != nil {
				return nil, senderFault("location %d: %s", i+1, err.Error())
			}
			if d := geo.HaversineM(p, at); d <= radius {
				cands = append(cands, nearbyResult{at: at, li: li, metres: d})
			}
		}
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].metres < cands[j].metres })
	}
	var found []nearbyResult
	if st == "Radius" {
		found = cands[:min(a.MaxNofResults, len(cands))]
	} else {
		g, err := s.graph()
		if err != nil {
			return nil, err
		}
		if found, err = byRoad(ctx, g, p, cands, st, a.MaxDistance, a.MaxNofResults); err != nil {
			return nil, err
		}
	}
	out := make([]locationInput, 0, len(found))
	for _, r := range found {
		out = append(out, r.locationInput())
	}
	return out, nil
}

// nearbyResult is a proximity hit: a gazetteer candidate (c) or a given
// location (li), where it is, and its distance (straight, or by road) and
// travel time (by road, when byRoad).
type nearbyResult struct {
	at      orb.Point
	c       geocode.Candidate
	li      *locationInput
	metres  float64
	seconds int
	byRoad  bool // seconds holds a drive time
}

// byRoad keeps the candidates whose road distance (RoadDistance, metres)
// or travel time (RoadTimeMinutes, minutes) from p is within max, nearest
// first, at most limit.
func byRoad(ctx context.Context, g *routing.Graph, p orb.Point, cs []nearbyResult, searchType string, max, limit int) ([]nearbyResult, error) {
	m := routing.Shortest
	if searchType == "RoadTimeMinutes" {
		m = routing.Fastest
	}
	from := g.Snap(m, p, routing.DefaultSnapRadiusM)
	if !from.OK {
		return nil, senderFault("the point has no road within %d m", routing.DefaultSnapRadiusM)
	}
	if len(cs) == 0 {
		return nil, nil
	}
	dst := make([]routing.Snap, len(cs))
	for i, c := range cs {
		dst[i] = g.Snap(m, c.at, routing.DefaultSnapRadiusM)
	}
	t, err := g.Matrix(ctx, m, []routing.Snap{from}, dst)
	if err != nil {
		return nil, err
	}
	var out []nearbyResult
	for j, c := range cs {
		d, dist := t.At(0, j)
		if d == routing.NoRoute || !dst[j].OK {
			continue
		}
		if searchType == "RoadTimeMinutes" && float64(d) > float64(max)*60 || searchType == "RoadDistance" && int(dist) > max {
			continue
		}
		c.metres, c.seconds, c.byRoad = float64(dist), int(d), true
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if searchType == "RoadTimeMinutes" {
			return out[i].seconds < out[j].seconds
		}
		return out[i].metres < out[j].metres
	})
	return out[:min(limit, len(out))], nil
}

// locationInput writes a proximity hit: a given location as it was given,
// a gazetteer candidate with its components in the location fields, Name
// its formatted address, Type its Google type and fid its place_id; both
// with X/Y, Radius the distance in metres (by road for the road
// searches) and, for those, Time the drive in minutes.
func (r nearbyResult) locationInput() locationInput {
	var li locationInput
	if r.li != nil {
		li = *r.li
	} else {
		c := r.c
		field := func(t string) *locationInputField {
			if l, _ := c.Component(t); l != "" {
				return &locationInputField{Name: l}
			}
			return nil
		}
		li = locationInput{Country: field("country"), State: field("administrative_area_level_1"), City: field("locality"),
			Street: field("route"), PostCode: field("postal_code"), FID: c.PlaceID}
		li.Name = c.FormattedAddress
		if len(c.Types) > 0 {
			li.Type = c.Types[0]
		}
		li.X, li.Y = coord(c.Location[0]), coord(c.Location[1])
	}
	li.Radius = strconv.FormatFloat(r.metres, 'f', 0, 64)
	li.Time = ""
	if r.byRoad {
		li.Time = strconv.FormatFloat(float64(r.seconds)/60, 'f', 1, 64)
	}
	li.Encoding = encodingWGS84
	return li
}
