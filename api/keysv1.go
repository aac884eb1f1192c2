package api

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/keys"
)

// keysInterface is the account interface: a key's own usage statement,
// free trials and purchases.
const keysInterface = keys.KeysV1

// Paths of the account interface and its pages.
const (
	signupPath   = "/signup"
	pricingPath  = "/pricing"
	trialPath    = "/" + keysInterface + "/trial"
	checkoutPath = "/" + keysInterface + "/checkout"
	webhookPath  = "/" + keysInterface + "/webhook/stripe"
	usagePath    = "/" + keysInterface + "/usage"
)

// checkoutKeyTTL is how long a key created by a checkout waits for its
// payment (a Checkout Session expires after 24 hours too).
const checkoutKeyTTL = 24 * time.Hour

//go:embed pages/*.html
var pagesFS embed.FS

var pages = template.Must(template.ParseFS(pagesFS, "pages/*.html"))

// KeysOptions configures the account interface.
type KeysOptions struct {
	// Store issues trial keys, applies payments and computes statements;
	// its plans are the ones sold.
	Store *keys.Store
	// PublicURL is the service's base URL for the payment provider's
	// return pages; empty: the request's scheme and Host.
	PublicURL string
	// Stripe is the payment provider; without a secret key plans are
	// not sold online (the pricing page names the sales contact).
	Stripe StripeOptions
	// Logger receives errors; default slog.Default().
	Logger *slog.Logger
}

// RegisterKeys adds the account interface to srv: the pages GET /signup
// and GET /pricing, POST /keysv1/trial (a free-trial key),
// POST /keysv1/checkout (buy a plan through Stripe Checkout),
// POST /keysv1/webhook/stripe (the provider's events) as public routes,
// and GET /keysv1/usage (the key's own statement) behind the key.
func RegisterKeys(srv *Server, opts KeysOptions) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	h := &keysHandler{opts: opts, store: opts.Store, log: opts.Logger}
	if opts.Stripe.SecretKey != "" {
		h.stripe = newStripeClient(opts.Stripe)
	}
	srv.Public(http.MethodGet, signupPath, h.signup)
	srv.Public(http.MethodGet, pricingPath, h.pricing)
	srv.Public(http.MethodPost, trialPath, h.trial)
	srv.Public(http.MethodPost, checkoutPath, h.checkout)
	srv.Public(http.MethodPost, webhookPath, h.webhook)
	srv.Protected().GET(usagePath, h.usage)
}

// keysHandler serves the account interface.
type keysHandler struct {
	opts   KeysOptions
	store  *keys.Store
	stripe *stripeClient // nil: no payment provider
	log    *slog.Logger
}

// render writes a page.
func (h *keysHandler) render(c echo.Context, name string, data any) error {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, name, data); err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.HTMLBlob(http.StatusOK, b.Bytes())
}

// signup serves the free-trial form.
func (h *keysHandler) signup(c echo.Context) error {
	data := struct {
		Enabled bool
		Plan    *keys.Plan
		Sales   string
	}{}
	ps := h.store.Plans()
	data.Sales = ps.SalesContact
	data.Plan = ps.Get(ps.TrialPlan)
	data.Enabled = h.store.Trials().Enabled && data.Plan != nil
	return h.render(c, "signup.html", data)
}

// pricingPlan is one plan as the pricing page shows it.
type pricingPlan struct {
	Name, Title, Description, Price, Interfaces, Rate string
	SalesOnly, Metrics                                []string
	Purchasable                                       bool
}

// pricing serves the plans and their prices.
func (h *keysHandler) pricing(c echo.Context) error {
	ps := h.store.Plans()
	data := struct {
		Plans    []pricingPlan
		Online   bool
		Sales    string
		Trial    *keys.Plan
		Checkout string
	}{Online: h.stripe != nil, Sales: ps.SalesContact, Checkout: c.QueryParam("checkout")}
	if h.store.Trials().Enabled {
		data.Trial = ps.Get(ps.TrialPlan)
	}
	for _, p := range ps.List() {
		if p.Hidden {
			continue
		}
		pp := pricingPlan{Name: p.Name, Title: p.Title, Description: p.Description, Purchasable: p.Purchasable(), Interfaces: "all", Rate: "the server's"}
		switch {
		case p.TrialDays > 0:
			pp.Price = fmt.Sprintf("free for %d days", p.TrialDays)
		case p.PriceMonth == 0:
			pp.Price = "free"
		default:
			pp.Price = keys.FormatAmount(p.PriceMonth, ps.Currency) + " per month"
		}
		if len(p.Interfaces) > 0 {
			pp.Interfaces = strings.Join(p.Interfaces, ", ")
			for _, i := range keys.Known() {
				if i != keys.KeysV1 && !p.Allows(i) {
					pp.SalesOnly = append(pp.SalesOnly, i)
				}
			}
		}
		if rl := p.RateLimit; rl != nil {
			pp.Rate = "no limit"
			if rl.Rate > 0 {
				pp.Rate = strconv.FormatFloat(rl.Rate, 'f', -1, 64) + " requests per second"
			}
		}
		for _, name := range p.MetricNames() {
			m := p.Metric(name)
			var parts []string
			if a := m.Included.String(); a != "" {
				parts = append(parts, a+" included")
			}
			if m.Billed() {
				parts = append(parts, "then "+keys.FormatAmount(m.Price.Amount, ps.Currency)+" per "+strconv.FormatInt(max(m.Price.Per, 1), 10))
			}
			if q := m.Quota.String(); q != "" {
				parts = append(parts, "at most "+q)
			}
			what := name + " requests"
			if name == keys.TDMV1+keys.CellsSuffix {
				what = "tdmv1 matrix cells"
			}
			pp.Metrics = append(pp.Metrics, what+": "+strings.Join(parts, ", "))
		}
		data.Plans = append(data.Plans, pp)
	}
	return h.render(c, "pricing.html", data)
}

// trialRequest is the body of POST /keysv1/trial.
type trialRequest struct {
	Name    string `json:"name"`
	Email   string `json:"email"`
	Company string `json:"company"`
}

// trialAnswer is the answer to an accepted trial application.
type trialAnswer struct {
	KeyID   string    `json:"key_id"`
	APIKey  string    `json:"api_key"`
	Plan    string    `json:"plan"`
	Expires time.Time `json:"expires"`
}

// decodeJSONBody reads a JSON object body into v (unknown fields are
// refused), or returns the 415 or 400 to answer.
func decodeJSONBody(c echo.Context, v any) error {
	if err := checkContentType(c.Request()); err != nil {
		return err
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return err // over the limit: 413
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, newValidationError("request", []fieldError{{Field: "body", Reason: bodyReason(err)}}))
	}
	return nil
}

// trial issues a free-trial key.
func (h *keysHandler) trial(c echo.Context) error {
	if !h.store.Trials().Enabled {
		return httpError(http.StatusNotFound, "this server does not offer free trials: ask "+h.contact()+" for a key")
	}
	var req trialRequest
	if err := decodeJSONBody(c, &req); err != nil {
		return err
	}
	k, plain, err := h.store.IssueTrial(c.Request().Context(), keys.TrialRequest{Name: req.Name, Email: req.Email, Company: req.Company, IP: c.RealIP()})
	var in *keys.TrialInputError
	var lim *keys.TrialIPLimit
	switch {
	case errors.As(err, &in):
		return echo.NewHTTPError(http.StatusBadRequest, newValidationError("trial application", []fieldError{{Field: in.Field, Reason: in.Reason}}))
	case errors.Is(err, keys.ErrTrialEmail):
		return httpError(http.StatusConflict, err.Error())
	case errors.As(err, &lim):
		c.Response().Header().Set("Retry-After", strconv.FormatInt(int64(max(time.Second, lim.Resets.Sub(h.store.Now()))/time.Second), 10))
		return httpError(http.StatusTooManyRequests, lim.Error())
	case errors.Is(err, keys.ErrTrialsOff):
		return httpError(http.StatusNotFound, "this server does not offer free trials: ask "+h.contact()+" for a key")
	case err != nil:
		h.log.Error("trial key not issued", slog.String("request_id", requestIDOf(c)), slog.Any("error", err))
		return httpError(http.StatusServiceUnavailable, "the key store is unavailable, retry later")
	}
	h.log.Info("trial key issued", slog.String("request_id", requestIDOf(c)), slog.String("key_id", k.ID), slog.String("ip", c.RealIP()))
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, trialAnswer{KeyID: k.ID, APIKey: plain, Plan: k.Plan, Expires: k.Expires})
}

// contact names whom to ask for a key.
func (h *keysHandler) contact() string {
	if s := h.store.Plans().SalesContact; s != "" {
		return s
	}
	return "the administrator"
}

// usage answers the key's statement of a month (default: this month) as
// JSON, or as CSV with format=csv or Accept: text/csv.
func (h *keysHandler) usage(c echo.Context) error {
	k, _ := keyOf(c)
	month := h.store.Now().UTC()
	if m := c.QueryParam("month"); m != "" {
		t, err := keys.ParseMonth(m)
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, newValidationError("request", []fieldError{{Field: "month", Reason: "want YYYY-MM, e.g. 2026-11"}}))
		}
		month = t
	}
	format := c.QueryParam("format")
	if format == "" && strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "text/csv") {
		format = "csv"
	}
	if format != "" && format != "json" && format != "csv" {
		return echo.NewHTTPError(http.StatusBadRequest, newValidationError("request", []fieldError{{Field: "format", Reason: "json or csv"}}))
	}
	if y, mo, _ := month.Date(); time.Date(y, mo, 1, 0, 0, 0, 0, time.UTC).After(h.store.Now()) {
		return echo.NewHTTPError(http.StatusBadRequest, newValidationError("request", []fieldError{{Field: "month", Reason: "is in the future"}}))
	}
	st, err := h.store.Statement(c.Request().Context(), k, month)
	if err != nil {
		h.log.Error("statement failed", slog.String("request_id", requestIDOf(c)), slog.Any("error", err))
		return httpError(http.StatusServiceUnavailable, "the key store is unavailable, retry later")
	}
	if format == "csv" {
		var b bytes.Buffer
		if err := st.WriteCSV(&b); err != nil {
			return err
		}
		c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="geosvc-`+st.Month+`.csv"`)
		return c.Blob(http.StatusOK, "text/csv; charset=utf-8", b.Bytes())
	}
	return c.JSON(http.StatusOK, st)
}

// checkoutRequest is the body of POST /keysv1/checkout; the key to upgrade,
// if any, comes in x-api-key.
type checkoutRequest struct {
	Plan  string `json:"plan"`
	Email string `json:"email"`
}

// checkoutAnswer says where to pay.
type checkoutAnswer struct {
	SessionID   string `json:"session_id"`
	CheckoutURL string `json:"checkout_url"`
	KeyID       string `json:"key_id"`
	// APIKey is the new key's value, when the checkout created one
	// (shown once; it works once the payment completes).
	APIKey string `json:"api_key,omitempty"`
}

// checkout starts buying a plan: for the key in x-api-key (an upgrade), or
// for a new key created pending payment for the e-mail given.
func (h *keysHandler) checkout(c echo.Context) error {
	if h.stripe == nil {
		return httpError(http.StatusNotFound, "plans are not sold online here: contact "+h.contact())
	}
	var req checkoutRequest
	if err := decodeJSONBody(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	plan := h.store.Plans().Get(req.Plan)
	if plan == nil || !plan.Purchasable() {
		var names []string
		for _, p := range h.store.Plans().List() {
			if p.Purchasable() {
				names = append(names, p.Name)
			}
		}
		return echo.NewHTTPError(http.StatusBadRequest, newValidationError("checkout", []fieldError{{Field: "plan",
			Reason: fmt.Sprintf("%q is not a plan sold online; the plans are %s (others through %s)", req.Plan, strings.Join(names, ", "), h.contact())}}))
	}
	var k keys.Key
	var plain string
	vals := c.Request().Header.Values(headerAPIKey)
	switch {
	case len(vals) > 1:
		return echo.NewHTTPError(http.StatusForbidden, forbidden.Message)
	case len(vals) == 1:
		var err error
		k, err = h.store.Authenticate(ctx, vals[0])
		// An expired trial key may be bought back to life: only the key's
		// own refusals other than expiry are Forbidden.
		if errors.Is(err, keys.ErrExpired) {
			err = nil
		}
		switch {
		case keys.Refused(err):
			return echo.NewHTTPError(http.StatusForbidden, forbidden.Message)
		case err != nil:
			return httpError(http.StatusServiceUnavailable, "the key store is unavailable, retry later")
		}
	default:
		email, err := keys.NormalizeEmail(req.Email)
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, newValidationError("checkout", []fieldError{{Field: "email",
				Reason: "give the e-mail address for a new key, or your key in x-api-key to upgrade it"}}))
		}
		k, plain, err = h.store.Create(ctx, keys.CreateOptions{Owner: "checkout: " + email, Plan: plan.Name, Email: email,
			Pending: true, Expires: h.store.Now().Add(checkoutKeyTTL)})
		if err != nil {
			h.log.Error("checkout key not created", slog.String("request_id", requestIDOf(c)), slog.Any("error", err))
			return httpError(http.StatusServiceUnavailable, "the key store is unavailable, retry later")
		}
	}
	email := k.Email
	if email == "" {
		email = strings.TrimSpace(req.Email)
	}
	sess, err := h.stripe.createCheckout(ctx, checkoutParams{
		plan: plan, currency: h.store.Plans().Currency, key: k, email: email, base: h.baseURL(c),
	})
	if err != nil {
		h.log.Error("checkout session not created", slog.String("request_id", requestIDOf(c)), slog.String("key_id", k.ID), slog.Any("error", err))
		return httpError(http.StatusBadGateway, "the payment provider is unavailable, retry later")
	}
	h.log.Info("checkout started", slog.String("request_id", requestIDOf(c)), slog.String("key_id", k.ID), slog.String("plan", plan.Name), slog.String("session", sess.id))
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, checkoutAnswer{SessionID: sess.id, CheckoutURL: sess.url, KeyID: k.ID, APIKey: plain})
}

// baseURL is PublicURL, or the request's scheme and host.
func (h *keysHandler) baseURL(c echo.Context) string {
	if u := strings.TrimSuffix(h.opts.PublicURL, "/"); u != "" {
		return u
	}
	return c.Scheme() + "://" + c.Request().Host
}

// webhookAnswer acknowledges an event.
type webhookAnswer struct {
	Received  bool `json:"received"`
	Duplicate bool `json:"duplicate,omitempty"`
}

// webhook receives the payment provider's events: the signature is checked
// with the endpoint secret (400 and nothing changed when it fails), each
// event is processed once (a replay answers 200 and does nothing), and a
// failure answers 500 so that the provider retries.
func (h *keysHandler) webhook(c echo.Context) error {
	if h.stripe == nil || h.opts.Stripe.WebhookSecret == "" {
		return httpError(http.StatusNotFound, "no payment provider is configured")
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return err
	}
	ev, err := h.stripe.verify(body, c.Request().Header.Get("Stripe-Signature"), h.opts.Stripe.WebhookSecret)
	if err != nil {
		h.log.Warn("payment event refused", slog.String("request_id", requestIDOf(c)), slog.Any("error", err))
		return httpError(http.StatusBadRequest, "invalid payment event: "+err.Error())
	}
	ctx := c.Request().Context()
	first, err := h.store.ClaimEvent(ctx, ev.ID)
	if err != nil {
		return httpError(http.StatusServiceUnavailable, "the key store is unavailable, retry later")
	}
	if !first {
		return c.JSON(http.StatusOK, webhookAnswer{Received: true, Duplicate: true})
	}
	if err := h.apply(c, ev); err != nil {
		h.store.ReleaseEvent(ctx, ev.ID)
		h.log.Error("payment event not applied", slog.String("request_id", requestIDOf(c)), slog.String("event", ev.ID), slog.String("type", ev.Type), slog.Any("error", err))
		return httpError(http.StatusInternalServerError, "the event could not be applied, retry later")
	}
	if err := h.store.FinishEvent(ctx, ev.ID); err != nil {
		h.log.Warn("payment event not recorded as done", slog.String("event", ev.ID), slog.Any("error", err))
	}
	return c.JSON(http.StatusOK, webhookAnswer{Received: true})
}

// paidStatuses are the payment statuses of a completed checkout that pay
// for the key (an asynchronous payment reports later, with
// checkout.session.async_payment_succeeded).
var paidStatuses = []string{"paid", "no_payment_required"}

// apply carries out one verified event; unknown keys and other event
// types are logged and acknowledged.
func (h *keysHandler) apply(c echo.Context, ev stripeEvent) error {
	ctx := c.Request().Context()
	log := h.log.With(slog.String("request_id", requestIDOf(c)), slog.String("event", ev.ID), slog.String("type", ev.Type))
	switch ev.Type {
	case "checkout.session.completed", "checkout.session.async_payment_succeeded":
		var s stripeSession
		if err := json.Unmarshal(ev.Object, &s); err != nil {
			return fmt.Errorf("checkout session: %w", err)
		}
		if !slices.Contains(paidStatuses, s.PaymentStatus) {
			log.Info("checkout completed, payment not yet confirmed", slog.String("payment_status", s.PaymentStatus))
			return nil
		}
		id := s.Metadata["key_id"]
		if id == "" {
			id = s.ClientReferenceID
		}
		k, err := h.store.ApplyPayment(ctx, id, keys.Payment{Plan: s.Metadata["plan"], Customer: s.Customer.ID, Subscription: s.Subscription.ID, Email: s.CustomerDetails.Email})
		if errors.Is(err, keys.ErrNotFound) || (err != nil && h.store.Plans().Get(s.Metadata["plan"]) == nil) {
			log.Warn("checkout for an unknown key or plan ignored", slog.String("key_id", id), slog.String("plan", s.Metadata["plan"]), slog.Any("error", err))
			return nil
		}
		if err != nil {
			return err
		}
		log.Info("key paid for", slog.String("key_id", k.ID), slog.String("plan", k.Plan), slog.String("subscription", k.StripeSubscription))
	case "customer.subscription.deleted":
		var sub stripeSubscription
		if err := json.Unmarshal(ev.Object, &sub); err != nil {
			return fmt.Errorf("subscription: %w", err)
		}
		k, err := h.store.EndSubscription(ctx, sub.ID, sub.Metadata["key_id"])
		if errors.Is(err, keys.ErrNotFound) {
			log.Warn("end of an unknown subscription ignored", slog.String("subscription", sub.ID))
			return nil
		}
		if err != nil {
			return err
		}
		log.Info("subscription ended", slog.String("key_id", k.ID), slog.String("plan", k.Plan), slog.String("status", string(k.Status)))
	default:
		log.Debug("payment event ignored")
	}
	return nil
}
