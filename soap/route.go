package soap

import (
	"context"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/paulmach/orb"

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
	Result  RouteResult `xml:"RoutePlannerSimpleResult"`
}

// RouteResult is a planned route (SPEC.md, "RouteResult").
type RouteResult struct {
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
	Items []RouteDescriptionItem `xml:"RouteDescriptionItem"`
}

// RouteDescriptionItem is one step of a route description.
type RouteDescriptionItem struct {
	Loc, Dir, Street, Dist, Time, Level, X, Y string
	Encoding                                  string
}

type locationInputs struct {
	Locations []LocationInput `xml:"LocationInput"`
}

type speedInfo struct {
	Items []SpeedItem `xml:"SpeedItem"`
}

// SpeedItem is the average speed driven on one road type.
type SpeedItem struct {
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

func (s *Service) routePlannerSimple(_ context.Context, body []byte) (any, error) {
	var req routePlannerSimpleRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return nil, senderFault("malformed RoutePlannerSimple request: %v", err)
	}
	if e := strings.TrimSpace(req.Encoding); e != EncodingWGS84 {
		return nil, senderFault("Encoding %q is not supported (use %s)", e, EncodingWGS84)
	}
	lang := strings.TrimSpace(req.Language)
	if _, ok := maneuverPhrases[lang]; !ok && lang != "XML" {
		return nil, senderFault("Language %q is not a RouteLanguage (XML, Dutch, French, Spanish, Italian, English, German)", lang)
	}
	from, err := parsePoint("Departure", req.DepartureX, req.DepartureY)
	if err != nil {
		return nil, err
	}
	to, err := parsePoint("Arrival", req.ArrivalX, req.ArrivalY)
	if err != nil {
		return nil, err
	}
	g, err := s.graph()
	if err != nil {
		return nil, err
	}
	fs, ts := g.Snap(from, routing.DefaultSnapRadiusM), g.Snap(to, routing.DefaultSnapRadiusM)
	switch {
	case !fs.OK:
		return nil, senderFault("the departure has no road within %d m", routing.DefaultSnapRadiusM)
	case !ts.OK:
		return nil, senderFault("the arrival has no road within %d m", routing.DefaultSnapRadiusM)
	}
	r, err := g.Route(routing.Fastest, fs, ts)
	if errors.Is(err, routing.ErrNoRoute) {
		return nil, senderFault("no route from the departure to the arrival")
	}
	if err != nil {
		return nil, err
	}
	res := RouteResult{Duration: r.DurationS, Distance: r.DistanceM}
	if s.opts.RoadDataName != nil {
		res.RoadDataName = s.opts.RoadDataName()
	}
	steps := r.Steps()
	items := describe(steps, lang, req.WantMetric)
	if req.WantRouteDetails {
		res.Description = &routeDescription{Items: items}
	}
	if req.WantDescription {
		res.FormattedRoute = formatRoute(items, req.FormatString)
	}
	if req.WantSpeedInfo {
		res.SpeedInfo = &speedInfo{Items: speeds(r, req.WantMetric)}
	}
	if req.WantLocations {
		first, last := steps[0], steps[len(steps)-1]
		res.Locations = &locationInputs{Locations: []LocationInput{
			{locationTail: locationTail{Name: first.Street, Type: "departure", X: coord(fs.Point[0]), Y: coord(fs.Point[1]), Encoding: EncodingWGS84}},
			{locationTail: locationTail{Name: last.Street, Type: "arrival", X: coord(ts.Point[0]), Y: coord(ts.Point[1]), Encoding: EncodingWGS84}},
		}}
	}
	if req.WantRouteData {
		res.RouteData = base64.StdEncoding.EncodeToString([]byte(encodePolyline(r.Geometry)))
	}
	return routePlannerSimpleResponse{Result: res}, nil
}

// graph returns the routing graph or a Receiver fault.
func (s *Service) graph() (*routing.Graph, error) {
	var g *routing.Graph
	if s.opts.Graph != nil {
		g = s.opts.Graph()
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
func describe(steps []routing.Step, lang string, metric bool) []RouteDescriptionItem {
	items := make([]RouteDescriptionItem, len(steps))
	for i, st := range steps {
		dir := st.Maneuver.String()
		if p, ok := maneuverPhrases[lang]; ok {
			dir = p[st.Maneuver]
		}
		items[i] = RouteDescriptionItem{Loc: strconv.Itoa(i + 1), Dir: dir, Street: st.Street, Dist: distance(st.DistanceM, metric),
			Time: strconv.Itoa(int(math.Round(st.DurationS))), Level: st.RoadType.String(),
			X: coord(st.Point[0]), Y: coord(st.Point[1]), Encoding: EncodingWGS84}
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
func formatRoute(items []RouteDescriptionItem, format string) string {
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
// (km/h, or mph when not metric), by road type.
func speeds(r *routing.Route, metric bool) []SpeedItem {
	type acc struct{ m, s float64 }
	by := map[profile.RoadType]*acc{}
	for _, seg := range r.Segments {
		a := by[seg.RoadType]
		if a == nil {
			a = &acc{}
			by[seg.RoadType] = a
		}
		a.m += seg.DistanceM
		a.s += seg.DurationS
	}
	var out []SpeedItem
	for rt, a := range by {
		if a.s <= 0 {
			continue
		}
		v := a.m / a.s * 3.6
		if !metric {
			v /= 1.609344
		}
		out = append(out, SpeedItem{Name: rt.String(), Speed: strconv.FormatFloat(v, 'f', 1, 64)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// encodePolyline writes a line in Google's encoded polyline format
// (precision 5, latitude first), the RouteData of a route.
func encodePolyline(ls orb.LineString) string {
	var b strings.Builder
	var plat, plon int64
	for _, p := range ls {
		lat, lon := int64(math.Round(p[1]*1e5)), int64(math.Round(p[0]*1e5))
		writeVarint(&b, lat-plat)
		writeVarint(&b, lon-plon)
		plat, plon = lat, lon
	}
	return b.String()
}

func writeVarint(b *strings.Builder, v int64) {
	u := uint64(v << 1)
	if v < 0 {
		u = ^u
	}
	for u >= 0x20 {
		b.WriteByte(byte((0x20 | (u & 0x1f)) + 63))
		u >>= 5
	}
	b.WriteByte(byte(u + 63))
}
