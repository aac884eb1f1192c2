package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"github.com/geosvc/geosvc/keys"
)

// StripeOptions configures the payment provider, Stripe (Checkout Sessions
// and webhooks). The secrets come from the configuration (environment),
// never from the repository.
type StripeOptions struct {
	// SecretKey is the API secret key (sk_test_... in test mode); empty:
	// plans are not sold online.
	SecretKey string
	// WebhookSecret is the webhook endpoint's signing secret (whsec_...);
	// empty: events are refused (404).
	WebhookSecret string
	// APIURL replaces Stripe's API address (tests point it at stripe-mock);
	// empty: Stripe's.
	APIURL string
	// HTTPClient makes the API calls; nil: a client with a 30 s timeout.
	HTTPClient *http.Client
}

// stripeClient creates Checkout Sessions and verifies events.
type stripeClient struct {
	sc *stripe.Client
}

func newStripeClient(o StripeOptions) *stripeClient {
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	cfg := &stripe.BackendConfig{
		HTTPClient:        hc,
		LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
		MaxNetworkRetries: stripe.Int64(2),
	}
	if o.APIURL != "" {
		cfg.URL = stripe.String(o.APIURL)
	}
	return &stripeClient{sc: stripe.NewClient(o.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(cfg)))}
}

// checkoutParams is what a Checkout Session sells, to whom.
type checkoutParams struct {
	plan     *keys.Plan
	currency string
	key      keys.Key
	email    string
	// base is the service's base URL, for the return pages.
	base string
}

// checkoutSession is a created session: its id and the page to pay on.
type checkoutSession struct {
	id, url string
}

// createCheckout creates a subscription Checkout Session for the plan. The
// key id and plan travel in the session's and the subscription's metadata
// (and the key id as client_reference_id), so that the completion and the
// end of the subscription find the key.
func (s *stripeClient) createCheckout(ctx context.Context, p checkoutParams) (checkoutSession, error) {
	meta := map[string]string{"key_id": p.key.ID, "plan": p.plan.Name}
	item := &stripe.CheckoutSessionCreateLineItemParams{Quantity: stripe.Int64(1)}
	if p.plan.StripePrice != "" {
		item.Price = stripe.String(p.plan.StripePrice)
	} else {
		item.PriceData = &stripe.CheckoutSessionCreateLineItemPriceDataParams{
			Currency:    stripe.String(strings.ToLower(p.currency)),
			UnitAmount:  stripe.Int64(p.plan.PriceMonth),
			Recurring:   &stripe.CheckoutSessionCreateLineItemPriceDataRecurringParams{Interval: stripe.String("month")},
			ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String("geosvc " + p.plan.Title)},
		}
	}
	params := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModeSubscription)),
		LineItems:         []*stripe.CheckoutSessionCreateLineItemParams{item},
		SuccessURL:        stripe.String(p.base + pricingPath + "?checkout=success"),
		CancelURL:         stripe.String(p.base + pricingPath + "?checkout=cancelled"),
		ClientReferenceID: stripe.String(p.key.ID),
		Metadata:          meta,
		SubscriptionData:  &stripe.CheckoutSessionCreateSubscriptionDataParams{Metadata: meta},
	}
	switch {
	case p.key.StripeCustomer != "":
		params.Customer = stripe.String(p.key.StripeCustomer)
	case p.email != "":
		params.CustomerEmail = stripe.String(p.email)
	}
	sess, err := s.sc.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return checkoutSession{}, err
	}
	return checkoutSession{id: sess.ID, url: sess.URL}, nil
}

// stripeEvent is a verified event: its id, type and object.
type stripeEvent struct {
	ID, Type string
	Object   json.RawMessage
}

// verify checks the Stripe-Signature header of payload with the endpoint
// secret (and the timestamp's 5-minute tolerance) and returns the event.
// The event's API version is not required to match the library's: geosvc
// reads only a few long-stable fields of the objects (stripeSession,
// stripeSubscription).
func (s *stripeClient) verify(payload []byte, header, secret string) (stripeEvent, error) {
	ev, err := webhook.ConstructEventWithOptions(payload, header, secret, webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
	if err != nil {
		return stripeEvent{}, err
	}
	out := stripeEvent{ID: ev.ID, Type: string(ev.Type)}
	if ev.Data != nil {
		out.Object = ev.Data.Raw
	}
	return out, nil
}

// stripeRef is an object reference: an id, or the expanded object.
type stripeRef struct{ ID string }

// UnmarshalJSON reads "id" or {"id": ...}.
func (r *stripeRef) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &r.ID)
	}
	var o struct {
		ID string `json:"id"`
	}
	if string(b) == "null" {
		return nil
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	r.ID = o.ID
	return nil
}

// stripeSession is the part of a Checkout Session geosvc reads.
type stripeSession struct {
	ID                string            `json:"id"`
	ClientReferenceID string            `json:"client_reference_id"`
	Metadata          map[string]string `json:"metadata"`
	PaymentStatus     string            `json:"payment_status"`
	Customer          stripeRef         `json:"customer"`
	Subscription      stripeRef         `json:"subscription"`
	CustomerDetails   struct {
		Email string `json:"email"`
	} `json:"customer_details"`
}

// stripeSubscription is the part of a subscription geosvc reads.
type stripeSubscription struct {
	ID       string            `json:"id"`
	Metadata map[string]string `json:"metadata"`
}
