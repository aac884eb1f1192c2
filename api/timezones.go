package api

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/timezone"
	"github.com/geosvc/geosvc/keys"
)

// timezonesInterface is the interface name of the time-zone endpoint, as
// keys and usage counters know it.
const timezonesInterface = keys.TimezonesV1

// headerIANAZone is the response header carrying the IANA name of the
// answer's zone ("America/New_York"), which the specification's body has
// no field for.
const headerIANAZone = "X-Time-Zone"

// TimezonesOptions configures the timezonesv1 endpoint.
type TimezonesOptions struct {
	// Bundle is the data bundle answered from: its time-zone index, whose
	// clock is the one the answers are computed at. Nil, or holding none
	// yet, while it loads (the endpoint then answers 503).
	Bundle *bundle.Current
	// Logger receives errors; default slog.Default().
	Logger *slog.Logger
}

// RegisterTimezones adds GET /timezonesv1/xy2tzdata to g, which must
// authenticate requests (Server.Protected).
//
// With timestamp (Unix seconds or RFC 3339) the answer is for that
// instant: the zone's data of its year, and the members appendTZInstant writes.
//
// Answers: 200 with the time zone response; 400 {"message"} for a missing,
// non-numeric, non-finite or out-of-range x (longitude) or y (latitude),
// or a timestamp that is not a time of tzMinYear..tzMaxYear;
// 503 {"message":"data bundle loading"} until the layer is loaded.
func RegisterTimezones(g *echo.Group, opts TimezonesOptions) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	h := &tzHandler{bundle: opts.Bundle, log: opts.Logger}
	h.enc.bufs.New = func() any { b := make([]byte, 0, 4096); return &b }
	g.GET("/"+timezonesInterface+"/xy2tzdata", h.xy2tzdata)
}

// tzHandler serves timezonesv1.
type tzHandler struct {
	bundle *bundle.Current
	log    *slog.Logger
	enc    tzEncoder
}

// errBundleLoading is the answer of a lookup before the bundle is loaded.
var errBundleLoading = httpError(http.StatusServiceUnavailable, "data bundle loading")

// xy2tzdata answers the time-zone data of the point x (lon), y (lat).
func (h *tzHandler) xy2tzdata(c echo.Context) error {
	q := c.QueryParams()
	p, msg := parseLookupPoint(q, lookupLonX, lookupLatY)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	at, hasAt, msg := parseTZTimestamp(q)
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	langs, msg := requestLang(c, c.QueryParams())
	if msg != "" {
		return httpError(http.StatusBadRequest, msg)
	}
	bd := h.bundle.Load()
	if bd == nil || bd.TimeZones == nil {
		return errBundleLoading
	}
	ix := bd.TimeZones
	var r timezone.Result
	var err error
	if hasAt {
		r, err = ix.LookupAt(p, at)
	} else {
		r, err = ix.Lookup(p)
	}
	if errors.Is(err, timezone.ErrNoZone) {
		return httpError(http.StatusNotFound, "no time zone at this point")
	}
	if err != nil {
		h.log.Error("time zone lookup failed", slog.String("request_id", requestIDOf(c)), slog.Any("error", err))
		return err
	}
	localAreaName(&r, bd, langs)
	r.Zone = r.Zone.In(langs)
	bp := h.enc.bufs.Get().(*[]byte)
	defer h.enc.bufs.Put(bp)
	b, err := h.enc.encode((*bp)[:0], r)
	if err != nil {
		return err
	}
	if r.At != nil {
		b = appendTZInstant(b, r.At)
	}
	*bp = b
	c.Response().Header().Set(headerIANAZone, r.Zone.Name)
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b)
}

// localAreaName names r's local area in the first of langs its boundary
// has a name:xx tag for (local_boundary_name); local_boundary_names stay
// the areas' names (the zone's names follow langs by CLDR: Zone.In).
func localAreaName(r *timezone.Result, bd *bundle.Bundle, langs []string) {
	if !r.InArea || len(langs) == 0 || bd.Boundaries == nil {
		return
	}
	if a, ok := bd.Boundaries.ByID(r.Area.ID); ok {
		r.Area.Name = a.NameIn(langs)
	}
}
