package api

import (
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the REST and SOAP server's Prometheus metrics: requests and
// their latency by route template (never the raw path, never a key id)
// and status, authentication refusals by reason and rate-limit refusals.
// A nil *Metrics records nothing.
type Metrics struct {
	requests     *prometheus.CounterVec
	duration     *prometheus.HistogramVec
	authRefusals *prometheus.CounterVec
	rateLimited  prometheus.Counter
}

// NewMetrics registers the server's metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "geosvc_http_requests_total",
			Help: "HTTP requests answered, by route template, method and status code.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "geosvc_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route template and method.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route", "method"}),
		authRefusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "geosvc_auth_refusals_total",
			Help: "Requests refused as Forbidden, by reason: missing, malformed, unknown, revoked, expired (a trial past its end), pending (unpaid), interface (not allowed for the key), duplicate (two keys), token (a bad or expired tile token).",
		}, []string{"reason"}),
		rateLimited: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "geosvc_rate_limited_total",
			Help: "Requests refused by the per-key rate limit (429).",
		}),
	}
	reg.MustRegister(m.requests, m.duration, m.authRefusals, m.rateLimited)
	return m
}

// routeLabel is the route template of a request ("/adminv1/xy2admininfo",
// "/tdmv1/order"), "unmatched" for a path no route knows.
func routeLabel(c echo.Context) string {
	p := c.Path()
	if p == "" || p == "/*" {
		return "unmatched"
	}
	return p
}

// observe records one answered request.
func (m *Metrics) observe(c echo.Context, status int, took time.Duration) {
	if m == nil {
		return
	}
	route, method := routeLabel(c), c.Request().Method
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(route, method).Observe(took.Seconds())
}

// Refused records an authentication refusal (keys.Observer: give the
// server's Metrics to the key gate, keys.GateOptions.Observer).
func (m *Metrics) Refused(reason string) {
	if m != nil {
		m.authRefusals.WithLabelValues(reason).Inc()
	}
}

// RateLimited records a rate-limit refusal (keys.Observer).
func (m *Metrics) RateLimited() {
	if m != nil {
		m.rateLimited.Inc()
	}
}
