package soap

import (
	"context"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/profile"
)

// routePlannerSimpleRequest is the RoutePlannerSimple request element.
type routePlannerSimpleRequest struct {
	DepartureX, DepartureY, ArrivalX, ArrivalY string
	Encoding, Language                         string
	WantMetric, WantRouteDetails, WantDataSet  bool
	WantDescription, WantSpeedInfo             bool
	WantLocations, WantRouteData               bool
	FormatString                               string
	SubscriptionKey                            string
}

type routePlannerSimpleResponse struct {
	XMLName xml.Name    `xml:"http://geosvc.org/LocationService/ RoutePlannerSimpleResponse"`
	Result  routeResult `xml:"RoutePlannerSimpleResult"`
}

// routeResult is a planned route (SPEC.md, "RouteResult").
type routeResult struct {
	Description         *routeDescription `xml:"Description,omitempty"`
	FormattedRoute      string            `xml:"FormattedRoute,omitempty"`
	RouteData           string            `xml:"RouteData,omitempty"` // base64Binary
	Locations           *locationInputs   `xml:"Locations,omitempty"`
	SpeedInfo           *speedInfo        `xml:"SpeedInfo,omitempty"`
	RoadDataName        string            `xml:"RoadDataName,omitempty"`
	Duration            int               `xml:"Duration"`
	Distance            int               `xml:"Distance"`
	RoadDataDetailLevel int               `xml:"RoadDataDetailLevel"`
}

type routeDescription struct {
	Items []routeDescriptionItem `xml:"RouteDescriptionItem"`
}

// routeDescriptionItem is one step of a route description.
type routeDescriptionItem struct {
	Loc, Dir, Street, Dist, Time, Level, X, Y string
	Encoding                                  string
}

type locationInputs struct {
	Locations []locationInput `xml:"LocationInput"`
}

type speedInfo struct {
	Items []speedItem `xml:"SpeedItem"`
}

// speedItem is the average speed driven on one road type.
type speedItem struct {
	Name  string
	Speed string
}

// maneuverPhrases are the Dir texts of each RouteLanguage; "XML" gives
// the maneuver's name ("slight left").
var maneuverPhrases = map[string][10]string{
	"English": {"Depart", "Continue straight", "Bear right", "Turn right", "Turn sharp right", "Make a U-turn", "Turn sharp left", "Turn left", "Bear left", "Arrive"},
	"Dutch":   {"Vertrek", "Ga rechtdoor", "Houd rechts aan", "Sla rechtsaf", "Sla scherp rechtsaf", "Keer om", "Sla scherp linksaf", "Sla linksaf", "Houd links aan", "Aankomst"},
	"French":  {"Départ", "Continuez tout droit", "Serrez à droite", "Tournez à droite", "Tournez franchement à droite", "Faites demi-tour", "Tournez franchement à gauche", "Tournez à gauche", "Serrez à gauche", "Arrivée"},
	"Spanish": {"Salida", "Siga recto", "Manténgase a la derecha", "Gire a la derecha", "Gire bruscamente a la derecha", "Dé la vuelta", "Gire bruscamente a la izquierda", "Gire a la izquierda", "Manténgase a la izquierda", "Llegada"},
	"Italian": {"Partenza", "Prosegui dritto", "Tieni la destra", "Svolta a destra", "Svolta decisamente a destra", "Fai inversione", "Svolta decisamente a sinistra", "Svolta a sinistra", "Tieni la sinistra", "Arrivo"},
	"German":  {"Abfahrt", "Geradeaus weiterfahren", "Rechts halten", "Rechts abbiegen", "Scharf rechts abbiegen", "Wenden", "Scharf links abbiegen", "Links abbiegen", "Links halten", "Ankunft"},
}

// defaultRouteFormat is the line of FormattedRoute per step when the
// request gives no FormatString.
const defaultRouteFormat = "{n}. {dir} {street} ({dist}, {time})"

// routeWants are the Want* flags and text options common to both route
// planners, and which route of each leg to take.
type routeWants struct {
	Language                          string
	Metric, RouteDetails, Description bool
	SpeedInfo, Locations, RouteData   bool
	FormatString                      string
	// Alternative is 0 for the best route of each leg, 1 for the 2nd
	// best and 2 for the 3rd (PlanningType Fastest2, Shortest3, ...).
	Alternative int
}

func (s *Service) routePlannerSimple(ctx context.Context, body []byte) (any, error) {
	var req routePlannerSimpleRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return nil, senderFault("malformed RoutePlannerSimple request: %v", err)
	}
	if e := strings.TrimSpace(req.Encoding); e != encodingWGS84 {
		return nil, senderFault("Encoding %q is not supported (use %s)", e, encodingWGS84)
	}
	from, err := parsePoint("Departure", req.DepartureX, req.DepartureY)
	if err != nil {
		return nil, err
	}
	to, err := parsePoint("Arrival", req.ArrivalX, req.ArrivalY)
	if err != nil {
		return nil, err
	}
	w := routeWants{Language: req.Language, Metric: req.WantMetric, RouteDetails: req.WantRouteDetails, Description: req.WantDescription,
		SpeedInfo: req.WantSpeedInfo, Locations: req.WantLocations, RouteData: req.WantRouteData, FormatString: req.FormatString}
	res, err := s.plan(ctx, []stop{{at: from, name: "departure"}, {at: to, name: "arrival"}}, routing.Fastest, false, w)
	if err != nil {
		return nil, err
	}
	return routePlannerSimpleResponse{Result: res}, nil
}

// ordinal names the alternatives of routeWants.Alternative.
var ordinal = [...]string{"", "2nd", "3rd"}

// stop is a location of a route: its point and how a fault names it.
type stop struct {
	at   orb.Point
	name string
	in   *locationInput // the request's, for RoutePlanner
}

// plan routes through the stops in order (after reordering all but the
// first and the last for the shortest drive when tsp), one leg after the
// other, on metric m, and writes the result the wants ask for.
func (s *Service) plan(ctx context.Context, stops []stop, m routing.Metric, tsp bool, w routeWants) (routeResult, error) {
	lang := strings.TrimSpace(w.Language)
	if lang == "" {
		// The WSDL makes the element required (minOccurs 1): a request
		// without it, or with it empty, has no language to phrase in.
		return routeResult{}, senderFault("Language is missing (or empty): give a RouteLanguage (XML, Dutch, French, Spanish, Italian, English, German)")
	}
	if _, ok := maneuverPhrases[lang]; !ok && lang != "XML" {
		return routeResult{}, senderFault("Language %q is not a RouteLanguage (XML, Dutch, French, Spanish, Italian, English, German)", lang)
	}
	g, err := s.graph()
	if err != nil {
		return routeResult{}, err
	}
	snaps := make([]routing.Snap, len(stops))
	for i, st := range stops {
		if snaps[i] = g.Snap(m, st.at, routing.DefaultSnapRadiusM); !snaps[i].OK {
			return routeResult{}, senderFault("the %s has no road within %d m", st.name, routing.DefaultSnapRadiusM)
		}
	}
	order := make([]int, len(stops))
	for i := range order {
		order[i] = i
	}
	if tsp {
		if order, err = g.BestOrder(ctx, m, snaps); err != nil {
			return routeResult{}, err
		}
	}
	langKeys := routeNameLanguages(ctx, lang)
	nameLangs := g.NameLangs(langKeys)
	used := map[string]bool{} // the languages the legs' names were given in
	res := routeResult{}
	res.RoadDataName = s.roadDataName(g)
	var steps []routing.Step
	var geom orb.LineString
	whole := &routing.Route{}
	for k := 1; k < len(order); k++ {
		a, b := order[k-1], order[k]
		var r *routing.Route
		if w.Alternative > 0 {
			r, err = g.Alternative(ctx, m, snaps[a], snaps[b], w.Alternative)
		} else {
			r, err = g.Route(ctx, m, snaps[a], snaps[b])
		}
		if errors.Is(err, routing.ErrNoRoute) {
			return routeResult{}, senderFault("no route from the %s to the %s", stops[a].name, stops[b].name)
		}
		if errors.Is(err, routing.ErrNoAlternative) {
			return routeResult{}, senderFault("no alternative route from the %s to the %s: no %s best route that is at most 25 %% longer than the best, shares at most 75 %% of its length with the better ones and has no detour", stops[a].name, stops[b].name, ordinal[w.Alternative])
		}
		if err != nil {
			return routeResult{}, err
		}
		res.Duration += r.DurationS
		res.Distance += r.DistanceM
		used[g.LocalizeRoute(nameLangs, r)] = true
		steps = append(steps, r.Steps()...)
		whole.Segments = append(whole.Segments, r.Segments...)
		if len(geom) > 0 && len(r.Geometry) > 0 && geom[len(geom)-1] == r.Geometry[0] {
			geom = append(geom, r.Geometry[1:]...)
		} else {
			geom = append(geom, r.Geometry...)
		}
	}
	for _, k := range langKeys {
		if used[k] {
			setAnswerLang(ctx, k) // the preferred of those used
			break
		}
	}
	items := describe(steps, lang, w.Metric)
	if w.RouteDetails {
		res.Description = &routeDescription{Items: items}
	}
	if w.Description {
		res.FormattedRoute = formatRoute(items, w.FormatString)
	}
	if w.SpeedInfo {
		res.SpeedInfo = &speedInfo{Items: speeds(whole, w.Metric)}
	}
	if w.Locations {
		res.Locations = &locationInputs{}
		for _, i := range order {
			li := locationInput{}
			if stops[i].in != nil {
				li = *stops[i].in
			}
			if li.Type == "" {
				li.Type = stops[i].name
			}
			li.X, li.Y, li.Encoding = coord(snaps[i].Point[0]), coord(snaps[i].Point[1]), encodingWGS84
			res.Locations.Locations = append(res.Locations.Locations, li)
		}
	}
	if w.RouteData {
		res.RouteData = base64.StdEncoding.EncodeToString([]byte(encodePolyline(geom)))
	}
	return res, nil
}

// graph returns the routing graph or a Receiver fault.
func (s *Service) graph() (*routing.Graph, error) {
	var g *routing.Graph
	if b := s.opts.Bundle.Load(); b != nil {
		g = b.Graph
	}
	if g == nil {
		return nil, receiverFault("the routing graph is loading, retry shortly")
	}
	return g, nil
}

// parsePoint reads an EPGS4326 point (X longitude, Y latitude).
func parsePoint(what, xs, ys string) (orb.Point, error) {
	x, errX := strconv.ParseFloat(strings.TrimSpace(xs), 64)
	y, errY := strconv.ParseFloat(strings.TrimSpace(ys), 64)
	if errX != nil || errY != nil || math.IsNaN(x) || math.IsNaN(y) || math.Abs(x) > 180 || math.Abs(y) > 90 {
		return orb.Point{}, senderFault("%sX and %sY must be a longitude (-180..180) and a latitude (-90..90) in decimal degrees, not %q, %q", what, what, xs, ys)
	}
	return orb.Point{x, y}, nil
}

func coord(v float64) string { return strconv.FormatFloat(v, 'f', 7, 64) }

// describe renders the steps as description items: Loc the step number,
// Dir the maneuver in the language, Street, Dist the stretch after it (km,
// or miles when not metric, two decimals), Time its seconds, Level its
// road type, X and Y where the maneuver is.
func describe(steps []routing.Step, lang string, metric bool) []routeDescriptionItem {
	items := make([]routeDescriptionItem, len(steps))
	for i, st := range steps {
		items[i] = routeDescriptionItem{Loc: strconv.Itoa(i + 1), Dir: stepDir(st, lang), Street: st.Street, Dist: distance(st.DistanceM, metric),
			Time: strconv.Itoa(int(math.Round(st.DurationS))), Level: st.RoadType.String(),
			X: coord(st.Point[0]), Y: coord(st.Point[1]), Encoding: encodingWGS84}
	}
	return items
}

// distance writes metres as km or miles with two decimals.
func distance(m float64, metric bool) string {
	if metric {
		return strconv.FormatFloat(m/1000, 'f', 2, 64) + " km"
	}
	return strconv.FormatFloat(m/1609.344, 'f', 2, 64) + " mi"
}

// formatRoute writes one line per item from format, where {n}, {dir},
// {street}, {dist}, {time} (seconds), {level}, {x} and {y} stand for the
// item's fields.
func formatRoute(items []routeDescriptionItem, format string) string {
	if strings.TrimSpace(format) == "" {
		format = defaultRouteFormat
	}
	lines := make([]string, len(items))
	for i, it := range items {
		r := strings.NewReplacer("{n}", it.Loc, "{dir}", it.Dir, "{street}", it.Street, "{dist}", it.Dist,
			"{time}", it.Time+" s", "{level}", it.Level, "{x}", it.X, "{y}", it.Y)
		lines[i] = strings.Join(strings.Fields(r.Replace(format)), " ")
	}
	return strings.Join(lines, "\n")
}

// speeds returns the average speed driven on each road type of the route
// (km/h, or mph when not metric), by road type: distance over driving
// time, turn and signal penalties left out.
func speeds(r *routing.Route, metric bool) []speedItem {
	type acc struct{ m, s float64 }
	by := map[profile.RoadType]*acc{}
	for _, seg := range r.Segments {
		a := by[seg.RoadType]
		if a == nil {
			a = &acc{}
			by[seg.RoadType] = a
		}
		a.m += seg.DistanceM
		a.s += seg.DurationS - seg.TurnCostS // driving time, not waiting at turns and signals
	}
	var out []speedItem
	for rt, a := range by {
		if a.s <= 0 {
			continue
		}
		v := a.m / a.s * 3.6
		if !metric {
			v /= 1.609344
		}
		out = append(out, speedItem{Name: rt.String(), Speed: strconv.FormatFloat(v, 'f', 1, 64)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// routePlannerRequest is the RoutePlanner request element.
type routePlannerRequest struct {
	Locations struct {
		Items []*locationInput `xml:"LocationInput"`
	} `xml:"Locations"`
	Language                     string
	WantMetric, WantRouteDetails bool
	PlanningType                 string
	Speed                        struct {
		Items []speedItem `xml:"SpeedItem"`
	} `xml:"Speed"`
	WantDataSet, WantDescription                bool
	WantSpeedInfo, WantLocations, WantRouteData bool
	FormatString                                string
	SubscriptionKey                             string
	MergeLocations                              struct {
		Items []*locationInput `xml:"LocationInput"`
	} `xml:"MergeLocations"`
	Mergedistance int
	UseDbSet      bool
}

type routePlannerResponse struct {
	XMLName xml.Name    `xml:"http://geosvc.org/LocationService/ RoutePlannerResponse"`
	Result  routeResult `xml:"RoutePlannerResult"`
}

// maxRouteStops bounds the Locations of a RoutePlanner request.
const maxRouteStops = 100

func (s *Service) routePlanner(ctx context.Context, body []byte) (any, error) {
	var req routePlannerRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return nil, senderFault("malformed RoutePlanner request: %v", err)
	}
	var m routing.Metric
	tsp, alt := false, 0
	switch pt := strings.TrimSpace(req.PlanningType); pt {
	case "Fastest":
		m = routing.Fastest
	case "Shortest":
		m = routing.Shortest
	case "TSP":
		m, tsp = routing.Fastest, true
	case "Fastest2", "Fastest3":
		m, alt = routing.Fastest, int(pt[len(pt)-1]-'1')
	case "Shortest2", "Shortest3":
		m, alt = routing.Shortest, int(pt[len(pt)-1]-'1')
	default:
		return nil, senderFault("PlanningType %q is not a RoutePlanningType (Fastest, Shortest, TSP, ...)", pt)
	}
	if err := speedsOf(&m, req.Speed.Items, req.WantMetric); err != nil {
		return nil, err
	}
	stops, err := s.plannerStops(ctx, req.Locations.Items, req.UseDbSet, tsp)
	if err != nil {
		return nil, err
	}
	if len(req.MergeLocations.Items) > 0 {
		if stops, err = s.mergeStops(ctx, stops, req.MergeLocations.Items, req.Mergedistance, m, tsp); err != nil {
			return nil, err
		}
		tsp = false // the stops are in the order to drive
	}
	w := routeWants{Language: req.Language, Metric: req.WantMetric, RouteDetails: req.WantRouteDetails, Description: req.WantDescription,
		SpeedInfo: req.WantSpeedInfo, Locations: req.WantLocations, RouteData: req.WantRouteData, FormatString: req.FormatString,
		Alternative: alt}
	res, err := s.plan(ctx, stops, m, tsp, w)
	if err != nil {
		return nil, err
	}
	return routePlannerResponse{Result: res}, nil
}

// speedsOf sets the speeds of a RoutePlanner's Speed items on m: one
// per RoadType (Defaultspeed for every type not given), in km/h, or in
// mph when WantMetric is false. A speed that is not a number, out of
// range (0, 250] km/h, or of an unknown or repeated RoadType is a Sender
// fault naming the item.
func speedsOf(m *routing.Metric, items []speedItem, metric bool) error {
	seen := map[string]bool{}
	for i, it := range items {
		name := strings.TrimSpace(it.Name)
		where := fmt.Sprintf("Speed: SpeedItem %d (%s)", i+1, name)
		if seen[name] {
			return senderFault("%s: RoadType %s is given twice", where, name)
		}
		seen[name] = true
		v, err := strconv.ParseFloat(strings.TrimSpace(it.Speed), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return senderFault("%s: Speed %q is not a number", where, it.Speed)
		}
		unit := "km/h"
		if !metric {
			v *= 1.609344
			unit = "mph converted to km/h"
		}
		if err := m.SetSpeed(name, v); err != nil {
			return senderFault("%s: %v (%s)", where, err, unit)
		}
	}
	return nil
}

// stopOf reads location i of a route: its X and Y, or else its address,
// placed by the gazetteer's best match.
func (s *Service) stopOf(i int, li *locationInput) (stop, error) {
	return s.stopNamed(fmt.Sprintf("location %d", i+1), li)
}

// stopNamed reads a location of a route as stopOf does, naming it name.
func (s *Service) stopNamed(name string, li *locationInput) (stop, error) {
	if li == nil {
		return stop{}, senderFault("%s is nil", name)
	}
	if e := strings.TrimSpace(li.Encoding); e != "" && e != encodingWGS84 {
		return stop{}, senderFault("%s: Encoding %s is not supported (use %s)", name, e, encodingWGS84)
	}
	if strings.TrimSpace(li.X) != "" || strings.TrimSpace(li.Y) != "" {
		p, err := parsePoint("", li.X, li.Y)
		if err != nil {
			return stop{}, senderFault("%s: %s", name, err.Error())
		}
		return stop{at: p, name: name, in: li}, nil
	}
	in := addressInput{Country: li.Country.value(), State: li.State.value(), City: li.City.value(),
		Street: li.Street.value(), Premise: li.Premise.value(), PostCode: li.PostCode.value()}
	if in.empty() {
		return stop{}, senderFault("%s has neither X and Y nor an address", name)
	}
	ix, err := s.index()
	if err != nil {
		return stop{}, err
	}
	cs := ix.Forward(geocode.Query{HouseNumber: in.Premise, Street: in.Street, City: in.City, Postcode: in.PostCode, State: in.State, Country: in.Country, Limit: 1})
	if len(cs) == 0 {
		return stop{}, senderFault("%s: the address was not found", name)
	}
	return stop{at: cs[0].Location, name: name, in: li}, nil
}
