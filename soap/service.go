package soap

import (
	"bytes"
	"context"
	_ "embed" // the WSDL
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"strings"
	"text/template"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/geocode"
	"github.com/geosvc/geosvc/keys"
)

// Interface is the name of the SOAP service among the interfaces a key
// may be allowed (keys create --interfaces soap) and in usage counts.
const Interface = keys.SOAP

// defaultMaxBody is the largest request envelope read by default.
const defaultMaxBody = 1 << 20

// maxGazetteerLocations bounds the locations of one Gazetteer request.
const maxGazetteerLocations = 1000

//go:embed location.wsdl
var wsdlText string

var wsdlTemplate = template.Must(template.New("wsdl").Parse(wsdlText))

// Options configures a Service.
type Options struct {
	// Bundle is the data bundle the operations answer from (its
	// gazetteer, routing graph and map layer); nil, or holding none yet,
	// while it loads: the operations then answer a Receiver fault.
	Bundle *bundle.Current
	// Gate checks the SubscriptionKey of every request, applies the rate
	// limit and quota of the billed key's plan and counts its usage, as
	// for the REST interfaces; its store issues free-trial keys
	// (LocationGetSubscriptionKey) under its trial policy and the keys of
	// location sets. Nil: every keyed request is Forbidden.
	Gate *keys.Gate
	// Redis stores the location sets (LocationCreateSetSimple, ...) under
	// Prefix; nil: location sets are not available.
	Redis  redis.UniversalClient
	Prefix string
	// PublicURL, when set, is the base URL the WSDL advertises
	// (PublicURL + the request's path); else the request's scheme and
	// Host.
	PublicURL string
	// MaxBody is the largest envelope read; 0 means defaultMaxBody.
	MaxBody int64
	// Logger logs internal errors; nil means slog.Default().
	Logger *slog.Logger
	// Legends holds the legend files a Map request's LegendFile names
	// (NAME.yaml); nil: the ones shipped in configs/legends.
	Legends fs.FS
}

// Service is the SOAP location service: an http.Handler that answers
// POSTed SOAP 1.1 and 1.2 envelopes and serves its WSDL on GET.
type Service struct {
	opts Options
}

// New returns the service.
func New(opts Options) *Service {
	if opts.MaxBody <= 0 {
		opts.MaxBody = defaultMaxBody
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Service{opts: opts}
}

// keyContext carries the request's requestAuth to the operations.
type keyContext struct{}

// requestAuth is who makes a request: its key, and the set the key
// addresses when it is a set key.
type requestAuth struct {
	key keys.Key
	set *setRef
}

// requestKey returns the key the request was made with.
func requestKey(ctx context.Context) keys.Key {
	a, _ := ctx.Value(keyContext{}).(requestAuth)
	return a.key
}

// requestSet returns the set of the request's set key, nil for another
// key.
func requestSet(ctx context.Context) *setRef {
	a, _ := ctx.Value(keyContext{}).(requestAuth)
	return a.set
}

// operation answers one request element (its XML in body) for the key's
// owner; it returns the response element or a *fault.
type operation func(ctx context.Context, body []byte) (any, error)

// ServeHTTP answers GET with the WSDL and POST with a SOAP response or
// fault.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		s.serveWSDL(w, r)
		return
	case http.MethodPost:
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	v := versionOf(r.Header.Get("Content-Type"))
	body, err := io.ReadAll(io.LimitReader(r.Body, s.opts.MaxBody+1))
	if err != nil {
		writeFault(w, v, senderFault("cannot read the request: %v", err))
		return
	}
	if int64(len(body)) > s.opts.MaxBody {
		writeFault(w, v, senderFault("the envelope is larger than %d bytes", s.opts.MaxBody))
		return
	}
	req, err := decodeEnvelope(r.Header.Get("Content-Type"), bytes.NewReader(body))
	if req.version != 0 {
		v = req.version
	}
	if err != nil {
		f, ok := err.(*fault)
		if !ok {
			f = senderFault("%v", err)
		}
		writeFault(w, v, f)
		return
	}
	ctx := context.WithValue(r.Context(), clientIPContext{}, clientIP(r))
	ctx = context.WithValue(ctx, acceptLanguageContext{}, r.Header.Get("Accept-Language"))
	meta := &answerMeta{}
	ctx = context.WithValue(ctx, answerMetaContext{}, meta)
	resp, err := s.dispatch(ctx, req)
	if err != nil {
		var f *fault
		if !errors.As(err, &f) {
			s.opts.Logger.Error("soap operation failed", slog.String("operation", req.operation), slog.Any("error", err))
			f = receiverFault("internal error, retry later")
		}
		writeFault(w, v, f)
		return
	}
	if meta.lang != "" {
		w.Header().Set("Content-Language", meta.lang)
	}
	if meta.varyLanguage {
		w.Header().Add("Vary", "Accept-Language")
	}
	if err := writeResponse(w, v, resp); err != nil {
		s.opts.Logger.Warn("soap response not written", slog.String("operation", req.operation), slog.Any("error", err))
	}
}

// versionOf guesses the SOAP version from a content type, for faults about
// requests that are not envelopes.
func versionOf(contentType string) soapVersion {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && mt == "application/soap+xml" {
		return soap12
	}
	return soap11
}

// operations lists the operations of the WSDL.
func (s *Service) operations() map[string]operation {
	return map[string]operation{
		"GazetteerSimple":            s.gazetteerSimple,
		"Gazetteer":                  s.gazetteer,
		"LocationGetSubscriptionKey": s.getSubscriptionKey,
		"RoutePlannerSimple":         s.routePlannerSimple,
		"RoutePlanner":               s.routePlanner,
		"MapSimple":                  s.mapSimple,
		"Map":                        s.mapOp,
		"MapDisplaceLocations":       s.displaceLocations,
		"MapGetLocation":             s.getLocation,
		"ProximitySimple":            s.proximitySimple,
		"Proximity":                  s.proximityOp,
		"LocationCreateSetSimple":    s.createSet,
		"LocationDeleteSetSimple":    s.deleteSet,
		"LocationUpload":             s.upload,
	}
}

// dispatch checks the key (every operation but LocationGetSubscriptionKey
// needs one allowed the soap interface by itself and by its plan; a set
// key's owner must be active too), takes a token of the rate limit and a
// request of the soap quota of the key (a set key's owner: the billed
// key), runs the operation and counts it in the usage of the billed key
// when it succeeds (the quota request is given back when it fails).
func (s *Service) dispatch(ctx context.Context, req request) (any, error) {
	op, known := s.operations()[req.operation]
	if !known {
		return nil, senderFault("unknown operation %s", req.operation)
	}
	if req.operation == "LocationGetSubscriptionKey" {
		return op(ctx, req.body)
	}
	var k keyOnly
	if err := xml.Unmarshal(req.body, &k); err != nil {
		return nil, senderFault("malformed %s request: %v", req.operation, err)
	}
	given := k.SubscriptionKey
	if req.operation == "LocationUpload" {
		given = k.NameOrSubscriptionKey
	}
	if len(given) > 1 {
		// Two keys in one request are refused rather than one of them
		// chosen (REST refuses two x-api-key headers likewise).
		if s.opts.Gate != nil {
			s.opts.Gate.Refuse("duplicate")
		}
		return nil, senderFault("Forbidden")
	}
	key, err := s.authenticate(ctx, strings.TrimSpace(strings.Join(given, "")))
	if err != nil {
		return nil, err
	}
	store := s.opts.Gate.Store()
	billed := key
	set, err := s.setOfKey(ctx, key)
	if err != nil {
		return nil, err
	}
	if set != nil {
		if req.operation == "LocationCreateSetSimple" {
			return nil, senderFault("a set key cannot create location sets: use the key that created its set")
		}
		// The owner pays: its plan's rate limit and quota apply.
		if billed, err = store.Get(ctx, set.owner); err != nil {
			return nil, err
		}
		if !store.PlanOf(billed).Allows(Interface) {
			return nil, senderFault("Forbidden")
		}
	}
	pass, err := s.opts.Gate.Admit(ctx, billed, Interface)
	var rl *keys.RateLimited
	var qe *keys.QuotaExceeded
	switch {
	case errors.As(err, &rl):
		return nil, senderFault("rate limit exceeded: retry in %d s", rl.Seconds())
	case errors.As(err, &qe):
		return nil, senderFault("%s (retry in %d s)", qe.Error(), int((qe.RetryAfter(store.Now())+time.Second-1)/time.Second))
	case err != nil:
		return nil, err
	}
	ctx = context.WithValue(ctx, keyContext{}, requestAuth{key: key, set: set})
	resp, err := op(ctx, req.body)
	pass.Done(ctx, err == nil)
	return resp, err
}

// clientIPContext carries the client's address to LocationGetSubscriptionKey
// (the per-address trial cap).
type clientIPContext struct{}

// clientIP is the request's peer address, without the port (as the REST
// server takes it: never a header the client writes; behind the proxies
// of http.trusted_proxies the REST server has put the client's address
// there).
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// authenticate returns the key, or a Sender fault "Forbidden" for a
// missing, malformed, unknown, revoked, expired or unpaid key or one not
// allowed the soap interface by itself or by its plan (the REST
// interfaces' message); a Receiver fault when the key store cannot be
// reached.
func (s *Service) authenticate(ctx context.Context, key string) (keys.Key, error) {
	if s.opts.Gate == nil {
		return keys.Key{}, senderFault("Forbidden")
	}
	var presented []string
	if key != "" {
		presented = []string{key}
	}
	k, err := s.opts.Gate.Authenticate(ctx, presented, Interface)
	switch {
	case errors.Is(err, keys.ErrForbidden):
		return keys.Key{}, senderFault("Forbidden")
	case err != nil:
		s.opts.Logger.Error("key store unavailable", slog.Any("error", err))
		return keys.Key{}, receiverFault("key store unavailable, retry later")
	}
	return k, nil
}

// index returns the gazetteer or a Receiver fault while it loads.
func (s *Service) index() (*geocode.Index, error) {
	var ix *geocode.Index
	if b := s.opts.Bundle.Load(); b != nil {
		ix = b.Geocoder
	}
	if ix == nil {
		return nil, receiverFault("the data bundle is loading, retry shortly")
	}
	return ix, nil
}

func (s *Service) gazetteerSimple(_ context.Context, body []byte) (any, error) {
	var req gazetteerSimpleRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return nil, senderFault("malformed GazetteerSimple request: %v", err)
	}
	ix, err := s.index()
	if err != nil {
		return nil, err
	}
	langs, err := gazetteerLangs(req.Language)
	if err != nil {
		return nil, err
	}
	in := addressInput{Country: req.Country, State: req.State, City: req.City, Street: req.Street, Premise: req.Premise, PostCode: req.PostCode}
	return gazetteerSimpleResponse{Result: checkLocation(ix, in, langs)}, nil
}

func (s *Service) gazetteer(_ context.Context, body []byte) (any, error) {
	var req gazetteerRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return nil, senderFault("malformed Gazetteer request: %v", err)
	}
	if n := len(req.Request.Locations); n > maxGazetteerLocations {
		return nil, senderFault("GazetteerRequest holds %d locations; at most %d", n, maxGazetteerLocations)
	}
	langs, err := gazetteerLangs(req.Language)
	if err != nil {
		return nil, err
	}
	ix, err := s.index()
	if err != nil {
		return nil, err
	}
	var resp gazetteerResponse
	for i, l := range req.Request.Locations {
		if l == nil { // not produced by encoding/xml (an xsi:nil element decodes as an empty one), kept for safety
			resp.Result.Locations = append(resp.Result.Locations, location{locationTail: locationTail{Encoding: encodingWGS84}, Status: statusEmpty})
			continue
		}
		if e := strings.TrimSpace(l.Encoding); e != "" && e != encodingWGS84 {
			return nil, senderFault("LocationInput %d: Encoding %s is not supported (use %s)", i+1, e, encodingWGS84)
		}
		in := addressInput{Country: l.Country.value(), State: l.State.value(), City: l.City.value(),
			Street: l.Street.value(), Premise: l.Premise.value(), PostCode: l.PostCode.value()}
		loc := checkLocation(ix, in, langs)
		if loc.FID == "" {
			loc.FID = l.FID
		}
		resp.Result.Locations = append(resp.Result.Locations, loc)
	}
	return resp, nil
}

// getSubscriptionKey issues a free-trial key, as POST /keysv1/trial does,
// when the server offers trials (auth.trial.enabled): on the trial plan,
// expiring after its trial length, one active trial per e-mail address
// (eMail is required), at most auth.trial.per_ip_per_day per client
// address. ContactName and CompanyName describe the applicant.
func (s *Service) getSubscriptionKey(ctx context.Context, body []byte) (any, error) {
	var req getSubscriptionKeyRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return nil, senderFault("malformed LocationGetSubscriptionKey request: %v", err)
	}
	if s.opts.Gate == nil {
		return nil, senderFault("this server does not issue keys on request: ask its administrator (geosvc keys create)")
	}
	ip, _ := ctx.Value(clientIPContext{}).(string)
	_, plain, err := s.opts.Gate.Store().IssueTrial(ctx, keys.TrialRequest{Name: req.ContactName, Email: req.EMail, Company: req.CompanyName, IP: ip})
	var in *keys.TrialInputError
	var lim *keys.TrialIPLimit
	switch {
	case errors.Is(err, keys.ErrTrialsOff):
		return nil, senderFault("this server does not issue keys on request: ask its administrator (geosvc keys create)")
	case errors.As(err, &in):
		if in.Field == "email" {
			return nil, senderFault("eMail: %s", in.Reason)
		}
		return nil, senderFault("%s", in.Error())
	case errors.Is(err, keys.ErrTrialEmail), errors.As(err, &lim):
		return nil, senderFault("%s", err.Error())
	case err != nil:
		return nil, fmt.Errorf("issue trial key: %w", err)
	}
	return getSubscriptionKeyResponse{Key: plain}, nil
}

// serveWSDL writes the WSDL with the service address of this request.
func (s *Service) serveWSDL(w http.ResponseWriter, r *http.Request) {
	base := strings.TrimSuffix(s.opts.PublicURL, "/")
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	var b bytes.Buffer
	// Escaped: the Host header is the client's to choose.
	if err := wsdlTemplate.Execute(&b, struct{ Endpoint string }{escape(base + r.URL.Path)}); err != nil {
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(b.Bytes())
	}
}
