package api

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// OSRM's own answers, recorded from osrm-routed (OSRM v26.4.1, its
// car.lua, CH) by scripts/osrm-record.sh for the requests of
// testdata/osrmref/requests.tsv, against geosvc's answers to the same
// requests (docs/osrm.md, "Compared with OSRM itself").

// osrmRecording is one data set's recorded answers.
type osrmRecording struct {
	OSRMVersion  string `json:"osrm_version"`
	Profile      string `json:"profile"`
	Data         string `json:"data"`
	RoutedLimits string `json:"routed_limits"`
	Answers      []struct {
		Name    string          `json:"name"`
		Request string          `json:"request"`
		Status  int             `json:"status"`
		Body    json.RawMessage `json:"body"`
	} `json:"answers"`
}

// osrmFixtureLimits are the limits scripts/osrm-record.sh gives
// osrm-routed on the fixtures (FIXTURE_LIMITS).
var osrmFixtureLimits = OSRMLimits{MaxViarouteSize: 4, MaxTripSize: 4, MaxTableSize: 4, MaxNearestSize: 3, MaxMatchingSize: 4, MaxAlternatives: 2}

// osrmRequests reads requests.tsv: data set -> names in order, and each
// name's request.
func osrmRequests(t *testing.T) map[string][][2]string {
	f, err := os.Open(filepath.Join("testdata", "osrmref", "requests.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][][2]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("requests.tsv: %q: want 3 tab-separated columns", line)
		}
		out[cols[0]] = append(out[cols[0]], [2]string{cols[1], cols[2]})
	}
	return out
}

// osrmDifference is a difference from OSRM that docs/osrm.md states: on
// data set set ("" any) and request req ("" any, else a regular
// expression of names), at a path (indexes written [], "" any) of kind
// ("value", "missing": OSRM has the field, geosvc not, "extra", "length"
// of a list; "" any).
type osrmDifference struct {
	set, req, path, kind string
	// within, for numbers: the relative difference allowed (0: any);
	// the one measured is logged.
	within float64
	why    string
}

// TestOSRMReference sends each recorded request to geosvc, serving the
// same data with the same limits, and compares the answers field by
// field: the HTTP status and the code exactly; the same fields; strings
// (names, types, modifiers) exactly; numbers within tolerances
// (durations and weights 1 %, distances 1 % and 3 m, locations and
// geometries 5 m, bearings 2 degrees). Every difference is a failure
// unless osrmDifferences (docs/osrm.md) lists it; each listed one that
// occurs is logged.
func TestOSRMReference(t *testing.T) {
	reqs := osrmRequests(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "osrmref", "*.json"))
	if len(files) == 0 {
		t.Fatal("no recordings in testdata/osrmref (scripts/osrm-record.sh)")
	}
	recorded := map[string]bool{}
	for _, file := range files {
		set := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(set, func(t *testing.T) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var rec osrmRecording
			if err := json.Unmarshal(b, &rec); err != nil {
				t.Fatal(err)
			}
			key := set
			var g *routing.Graph
			limits := OSRMLimits{}
			if set == "delaware" {
				g = routingtest.Extract(t, "delaware")
			} else {
				key = set + ".osm"
				g = routingtest.Graph(t, key)
				limits = osrmFixtureLimits
			}
			recorded[key] = true
			want := reqs[key]
			if len(want) != len(rec.Answers) {
				t.Errorf("%d requests in requests.tsv, %d recorded: record again (scripts/osrm-record.sh %s)", len(want), len(rec.Answers), key)
			}
			s := newOSRMServer(t, g, limits)
			for i, a := range rec.Answers {
				if i < len(want) && (want[i][0] != a.Name || want[i][1] != a.Request) {
					t.Errorf("answer %d is %s %s, requests.tsv has %s %s: record again", i, a.Name, a.Request, want[i][0], want[i][1])
				}
				code, body := s.get(t, "/osrm"+a.Request)
				var theirs, ours any
				if err := json.Unmarshal(a.Body, &theirs); err != nil {
					t.Fatalf("%s: recorded body: %v", a.Name, err)
				}
				if err := json.Unmarshal([]byte(body), &ours); err != nil {
					t.Errorf("%s: geosvc's body is not JSON: %d %s", a.Name, code, body)
					continue
				}
				c := osrmComparer{set: key, name: a.Name, request: a.Request}
				if code != a.Status {
					c.add("", "status", fmt.Sprintf("HTTP %d, OSRM %d", code, a.Status))
				}
				c.compare("", theirs, ours)
				for _, d := range c.diffs {
					t.Errorf("%s %s: %s", a.Name, a.Request, d)
				}
				for _, d := range c.known {
					t.Logf("%s: documented difference: %s", a.Name, d)
				}
			}
		})
	}
	for set := range reqs {
		if !recorded[set] {
			t.Errorf("requests.tsv names %s, not recorded: scripts/osrm-record.sh %s", set, set)
		}
	}
}

// osrmComparer compares one answer.
type osrmComparer struct {
	set, name, request string
	diffs, known       []string
}

var indexRE = regexp.MustCompile(`\[\d+\]`)

// add records a difference at path (of kind), a failure unless listed.
func (c *osrmComparer) add(path, kind, msg string) {
	c.addNumber(path, kind, msg, math.NaN(), math.NaN())
}

// addNumber is add for numbers: OSRM's a, geosvc's b; a listed
// difference with a bound (within) holds only while b is within it.
func (c *osrmComparer) addNumber(path, kind, msg string, a, b float64) {
	norm := indexRE.ReplaceAllString(path, "[]")
	for _, d := range osrmDifferences {
		if d.set != "" && d.set != c.set {
			continue
		}
		if d.req != "" && !regexp.MustCompile("^(?:"+d.req+")$").MatchString(c.name) {
			continue
		}
		if d.kind != "" && d.kind != kind {
			continue
		}
		if d.path != "" && !strings.HasPrefix(norm, d.path) {
			continue
		}
		if d.within > 0 && !math.IsNaN(a) {
			rel := math.Abs(b-a) / math.Max(math.Abs(a), 1)
			if rel > d.within {
				continue
			}
			msg = fmt.Sprintf("%s, %.1f %% (at most %.0f %% stated)", msg, 100*rel, 100*d.within)
		}
		c.known = append(c.known, fmt.Sprintf("%s: %s (%s)", path, msg, d.why))
		return
	}
	c.diffs = append(c.diffs, fmt.Sprintf("%s: %s: %s", path, kind, msg))
}

// compare walks OSRM's value a and geosvc's b at path.
func (c *osrmComparer) compare(path string, a, b any) {
	key := path[strings.LastIndexAny(path, ".]")+1:]
	switch key {
	case "hint", "message", "hints":
		return // opaque, or worded by each its own way
	case "geometry":
		c.compareGeometry(path, a, b)
		return
	}
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			c.add(path, "value", fmt.Sprintf("geosvc %v, OSRM an object", short(b)))
			return
		}
		var keys []string
		for k := range av {
			keys = append(keys, k)
		}
		for k := range bv {
			if _, ok := av[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			x, inA := av[k]
			y, inB := bv[k]
			p := join(path, k)
			switch {
			case !inB:
				c.add(p, "missing", fmt.Sprintf("OSRM has %s", short(x)))
			case !inA:
				c.add(p, "extra", fmt.Sprintf("geosvc has %s", short(y)))
			default:
				c.compare(p, x, y)
			}
		}
	case []any:
		bv, ok := b.([]any)
		if !ok {
			c.add(path, "value", fmt.Sprintf("geosvc %v, OSRM a list", short(b)))
			return
		}
		if len(av) != len(bv) {
			c.add(path, "length", fmt.Sprintf("geosvc %d entries, OSRM %d", len(bv), len(av)))
			return
		}
		if key == "location" && len(av) == 2 {
			c.compareLocation(path, av, bv)
			return
		}
		for i := range av {
			c.compare(fmt.Sprintf("%s[%d]", path, i), av[i], bv[i])
		}
	case float64:
		bv, ok := b.(float64)
		if !ok {
			c.add(path, "value", fmt.Sprintf("geosvc %v, OSRM %v", short(b), av))
			return
		}
		if tol := numberTolerance(path, av); math.Abs(av-bv) > tol {
			if isBearing(path) && math.Abs(math.Abs(av-bv)-360) <= tol {
				return
			}
			c.addNumber(path, "value", fmt.Sprintf("geosvc %v, OSRM %v (tolerance %.3g)", bv, av, tol), av, bv)
		}
	default:
		if fmt.Sprint(a) != fmt.Sprint(b) {
			c.add(path, "value", fmt.Sprintf("geosvc %v, OSRM %v", short(b), short(a)))
		}
	}
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// isBearing reports whether path holds a compass bearing.
func isBearing(path string) bool {
	return strings.Contains(path, "bearing") || strings.Contains(path, "bearings[")
}

// numberTolerance is how far geosvc's number at path may be from OSRM's
// v.
func numberTolerance(path string, v float64) float64 {
	p := indexRE.ReplaceAllString(path, "[]")
	last := p[strings.LastIndexAny(p, ".")+1:]
	last = strings.TrimSuffix(last, "[]")
	last = strings.TrimSuffix(last, "[]")
	switch {
	case isBearing(p):
		return 2
	case last == "durations":
		// geosvc's table cells are whole seconds (docs/osrm.md).
		return math.Max(0.01*math.Abs(v), 0.2) + 0.5
	case last == "duration" || last == "weight" || strings.HasSuffix(p, "annotation.duration") || strings.HasSuffix(p, "annotation.weight"):
		return math.Max(0.01*math.Abs(v), 0.2)
	case last == "distance" || last == "distances":
		return math.Max(0.01*math.Abs(v), 3)
	case last == "speed":
		return math.Max(0.01*math.Abs(v), 0.2)
	}
	return 1e-9
}

// compareLocation compares two [lon, lat] within 5 m.
func (c *osrmComparer) compareLocation(path string, a, b []any) {
	pa, oka := pointOf(a)
	pb, okb := pointOf(b)
	if !oka || !okb {
		c.add(path, "value", fmt.Sprintf("geosvc %v, OSRM %v", b, a))
		return
	}
	if d := geo.HaversineM(pa, pb); d > osrmGeometryTolM {
		c.add(path, "value", fmt.Sprintf("geosvc %v, OSRM %v: %.1f m apart", b, a, d))
	}
}

// osrmGeometryTolM is how far apart locations and geometries may be.
const osrmGeometryTolM = 5

func pointOf(v []any) (orb.Point, bool) {
	x, ok1 := v[0].(float64)
	y, ok2 := v[1].(float64)
	return orb.Point{x, y}, ok1 && ok2
}

// compareGeometry decodes both geometries (a polyline of the request's
// precision, or GeoJSON) and checks each point of either lies within
// osrmGeometryTolM of the other line.
func (c *osrmComparer) compareGeometry(path string, a, b any) {
	digits := 5
	if strings.Contains(c.request, "geometries=polyline6") {
		digits = 6
	}
	la, errA := lineOf(a, digits)
	lb, errB := lineOf(b, digits)
	if errA != nil || errB != nil {
		c.add(path, "value", fmt.Sprintf("geosvc %v (%v), OSRM %v (%v)", short(b), errB, short(a), errA))
		return
	}
	if d := math.Max(farthest(la, lb), farthest(lb, la)); d > osrmGeometryTolM {
		c.add(path, "value", fmt.Sprintf("lines %.1f m apart at most (geosvc %d points, OSRM %d)", d, len(lb), len(la)))
	}
}

func lineOf(v any, digits int) ([]orb.Point, error) {
	switch g := v.(type) {
	case string:
		return decodePolyline(g, digits)
	case map[string]any:
		cs, _ := g["coordinates"].([]any)
		var out []orb.Point
		for _, c := range cs {
			xy, _ := c.([]any)
			if len(xy) != 2 {
				return nil, fmt.Errorf("bad coordinate %v", c)
			}
			p, ok := pointOf(xy)
			if !ok {
				return nil, fmt.Errorf("bad coordinate %v", c)
			}
			out = append(out, p)
		}
		return out, nil
	}
	return nil, fmt.Errorf("not a geometry: %v", short(v))
}

// farthest is the largest distance from a point of a to line b, in
// metres.
func farthest(a, b []orb.Point) float64 {
	worst := 0.0
	for _, p := range a {
		best := math.Inf(1)
		for i := range b {
			q := b[i]
			if i+1 < len(b) {
				q = nearestOnSegment(p, b[i], b[i+1])
			}
			best = math.Min(best, geo.HaversineM(p, q))
		}
		worst = math.Max(worst, best)
	}
	return worst
}

// nearestOnSegment is the point of segment a-b nearest p (planar, in
// degrees scaled by the cosine of the latitude).
func nearestOnSegment(p, a, b orb.Point) orb.Point {
	k := math.Cos(p[1] * math.Pi / 180)
	dx, dy := (b[0]-a[0])*k, b[1]-a[1]
	l2 := dx*dx + dy*dy
	if l2 == 0 {
		return a
	}
	f := math.Max(0, math.Min(1, ((p[0]-a[0])*k*dx+(p[1]-a[1])*dy)/l2))
	return orb.Point{a[0] + (b[0]-a[0])*f, a[1] + (b[1]-a[1])*f}
}

// short writes a value for a message, cut to 80 characters.
func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}
