package soap

import (
	"context"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/configs"
	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/keys"
	"github.com/geosvc/geosvc/routing"
)

var (
	tinyOnce sync.Once
	tinyIx   *geocode.Index
	tinyErr  error
)

// fixture is a service on the geocoder's hand-written fixture
// (geo/geocode/testdata/tiny.osm) and a Redis key store.
type fixture struct {
	svc   *Service
	store *keys.Store
	key   string // allowed every interface
	other string // allowed adminv1 only
	// The bundle the service answers from (use): a routing graph, the
	// gazetteer (tiny.osm's unless set) and the data set's name.
	graph *routing.Graph
	ix    *geocode.Index
	name  string
}

// setGraph, setGeocoder and setName change the bundle the service
// answers from.
func (f *fixture) setGraph(g *routing.Graph)     { f.graph = g; f.use() }
func (f *fixture) setGeocoder(ix *geocode.Index) { f.ix = ix; f.use() }
func (f *fixture) setName(name string)           { f.name = name; f.use() }

// use stores the fixture's bundle in the service.
func (f *fixture) use() {
	f.svc.opts.Bundle.Store(&bundle.Bundle{Graph: f.graph, Geocoder: f.ix, Manifest: bundle.Manifest{Source: bundle.Source{File: f.name}}})
}

func newFixture(t testing.TB, keyRequests bool) *fixture {
	t.Helper()
	tinyOnce.Do(func() {
		tinyIx, tinyErr = geocode.Build(filepath.Join("..", "geo", "geocode", "testdata", "tiny.osm"), geocode.BuildOptions{})
	})
	if tinyErr != nil {
		t.Fatal(tinyErr)
	}
	// The real Redis of REDIS_URL when set (CI), else an in-process one;
	// keys under a prefix of this test's own.
	r := redistest.New(t)
	rdb := r.Client
	plans, err := keys.ParsePlans(configs.Plans())
	if err != nil {
		t.Fatal(err)
	}
	// keyRequests offers free trials (LocationGetSubscriptionKey).
	store := keys.NewStore(rdb, keys.Options{Prefix: r.Prefix, Plans: plans, Trials: keys.TrialPolicy{Enabled: keyRequests, PerIPPerDay: 3}})
	f := &fixture{store: store, ix: tinyIx}
	if _, f.key, err = store.Create(context.Background(), keys.CreateOptions{Owner: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, f.other, err = store.Create(context.Background(), keys.CreateOptions{Owner: "admin only", Interfaces: []string{"adminv1"}}); err != nil {
		t.Fatal(err)
	}
	f.svc = New(Options{Bundle: &bundle.Current{}, Gate: keys.NewGate(store, keys.GateOptions{}), Redis: rdb, Prefix: r.Prefix})
	f.use()
	return f
}

// envelope11 and envelope12 wrap an operation element.
func envelope11(op string) string {
	return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` + op + `</soap:Body></soap:Envelope>`
}

func envelope12(op string) string {
	return `<?xml version="1.0" encoding="utf-8"?><env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body>` + op + `</env:Body></env:Envelope>`
}

func (f *fixture) post(contentType, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/soap", strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	f.svc.ServeHTTP(rec, req)
	return rec
}

// faultOf returns the fault code and reason of a response body, "" when
// it is no fault.
func faultOf(t *testing.T, body string) (code, reason string) {
	t.Helper()
	var env struct {
		Body struct {
			Fault *struct {
				Code11   string `xml:"faultcode"`
				String11 string `xml:"faultstring"`
				Code12   string `xml:"Code>Value"`
				Reason12 string `xml:"Reason>Text"`
			} `xml:"Fault"`
		} `xml:"Body"`
	}
	if err := xml.Unmarshal([]byte(body), &env); err != nil {
		t.Fatalf("response is not XML: %v\n%s", err, body)
	}
	if env.Body.Fault == nil {
		return "", ""
	}
	fl := env.Body.Fault
	return fl.Code11 + fl.Code12, fl.String11 + fl.Reason12
}

func gazetteerSimple(key string, fields map[string]string) string {
	var b strings.Builder
	b.WriteString(`<GazetteerSimple xmlns="http://geosvc.org/LocationService/">`)
	for _, k := range []string{"Country", "State", "City", "Street", "Premise", "PostCode", "Language"} {
		if v, ok := fields[k]; ok {
			b.WriteString("<" + k + ">" + v + "</" + k + ">")
		}
	}
	b.WriteString("<SubscriptionKey>" + key + "</SubscriptionKey></GazetteerSimple>")
	return b.String()
}

func TestEnvelopesAndFaults(t *testing.T) {
	f := newFixture(t, false)
	ok := gazetteerSimple(f.key, map[string]string{"Street": "North Main Street", "Premise": "10"})
	for _, tc := range []struct {
		name        string
		contentType string
		body        string
		status      int
		ctype       string
		fault       string // code, "" for a response
		reason      string
	}{
		{"SOAP 1.1", "text/xml; charset=utf-8", envelope11(ok), 200, "text/xml", "", ""},
		{"SOAP 1.2", "application/soap+xml; charset=utf-8", envelope12(ok), 200, "application/soap+xml", "", ""},
		{"not XML", "text/xml", "hello", 500, "text/xml", "soap:Client", "not a SOAP envelope"},
		{"not XML, SOAP 1.2", "application/soap+xml", "hello", 400, "application/soap+xml", "soap:Sender", "not a SOAP envelope"},
		{"other root", "text/xml", "<a/>", 500, "text/xml", "soap:Client", "not a SOAP Envelope"},
		{"other namespace", "text/xml", `<Envelope xmlns="urn:x"><Body/></Envelope>`, 500, "text/xml", "soap:VersionMismatch", "neither SOAP 1.1 nor 1.2"},
		{"mustUnderstand header", "application/soap+xml", `<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Header><t:Tx xmlns:t="urn:t" env:mustUnderstand="true"/></env:Header><env:Body>` + ok + `</env:Body></env:Envelope>`, 400, "application/soap+xml", "soap:MustUnderstand", "header Tx"},
		{"operation in another namespace", "text/xml", envelope11(`<GazetteerSimple xmlns="urn:other"/>`), 500, "text/xml", "soap:Client", "is in namespace"},
		{"1.2 envelope as text/xml", "text/xml", envelope12(ok), 400, "application/soap+xml", "soap:Sender", "does not match"},
		{"empty body", "text/xml", envelope11(""), 500, "text/xml", "soap:Client", "no operation"},
		{"unknown operation", "text/xml", envelope11(`<Teleport xmlns="http://geosvc.org/LocationService/"/>`), 500, "text/xml", "soap:Client", "unknown operation Teleport"},
		{"no key", "text/xml", envelope11(gazetteerSimple("", map[string]string{"City": "Testville"})), 500, "text/xml", "soap:Client", "Forbidden"},
		{"unknown key", "text/xml", envelope11(gazetteerSimple("gs_"+strings.Repeat("x", 40), map[string]string{"City": "Testville"})), 500, "text/xml", "soap:Client", "Forbidden"},
		{"key not allowed soap", "application/soap+xml", envelope12(gazetteerSimple(f.other, map[string]string{"City": "Testville"})), 400, "application/soap+xml", "soap:Sender", "Forbidden"},
		{"map without a size", "text/xml", envelope11(`<MapSimple xmlns="http://geosvc.org/LocationService/"><X>-75.5</X><Y>39</Y><Encoding>EPGS4326</Encoding><SubscriptionKey>` + f.key + `</SubscriptionKey></MapSimple>`), 500, "text/xml", "soap:Client", "Width and Height"},
		{"too many locations", "text/xml", envelope11(`<Gazetteer xmlns="http://geosvc.org/LocationService/"><GazetteerRequest>` + strings.Repeat("<LocationInput><Encoding>EPGS4326</Encoding></LocationInput>", maxGazetteerLocations+1) + `</GazetteerRequest><SubscriptionKey>` + f.key + `</SubscriptionKey></Gazetteer>`), 500, "text/xml", "soap:Client", "at most 1000"},
		{"other encoding", "text/xml", envelope11(`<Gazetteer xmlns="http://geosvc.org/LocationService/"><GazetteerRequest><LocationInput><Encoding>VENDOR1</Encoding></LocationInput></GazetteerRequest><SubscriptionKey>` + f.key + `</SubscriptionKey></Gazetteer>`), 500, "text/xml", "soap:Client", "Encoding VENDOR1"},
		{"key requests off", "text/xml", envelope11(`<LocationGetSubscriptionKey xmlns="http://geosvc.org/LocationService/"><CompanyName>Acme</CompanyName></LocationGetSubscriptionKey>`), 500, "text/xml", "soap:Client", "does not issue keys"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post(tc.contentType, tc.body)
			if rec.Code != tc.status || !strings.HasPrefix(rec.Header().Get("Content-Type"), tc.ctype) {
				t.Fatalf("HTTP %d %s, want %d %s:\n%s", rec.Code, rec.Header().Get("Content-Type"), tc.status, tc.ctype, rec.Body)
			}
			code, reason := faultOf(t, rec.Body.String())
			if code != tc.fault || !strings.Contains(reason, tc.reason) {
				t.Errorf("fault %q %q, want %q containing %q", code, reason, tc.fault, tc.reason)
			}
		})
	}
}

// gazetteerResult decodes the Location of a GazetteerSimple response.
func gazetteerResult(t *testing.T, body string) location {
	t.Helper()
	var env struct {
		Body struct {
			Resp struct {
				Result location `xml:"GazetteerSimpleResult"`
			} `xml:"GazetteerSimpleResponse"`
		} `xml:"Body"`
	}
	if err := xml.Unmarshal([]byte(body), &env); err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	return env.Body.Resp.Result
}

func fieldStatus(f *locationField) string {
	if f == nil {
		return "-"
	}
	s := f.Status
	for _, n := range f.Names {
		s += " " + n.Value
	}
	if f.Current != "" {
		s += " (" + f.Current + ")"
	}
	return s
}

func TestGazetteerSimple(t *testing.T) {
	f := newFixture(t, false)
	for _, tc := range []struct {
		name   string
		in     map[string]string
		status string
		fields map[string]string // field -> "Status names (current)"
	}{
		{"all given, all right", map[string]string{"Street": "North Main Street", "Premise": "10", "City": "Testville", "PostCode": "19901", "State": "DE", "Country": "US"},
			statusOK, map[string]string{"Street": "OK North Main Street", "Premise": "OK 10", "PostCode": "OK 19901", "City": "OK Testville", "State": "OK Delaware", "Country": "OK United States"}},
		{"completed", map[string]string{"Street": "n main st", "Premise": "10"},
			statusCompleted, map[string]string{"Street": "OK North Main Street", "Premise": "OK 10", "PostCode": "Completed 19901", "City": "Completed Testville", "Country": "Completed United States"}},
		{"wrong postcode", map[string]string{"Street": "North Main Street", "Premise": "10", "PostCode": "19711"},
			statusConflict, map[string]string{"PostCode": "Conflict 19901 (19711)", "Premise": "OK 10"}},
		{"house number in a range", map[string]string{"Street": "North Main Street", "Premise": "24"},
			statusRangeCheck, map[string]string{"Premise": "RangeCheck 24"}},
		{"house number not found", map[string]string{"Street": "North Main Street", "Premise": "99"},
			statusIncomplete, map[string]string{"Premise": "Incomplete (99)", "Street": "OK North Main Street"}},
		{"street given in part", map[string]string{"Street": "Main St", "Premise": "10"},
			statusCompleted, map[string]string{"Street": "Completed North Main Street (Main St)", "Premise": "OK 10"}},
		// The fixture knows no Dover: the city matches nothing (the
		// Delaware test has a known city in conflict).
		{"a city that matches nothing", map[string]string{"Street": "North Main Street", "Premise": "10", "City": "Dover"},
			statusNotChecked, map[string]string{"City": "NotChecked Dover", "Street": "OK North Main Street", "Premise": "OK 10"}},
		{"a postcode the town result cannot check", map[string]string{"City": "Testville", "PostCode": "19901"},
			statusNotChecked, map[string]string{"City": "OK Testville", "PostCode": "NotChecked 19901"}},
		{"nothing found", map[string]string{"Street": "Qqqq Zzzz Road"},
			statusNotChecked, map[string]string{"Street": "NotChecked Qqqq Zzzz Road", "City": "-"}},
		{"nothing given", map[string]string{},
			statusEmpty, map[string]string{"Street": "-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post("text/xml", envelope11(gazetteerSimple(f.key, tc.in)))
			if rec.Code != 200 {
				t.Fatalf("HTTP %d: %s", rec.Code, rec.Body)
			}
			loc := gazetteerResult(t, rec.Body.String())
			if loc.Status != tc.status || loc.Encoding != encodingWGS84 {
				t.Errorf("Location Status %s Encoding %s, want %s", loc.Status, loc.Encoding, tc.status)
			}
			got := map[string]*locationField{"Country": loc.Country, "State": loc.State, "PostCode": loc.PostCode, "City": loc.City, "Street": loc.Street, "Premise": loc.Premise}
			for k, want := range tc.fields {
				if g := fieldStatus(got[k]); g != want {
					t.Errorf("%s: %q, want %q", k, g, want)
				}
			}
			if tc.status != statusNotChecked && tc.status != statusEmpty && (loc.X == "" || loc.Y == "" || loc.FID == "") {
				t.Errorf("no X, Y or fid: %+v", loc)
			}
		})
	}
}

func TestGazetteerArray(t *testing.T) {
	f := newFixture(t, false)
	body := `<Gazetteer xmlns="http://geosvc.org/LocationService/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><GazetteerRequest>` +
		`<LocationInput fid="a"><Street><Name>North Main Street</Name></Street><Premise><Name>12</Name></Premise><Encoding>EPGS4326</Encoding></LocationInput>` +
		`<LocationInput fid="b"><City><Name>Testville</Name></City><Encoding>EPGS4326</Encoding></LocationInput>` +
		`</GazetteerRequest><SubscriptionKey>` + f.key + `</SubscriptionKey></Gazetteer>`
	rec := f.post("application/soap+xml", envelope12(body))
	if rec.Code != 200 {
		t.Fatalf("HTTP %d: %s", rec.Code, rec.Body)
	}
	var env struct {
		Body struct {
			Resp struct {
				Locations []location `xml:"GazetteerResult>Location"`
			} `xml:"GazetteerResponse"`
		} `xml:"Body"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatal(err)
	}
	locs := env.Body.Resp.Locations
	if len(locs) != 2 {
		t.Fatalf("%d locations, want 2:\n%s", len(locs), rec.Body)
	}
	if fieldStatus(locs[0].Premise) != "OK 12" || locs[0].Type != "street_address" {
		t.Errorf("first: %s %s", fieldStatus(locs[0].Premise), locs[0].Type)
	}
	if fieldStatus(locs[1].City) != "OK Testville" || locs[1].Type != "locality" {
		t.Errorf("second: %s %s", fieldStatus(locs[1].City), locs[1].Type)
	}
}

func TestLocationGetSubscriptionKey(t *testing.T) {
	f := newFixture(t, true)
	get := func(fields string) *httptest.ResponseRecorder {
		return f.post("text/xml", envelope11(`<LocationGetSubscriptionKey xmlns="http://geosvc.org/LocationService/">`+fields+`</LocationGetSubscriptionKey>`))
	}
	rec := get(`<CompanyName>Acme</CompanyName><ContactName>Ann</ContactName><eMail>ops@acme.test</eMail>`)
	if rec.Code != 200 {
		t.Fatalf("HTTP %d: %s", rec.Code, rec.Body)
	}
	var env struct {
		Key string `xml:"Body>LocationGetSubscriptionKeyResponse>SubscriptionKey"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Key == "" {
		t.Fatalf("no key: %v\n%s", err, rec.Body)
	}
	// The same trial key as POST /keysv1/trial issues: the trial plan
	// (soap, no tdmv1), an expiry, the applicant as owner.
	k, err := f.store.Authenticate(context.Background(), env.Key)
	plan := f.store.PlanOf(k)
	if err != nil || k.Plan != f.store.Plans().TrialPlan || !plan.Allows(Interface) || plan.Allows("tdmv1") || k.Expires.IsZero() ||
		k.Owner != "trial: Ann <ops@acme.test> (Acme)" {
		t.Errorf("issued key %+v, %v: want a trial key owned by Ann of Acme", k, err)
	}
	// The key works for the gazetteer.
	rec = f.post("text/xml", envelope11(gazetteerSimple(env.Key, map[string]string{"City": "Testville"})))
	if code, reason := faultOf(t, rec.Body.String()); code != "" {
		t.Errorf("issued key refused: %s %s", code, reason)
	}
	// One active trial per e-mail address.
	if code, reason := faultOf(t, get(`<eMail>OPS+soap@acme.test</eMail>`).Body.String()); code != "soap:Client" || !strings.Contains(reason, "already has an active free trial") {
		t.Errorf("second trial for one address: %s %s", code, reason)
	}
	// No e-mail address: no trial.
	if code, reason := faultOf(t, get(`<CompanyName>Acme</CompanyName>`).Body.String()); code != "soap:Client" || !strings.Contains(reason, "eMail") {
		t.Errorf("key without an e-mail: fault %q %q", code, reason)
	}
	// The client address (httptest's 192.0.2.1) has had its 3 trials.
	get(`<eMail>two@acme.test</eMail>`)
	get(`<eMail>three@acme.test</eMail>`)
	if code, reason := faultOf(t, get(`<eMail>four@acme.test</eMail>`).Body.String()); code != "soap:Client" || !strings.Contains(reason, "free trials today") {
		t.Errorf("fourth trial from one address: %s %s", code, reason)
	}
}

func TestWSDL(t *testing.T) {
	f := newFixture(t, false)
	req := httptest.NewRequest(http.MethodGet, "/soap?wsdl", nil)
	req.Host = `geo.example:8080"><x`
	rec := httptest.NewRecorder()
	f.svc.ServeHTTP(rec, req)
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/xml") {
		t.Fatalf("HTTP %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	var defs struct {
		Ops []struct {
			Name string `xml:"name,attr"`
		} `xml:"portType>operation"`
		Addresses []struct {
			Location string `xml:"location,attr"`
		} `xml:"service>port>address"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &defs); err != nil {
		t.Fatalf("WSDL is not XML: %v", err)
	}
	if len(defs.Ops) != 14 || len(defs.Addresses) != 2 {
		t.Fatalf("%d operations, %d addresses, want 14 and 2", len(defs.Ops), len(defs.Addresses))
	}
	for _, a := range defs.Addresses {
		if a.Location != `http://geo.example:8080"><x/soap` {
			t.Errorf("address %q: the Host is not carried (escaped) into the WSDL", a.Location)
		}
	}
	// Behind a proxy: the configured public URL.
	f.svc.opts.PublicURL = "https://geo.example.org/"
	rec = httptest.NewRecorder()
	f.svc.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/soap?wsdl", nil))
	if !strings.Contains(rec.Body.String(), `location="https://geo.example.org/soap"`) {
		t.Errorf("WSDL behind a proxy does not advertise the public URL")
	}
	// A Host with "--" (punycode) keeps the WSDL well-formed.
	req = httptest.NewRequest(http.MethodGet, "/soap?wsdl", nil)
	req.Host = "xn--bcher-kva.example"
	f.svc.opts.PublicURL = ""
	rec = httptest.NewRecorder()
	f.svc.ServeHTTP(rec, req)
	var again struct{ XMLName xml.Name }
	if err := xml.Unmarshal(rec.Body.Bytes(), &again); err != nil {
		t.Errorf("WSDL for a punycode host: %v", err)
	}
	// Every operation of the WSDL is one the service knows.
	for _, op := range defs.Ops {
		if _, ok := f.svc.operations()[op.Name]; !ok {
			t.Errorf("WSDL operation %s unknown to the service", op.Name)
		}
	}
	if len(f.svc.operations()) != len(defs.Ops) {
		t.Errorf("the service knows %d operations, the WSDL %d", len(f.svc.operations()), len(defs.Ops))
	}
}

// FuzzEnvelope posts arbitrary bodies: the answer is always XML, a
// response or a fault, with a SOAP status.
func FuzzEnvelope(f *testing.F) {
	fx := newFixture(f, false)
	for _, s := range []string{envelope11(gazetteerSimple(fx.key, map[string]string{"City": "Testville"})), envelope12("<Gazetteer/>"), "<", "", envelope11("<GazetteerSimple><Premise>\xff</Premise></GazetteerSimple>")} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, body string, soap12 bool) {
		ct := "text/xml"
		if soap12 {
			ct = "application/soap+xml"
		}
		rec := fx.post(ct, body)
		if rec.Code != 200 && rec.Code != 400 && rec.Code != 500 {
			t.Fatalf("HTTP %d", rec.Code)
		}
		var v struct{ XMLName xml.Name }
		if err := xml.Unmarshal(rec.Body.Bytes(), &v); err != nil || v.XMLName.Local != "Envelope" {
			t.Fatalf("answer is no envelope (%v): %s", err, rec.Body)
		}
	})
}

// TestPrefixesDeclaredOnTheEnvelope: SOAP clients (.NET, SoapUI, Java's
// JAX-WS) declare the service namespace's prefix on the Envelope and
// write every element with it; the operation must be read the same as
// with a default namespace on the operation element.
func TestPrefixesDeclaredOnTheEnvelope(t *testing.T) {
	f := newFixture(t, false)
	for _, tc := range []struct {
		name, ctype, body string
	}{
		{"SOAP 1.1, prefix on the Envelope", "text/xml",
			`<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ls="http://geosvc.org/LocationService/">` +
				`<soapenv:Header/><soapenv:Body><ls:GazetteerSimple><ls:Street>North Main Street</ls:Street><ls:Premise>10</ls:Premise>` +
				`<ls:SubscriptionKey>` + f.key + `</ls:SubscriptionKey></ls:GazetteerSimple></soapenv:Body></soapenv:Envelope>`},
		{"SOAP 1.2, prefix on the Body", "application/soap+xml",
			`<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body xmlns:g="http://geosvc.org/LocationService/">` +
				`<g:GazetteerSimple><g:Street>North Main Street</g:Street><g:Premise>10</g:Premise>` +
				`<g:SubscriptionKey>` + f.key + `</g:SubscriptionKey></g:GazetteerSimple></env:Body></env:Envelope>`},
		{"default namespace on the Envelope", "text/xml",
			`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns="http://geosvc.org/LocationService/">` +
				`<soap:Body><GazetteerSimple><Street>North Main Street</Street><Premise>10</Premise>` +
				`<SubscriptionKey>` + f.key + `</SubscriptionKey></GazetteerSimple></soap:Body></soap:Envelope>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.post(tc.ctype, tc.body)
			if rec.Code != 200 {
				t.Fatalf("HTTP %d: %s", rec.Code, rec.Body)
			}
			loc := gazetteerResult(t, rec.Body.String())
			if loc.Status != statusCompleted || fieldStatus(loc.Premise) != "OK 10" || fieldStatus(loc.Street) != "OK North Main Street" {
				t.Errorf("Location %s, Premise %q, Street %q", loc.Status, fieldStatus(loc.Premise), fieldStatus(loc.Street))
			}
		})
	}
}

// TestTwoSubscriptionKeysAreForbidden: a request element with two
// SubscriptionKey elements is the Forbidden Sender fault, even when both
// are the same valid key.
func TestTwoSubscriptionKeysAreForbidden(t *testing.T) {
	f := newFixture(t, false)
	body := `<GazetteerSimple xmlns="http://geosvc.org/LocationService/"><Street>North Main Street</Street>` +
		`<SubscriptionKey>` + f.key + `</SubscriptionKey><SubscriptionKey>` + f.key + `</SubscriptionKey></GazetteerSimple>`
	rec := f.post("text/xml", envelope11(body))
	if code, reason := faultOf(t, rec.Body.String()); code != "soap:Client" || reason != "Forbidden" {
		t.Errorf("two keys: %d %s %q", rec.Code, code, reason)
	}
}
