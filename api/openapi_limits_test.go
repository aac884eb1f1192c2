package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
)

// The limits the document states for what a request sends (minimum and
// maximum, exclusive or not; minItems, maxItems, minLength, maxLength,
// pattern, enum, format, type, required, additionalProperties: false) are
// checked against the handlers: for each, requests just inside and just
// outside it, the rest of the request the operation's examples. Inside
// must not be refused (400, or the geocoder's INVALID_REQUEST), outside
// must be. So a limit the document states that no handler checks fails,
// and so does a handler that refuses a value at a stated bound.

// oaInput is one input of an operation the document may limit: a query
// or path parameter, or a member of the JSON body (a property; a
// property's items, values or names).
type oaInput struct {
	in, name string // "query", "path" or "body"; the parameter or property
	part     string // body only: "", "items", "values" or "names"
	schema   map[string]any
	required bool
	example  any
	desc     string // its description
	// listLen is, for the items of an array member, the length of the
	// member's example (0: none): the probes send lists as long, as a
	// list parallel to another one (origin_radiuses to origin_addresses)
	// must be.
	listLen int
}

// String names the input in failures: "query x", "body speeds (values)".
func (in oaInput) String() string {
	if in.part == "whole" {
		return "body"
	}
	if in.part != "" {
		return in.in + " " + in.name + " (" + in.part + ")"
	}
	return in.in + " " + in.name
}

// oaRequest is a request to send: parameter values by name (query and
// path) and the JSON body (nil: none).
type oaRequest struct {
	method, path string
	params       url.Values
	inPath       map[string]bool
	body         map[string]any
	key          string
}

func (r oaRequest) clone() oaRequest {
	c := r
	c.params = url.Values{}
	for k, v := range r.params {
		c.params[k] = slices.Clone(v)
	}
	if r.body != nil {
		b, _ := json.Marshal(r.body)
		c.body = nil
		_ = json.Unmarshal(b, &c.body)
	}
	return c
}

// send serves r and returns the answer.
func (r oaRequest) send(srv *Server) *httptest.ResponseRecorder {
	path, q := r.path, url.Values{}
	for k, v := range r.params {
		if r.inPath[k] {
			path = strings.Replace(path, "{"+k+"}", url.PathEscape(v[0]), 1)
		} else {
			q[k] = v
		}
	}
	target := path
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	var body *bytes.Reader
	if r.body != nil {
		b, _ := json.Marshal(r.body)
		body = bytes.NewReader(b)
	} else {
		body = bytes.NewReader(nil)
	}
	req := httptest.NewRequest(r.method, target, body)
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.key != "" {
		req.Header.Set(headerAPIKey, r.key)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec
}

// oaRefusal reports whether an answer refuses the request's input, with
// its message: a 400, or the geocoder's INVALID_REQUEST (on a 200).
func oaRefusal(rec *httptest.ResponseRecorder) (bool, string) {
	var b struct {
		Message      string `json:"message"`
		Status       string `json:"status"`
		ErrorMessage string `json:"error_message"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &b)
	switch {
	case rec.Code == http.StatusBadRequest:
		return true, b.Message
	case rec.Code == http.StatusOK && b.Status == geocodeInvalidRequest:
		return true, b.ErrorMessage
	}
	return oaItemsRefused(rec)
}

// oaItemsRefused reads a batch's answer ({"results": [...]}, one result
// per item, POST /geocoderv1/batch and /lookupsv1/batch): a batch refuses
// a bad item in that item's own result (status 400, or the geocoder's
// INVALID_REQUEST) and never as a whole, so a probe whose every item is
// refused is refused.
func oaItemsRefused(rec *httptest.ResponseRecorder) (bool, string) {
	var b struct {
		Results []struct {
			Status       any    `json:"status"`
			Message      string `json:"message"`
			ErrorMessage string `json:"error_message"`
		} `json:"results"`
	}
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &b) != nil || len(b.Results) == 0 {
		return false, ""
	}
	for _, r := range b.Results {
		if r.Status != float64(http.StatusBadRequest) && r.Status != geocodeInvalidRequest {
			return false, ""
		}
	}
	return true, b.Results[0].Message + b.Results[0].ErrorMessage
}

// oaProbe is one request just inside or just outside a limit.
type oaProbe struct {
	what   string // the limit and value, for failures
	inside bool
	value  any  // the input's value (a JSON value), unless remove
	remove bool // leave the input out
	extra  bool // add an unknown body member instead
}

// oaBaseParams replaces, for an operation (and one of its inputs, or "*"
// for all), the parameters the examples give: where the examples of all
// parameters are no valid request together (zip4v1's two forms), or
// where another parameter bounds the probed one (a tile's x and y at a
// zoom).
var oaBaseParams = map[string]map[string]string{
	"GET /zip4v1/xy2zip":               {"*": "x=39.1582&y=-75.5244", "zip9": "zip9=199010936"},
	"GET /covidv1/index2tile":          {"zoom": "x=0&y=0"},
	"GET /mapsv1/static":               {"*": "size=600x400&center=10.002,0.002&zoom=16", "bbox": "size=600x400&bbox=9.9995,-0.0005,10.0045,0.0045"},
	"GET /tilesv1/{z}/{x}/{y}.png":     {"z": "x=0&y=0"},
	"GET /tilesv1/{z}/{x}/{y}@2x.png":  {"z": "x=0&y=0"},
	"GET /tilesv1/{z}/{x}/{y}.webp":    {"z": "x=0&y=0"},
	"GET /tilesv1/{z}/{x}/{y}@2x.webp": {"z": "x=0&y=0"},
	"GET /tilesv1/{z}/{x}/{y}.mvt":     {"z": "x=0&y=0"},
}

// oaDescribed are refusals of values valid by their schema that the
// document states in prose because a schema cannot (a month in the
// future, a components name given twice): an inside probe refused with
// message is no failure, and the input's description must contain
// phrase.
var oaDescribed = []struct{ op, input, message, phrase string }{
	{"GET /keysv1/usage", "query month", "is in the future", "in the future"},
	{"GET /timezonesv1/xy2tzdata", "query timestamp", "is not a valid timestamp", "a 400 names `timestamp` otherwise"},
	{"POST /lookupsv1/batch", "body timestamp", "is not a valid timestamp", "a 400 names `timestamp` otherwise"},
	{"POST /geocoderv1/batch", "body addresses", "give addresses or reverse, not both", "addresses or reverse, not both"},
	{"POST /geocoderv1/batch", "body addresses (items)", "give addresses or reverse, not both", "addresses or reverse, not both"},
	{"GET /geocoderv1/geocoder", "query components", "given twice", "given twice"},
	{"GET /geoboundariesv1/xy2bounddata", "query geo_boundary", "is not a category", "a category of the loaded bundle"},
	{"POST /keysv1/checkout", "body plan", "is not a plan sold online", "any other name is a 400"},
	{"GET /routev1/route", "query avoid_polygons", "must be a GeoJSON Polygon or MultiPolygon object", "a GeoJSON Polygon or MultiPolygon object"},
	{"GET /routev1/route", "query profile", "vehicle is only for profile=truck", "a `vehicle` with any profile but truck"},
	{"GET /routev1/route", "query vehicle", "is out of range (0, ", "is out of range"},
	{"GET /routev1/route", "query profile", "is not in this bundle", "else a 400 names the build flag"},
	{"POST /tdmv1/order", "body profile", "is not in this bundle", "else a 400 on `profile` names the build flag"},
	{"GET /routev1/route", "query departure_time", "is not an RFC 3339 time", "a malformed time"},
	{"GET /routev1/route", "query arrival_time", "give one of them, not both", "give one of them, not both"},
	{"POST /tdmv1/order", "body departure_time", "is not an RFC 3339 time", "A malformed time"},
	{"GET /isochronev1/isochrone", "query departure_time", "is not an RFC 3339 time", "A malformed time"},
	{"POST /isochronev1/isochrone", "body departure_time", "is not an RFC 3339 time", "a malformed time"},
	{"POST /matchv1/match", "body profile", "is not in this bundle", "else a 400 on `profile` names the build flag"},
	{"POST /matchv1/match", "body profile", "vehicle is only for profile=truck", "a `vehicle` with any profile but truck"},
	{"POST /matchv1/match", "body vehicle", "is out of range (0, ", "is out of range"},
	{"GET /isochronev1/isochrone", "query x", "no road the profile drives", "no road within its snapping radius"},
	{"GET /isochronev1/isochrone", "query y", "no road the profile drives", "no road within the radius is a 400"},
	{"GET /isochronev1/isochrone", "query profile", "is not in this bundle", "else a 400 names the build flag"},
	{"GET /isochronev1/isochrone", "query vehicle", "vehicle is only for profile=truck", "else a 400, `vehicle is only for profile=truck`"},
	{"GET /isochronev1/isochrone", "query avoid_polygons", "must be a GeoJSON Polygon or MultiPolygon object", "a URL-encoded GeoJSON Polygon or MultiPolygon object"},
	{"POST /isochronev1/isochrone", "body origins (items)", "no road the profile drives", "no road within its snapping radius is a 400"},
	{"POST /isochronev1/isochrone", "body profile", "is not in this bundle", "a 400 naming the build flag"},
	{"GET /mapsv1/static", "query size", "must be WIDTHxHEIGHT in pixels", "must be WIDTHxHEIGHT in pixels"},
	{"GET /mapsv1/static", "query center", `is not "lon,lat"`, `is not "lon,lat"`},
	{"GET /mapsv1/static", "query bbox", "must be minlon,minlat,maxlon,maxlat", "must be minlon,minlat,maxlon,maxlat"},
	{"GET /mapsv1/static", "query route", "must be 2 to 10 points lon,lat separated by ;", "must be 2 to 10 points lon,lat separated by ;"},
}

// oaSkipped are operations whose inputs cannot be probed alone, and why.
var oaSkipped = map[string]string{
	"GET /osrm/route/v1/{profile}/{coordinates}":   oaOSRMSkip,
	"GET /osrm/table/v1/{profile}/{coordinates}":   oaOSRMSkip,
	"GET /osrm/nearest/v1/{profile}/{coordinates}": oaOSRMSkip,
	"GET /osrm/trip/v1/{profile}/{coordinates}":    oaOSRMSkip,
	"GET /osrm/match/v1/{profile}/{coordinates}":   oaOSRMSkip,
	"POST /keysv1/webhook/stripe":                  "every event is verified by its signature before anything else (TestStripeCheckoutAndWebhook and the webhook tests of keysv1_test.go sign theirs)",
}

// oaOSRMSkip is why the OSRM API's operations are not probed.
const oaOSRMSkip = "OSRM's grammar, its error codes and its 400s are checked by TestOSRMErrors (osrm_test.go): OSRM answers a coordinate without a road (NoSegment) and a pair without a route (NoRoute) with 400 too, which the probes would read as refusals of valid values"

// TestOpenAPILimits walks api/openapi.yaml and checks every limit it
// states for a request against the handler (see the top of this file).
func TestOpenAPILimits(t *testing.T) {
	d := loadOpenAPI(t)
	stripe := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"cs_test_limits","object":"checkout.session","url":"https://checkout.stripe.com/c/pay/cs_test_limits"}`)
	}))
	defer stripe.Close()
	f := newOAFixtureWith(t, 100, StripeOptions{SecretKey: "sk_test_limits", WebhookSecret: "whsec_limits", APIURL: stripe.URL})
	delaware, err := bndDelaware()
	extracts.Need(t, err)
	covid, err := covidDelaware()
	extracts.Need(t, err)
	geocoderServer(t, true) // builds tinyGeocode
	f.load(t, newTZFixture(t).ix, delaware, covid)

	ops := d.operations()
	names := slices.Sorted(maps.Keys(ops))
	limits := 0
	for _, key := range names {
		if why, ok := oaSkipped[key]; ok {
			t.Logf("%s: not probed: %s", key, why)
			continue
		}
		op := ops[key]
		method, path, _ := strings.Cut(key, " ")
		t.Run(key, func(t *testing.T) {
			inputs := d.inputs(t, op)
			for _, in := range inputs {
				base := d.baseRequest(t, key, method, path, op, in.String(), f.key)
				if refused, msg := oaRefusal(base.send(f.srv)); refused {
					t.Fatalf("the examples are refused (probing %s): %s", in, msg)
				}
				for _, p := range oaProbes(t, in) {
					limits++
					r := base.clone()
					in.set(&r, p)
					rec := r.send(f.srv)
					refused, msg := oaRefusal(rec)
					switch {
					case rec.Code >= 500:
						t.Errorf("%s %s: %d %s", in, p.what, rec.Code, rec.Body)
					case p.inside && refused && !described(key, in, msg):
						t.Errorf("%s %s is valid by the document but refused: %s", in, p.what, msg)
					case !p.inside && !refused:
						t.Errorf("%s %s is outside the document's limit but answered %d", in, p.what, rec.Code)
					}
				}
			}
		})
	}
	t.Logf("%d probes", limits)
	if limits < 300 {
		t.Errorf("only %d probes: the walk missed the document's limits", limits)
	}
	t.Run("tile indexes", func(t *testing.T) { oaTileIndexBounds(t, d, f.srv, f.key) })
}

// oaTileIndexBounds checks the bound of a tile's x and y that the
// document can only describe, 2^zoom - 1, at the least and the greatest
// zoom it states: 2^zoom - 1 is served, 2^zoom refused.
func oaTileIndexBounds(t *testing.T, d oaDoc, srv *Server, key string) {
	ops := d.operations()
	for _, tc := range []struct {
		op, zoom string
		target   func(z, x, y int) string
	}{
		{"GET /covidv1/index2tile", "zoom", func(z, x, y int) string { return fmt.Sprintf("/covidv1/index2tile?zoom=%d&x=%d&y=%d", z, x, y) }},
		{"GET /tilesv1/{z}/{x}/{y}.png", "z", func(z, x, y int) string { return fmt.Sprintf("/tilesv1/%d/%d/%d.png", z, x, y) }},
		{"GET /tilesv1/{z}/{x}/{y}@2x.png", "z", func(z, x, y int) string { return fmt.Sprintf("/tilesv1/%d/%d/%d@2x.png", z, x, y) }},
		{"GET /tilesv1/{z}/{x}/{y}.webp", "z", func(z, x, y int) string { return fmt.Sprintf("/tilesv1/%d/%d/%d.webp", z, x, y) }},
		{"GET /tilesv1/{z}/{x}/{y}@2x.webp", "z", func(z, x, y int) string { return fmt.Sprintf("/tilesv1/%d/%d/%d@2x.webp", z, x, y) }},
		{"GET /tilesv1/{z}/{x}/{y}.mvt", "z", func(z, x, y int) string { return fmt.Sprintf("/tilesv1/%d/%d/%d.mvt", z, x, y) }},
	} {
		var zs map[string]any
		for _, p := range oaList(ops[tc.op]["parameters"]) {
			p := d.deref(oaObj(p))
			desc, _ := p["description"].(string)
			switch p["name"] {
			case tc.zoom:
				zs = d.deref(oaObj(p["schema"]))
			case "x", "y":
				if !strings.Contains(desc, "0 to 2^"+tc.zoom+" - 1") {
					t.Errorf("%s: %s's description does not give its bound 0 to 2^%s - 1: %q", tc.op, p["name"], tc.zoom, desc)
				}
			}
		}
		lo, _ := zs["minimum"].(float64)
		hi, ok := zs["maximum"].(float64)
		if !ok {
			t.Fatalf("%s: %s has no maximum", tc.op, tc.zoom)
		}
		for _, z := range []int{int(lo), int(hi)} {
			last := 1<<z - 1
			for _, c := range []struct {
				x, y    int
				refused bool
			}{{last, last, false}, {last + 1, 0, true}, {0, last + 1, true}} {
				req := httptest.NewRequest(http.MethodGet, tc.target(z, c.x, c.y), nil)
				req.Header.Set(headerAPIKey, key)
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, req)
				if refused, _ := oaRefusal(rec); refused != c.refused || rec.Code >= 500 {
					t.Errorf("%s at zoom %d, x %d, y %d: %d %s, want refused %v", tc.op, z, c.x, c.y, rec.Code, rec.Body, c.refused)
				}
			}
		}
	}
}

// described reports whether an inside refusal is one the document
// states in prose (oaDescribed), checking that it does.
func described(op string, in oaInput, msg string) bool {
	for _, x := range oaDescribed {
		if x.op == op && x.input == in.String() && strings.Contains(msg, x.message) {
			return strings.Contains(strings.Join(strings.Fields(in.desc), " "), x.phrase)
		}
	}
	return false
}

// inputs lists the operation's parameters and JSON body members.
func (d oaDoc) inputs(t *testing.T, op map[string]any) []oaInput {
	var out []oaInput
	for _, p := range oaList(op["parameters"]) {
		p := d.deref(oaObj(p))
		req, _ := p["required"].(bool)
		desc, _ := p["description"].(string)
		out = append(out, oaInput{in: p["in"].(string), name: p["name"].(string), schema: d.deref(oaObj(p["schema"])), required: req, example: p["example"], desc: desc})
	}
	rb := d.deref(oaObj(op["requestBody"]))
	js := oaObj(oaObj(rb["content"])["application/json"])
	if js == nil {
		return out
	}
	s := d.deref(oaObj(js["schema"]))
	req := oaList(s["required"])
	bodyEx := oaObj(js["example"])
	for _, name := range slices.Sorted(maps.Keys(oaObj(s["properties"]))) {
		ps := d.deref(oaObj(oaObj(s["properties"])[name]))
		ex, ok := ps["example"]
		if !ok {
			ex = bodyEx[name]
		}
		desc, _ := ps["description"].(string)
		out = append(out, oaInput{in: "body", name: name, schema: ps, required: slices.Contains(req, any(name)), example: ex, desc: desc})
		if items := d.deref(oaObj(ps["items"])); items != nil {
			exList, _ := ex.([]any)
			itemsDesc, _ := items["description"].(string)
			out = append(out, oaInput{in: "body", name: name, part: "items", schema: items, example: items["example"], listLen: len(exList), desc: itemsDesc})
		}
		if vals := d.deref(oaObj(ps["additionalProperties"])); vals != nil {
			out = append(out, oaInput{in: "body", name: name, part: "values", schema: vals})
		}
		if names := d.deref(oaObj(ps["propertyNames"])); names != nil {
			out = append(out, oaInput{in: "body", name: name, part: "names", schema: names})
		}
	}
	// The body as a whole: unknown members refused or not.
	out = append(out, oaInput{in: "body", name: "", part: "whole", schema: s})
	return out
}

// baseRequest is the request the probes of input vary: every parameter
// with an example (or oaBaseParams), the body of the example.
func (d oaDoc) baseRequest(t *testing.T, key, method, path string, op map[string]any, input, apiKey string) oaRequest {
	r := oaRequest{method: method, path: path, params: url.Values{}, inPath: map[string]bool{}}
	for _, p := range oaList(op["parameters"]) {
		p := d.deref(oaObj(p))
		name := p["name"].(string)
		if p["in"] == "path" {
			r.inPath[name] = true
		}
		if ex, ok := p["example"]; ok {
			r.params.Set(name, oaParamString(ex))
		}
	}
	if over := oaBaseParams[key]; over != nil {
		q, ok := over[strings.TrimPrefix(strings.TrimPrefix(input, "query "), "path ")]
		if !ok {
			q, ok = over["*"]
		}
		if ok {
			vs, err := url.ParseQuery(q)
			if err != nil {
				t.Fatal(err)
			}
			if over["*"] != "" {
				r.params = url.Values{}
			}
			for k, v := range vs {
				r.params[k] = v
			}
		}
	}
	if rb := d.deref(oaObj(op["requestBody"])); rb != nil {
		js := oaObj(oaObj(rb["content"])["application/json"])
		ex, ok := js["example"].(map[string]any)
		if !ok {
			ex = map[string]any{}
		}
		r.body = maps.Clone(ex)
	}
	// The key, where the operation needs one (not where it is optional:
	// a checkout with a key upgrades that key).
	sec, has := op["security"]
	needs := !has
	for _, req := range oaList(sec) {
		if len(oaObj(req)) == 0 {
			needs = false
			break
		}
		if oaObj(req)["apiKey"] != nil {
			needs = true
		}
	}
	if needs {
		r.key = apiKey
	}
	return r
}

// oaParamString writes a YAML example as a parameter value.
func oaParamString(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// set puts probe p's value of the input into r.
func (in oaInput) set(r *oaRequest, p oaProbe) {
	if in.in != "body" {
		if p.remove {
			r.params.Del(in.name)
			return
		}
		r.params.Set(in.name, oaParamString(p.value))
		return
	}
	if p.extra {
		r.body["probe_unknown_member"] = 1
		return
	}
	if p.remove {
		delete(r.body, in.name)
		return
	}
	switch in.part {
	case "":
		r.body[in.name] = p.value
	case "items":
		r.body[in.name] = slices.Repeat([]any{p.value}, max(1, in.listLen))
	case "values":
		r.body[in.name] = map[string]any{oaFirstKey(r.body[in.name], "Motorway"): p.value}
	case "names":
		r.body[in.name] = map[string]any{fmt.Sprint(p.value): 50}
	}
}

// oaFirstKey is the first key of an example object, or def.
func oaFirstKey(v any, def string) string {
	if m, ok := v.(map[string]any); ok && len(m) > 0 {
		return slices.Sorted(maps.Keys(m))[0]
	}
	return def
}
