package api

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/stripe/stripe-go/v82/webhook"

	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/internal/testenv"
	"github.com/geosvc/geosvc/keys"
)

// stripeMockModule is the pinned stripe-mock the Stripe tests run.
const stripeMockModule = "github.com/stripe/stripe-mock@v0.203.0"

// keysTestPlans are the plans of the account tests.
const keysTestPlans = `
currency: USD
default_plan: internal
trial_plan: trial
cancel_plan: free
sales_contact: sales@example.test
plans:
  internal: {hidden: true}
  trial:
    trial_days: 14
    interfaces: [zip4v1, soap]
    metrics:
      zip4v1: {quota: {day: 100}}
  free:
    metrics:
      zip4v1: {quota: {day: 3}}
  capped:
    hidden: true
    metrics:
      zip4v1: {quota: {day: 30}}
  slow:
    hidden: true
    rate_limit: {rate: 1, burst: 1}
  pro:
    title: Pro
    price_month: 2900
    metrics:
      zip4v1: {included: {month: 10}, quota: {month: 100000}, price: {amount: 50, per: 1000}}
      tdmv1.cells: {included: {month: 4}, quota: {day: 10}, price: {amount: 3, per: 1}}
`

// keysFixture is a server with the account interface and test routes of
// two interfaces (zip4v1, tdmv1) on a test Redis.
type keysFixture struct {
	srv   *Server
	store *keys.Store
	redis *redistest.Redis
	mu    sync.Mutex
	now   time.Time
}

func (f *keysFixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *keysFixture) advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

// newKeysFixture builds the server; opts may set Stripe and trials.
func newKeysFixture(t *testing.T, trials keys.TrialPolicy, stripe StripeOptions, tweak func(*Options)) *keysFixture {
	t.Helper()
	plans, err := keys.ParsePlans([]byte(keysTestPlans))
	if err != nil {
		t.Fatal(err)
	}
	f := &keysFixture{redis: redistest.New(t), now: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)}
	f.store = keys.NewStore(f.redis.Client, keys.Options{Prefix: f.redis.Prefix, Now: f.clock, Plans: plans, Trials: trials})
	opts := Options{Logger: slog.New(slog.DiscardHandler), Redis: f.redis.Client, Gate: keys.NewGate(f.store, keys.GateOptions{}), Now: f.clock}
	if tweak != nil {
		tweak(&opts)
	}
	f.srv = newTestRoutesServer(opts)
	RegisterKeys(f.srv, KeysOptions{Store: f.store, Stripe: stripe, Logger: opts.Logger})
	return f
}

// newTestRoutesServer is a server with GET /zip4v1/echo (200),
// GET /zip4v1/fail (500) and POST /tdmv1/cells (takes the cells of its
// ?n= from the tdmv1.cells quota, as the order handler does).
func newTestRoutesServer(opts Options) *Server {
	srv := New(opts)
	g := srv.Protected()
	g.GET("/zip4v1/echo", func(c echo.Context) error { return c.JSON(http.StatusOK, map[string]string{"ok": keyIDOf(c)}) })
	g.GET("/zip4v1/fail", func(c echo.Context) error { return httpError(http.StatusInternalServerError, "failed") })
	g.POST("/tdmv1/cells", func(c echo.Context) error {
		var n int64
		fmt.Sscan(c.QueryParam("n"), &n)
		if err := takeQuota(c, keys.TDMV1+keys.CellsSuffix, n); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, map[string]int64{"cells": n})
	})
	return srv
}

// call sends a request to h.
func call(h http.Handler, method, target, key, body string, hdr ...string) *httptest.ResponseRecorder {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	if body != "" {
		req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	}
	if key != "" {
		req.Header.Set(headerAPIKey, key)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func (f *keysFixture) newKey(t *testing.T, plan string) (keys.Key, string) {
	t.Helper()
	k, plain, err := f.store.Create(context.Background(), keys.CreateOptions{Owner: "test " + plan, Plan: plan})
	if err != nil {
		t.Fatal(err)
	}
	return k, plain
}

const forbiddenBody = `{"message":"Forbidden"}`

// TestQuotaAcrossTwoProcesses: two API processes (two servers, two HTTP
// listeners) on one Redis share a key's daily quota: together they let
// exactly the quota through, never more, and refuse the rest with the
// quota's 429.
func TestQuotaAcrossTwoProcesses(t *testing.T) {
	f := newKeysFixture(t, keys.TrialPolicy{}, StripeOptions{}, nil)
	other := newTestRoutesServer(Options{Logger: slog.New(slog.DiscardHandler), Redis: f.redis.Client,
		Gate: keys.NewGate(keys.NewStore(f.redis.Client, keys.Options{Prefix: f.redis.Prefix, Now: f.clock, Plans: f.store.Plans()}), keys.GateOptions{}), Now: f.clock})
	a, b := httptest.NewServer(f.srv), httptest.NewServer(other)
	defer a.Close()
	defer b.Close()
	_, key := f.newKey(t, "capped")
	// A failing request takes nothing from the quota.
	if rec := call(f.srv, http.MethodGet, "/zip4v1/fail", key, ""); rec.Code != 500 {
		t.Fatalf("fail route: %d", rec.Code)
	}
	var mu sync.Mutex
	codes := map[int]int{}
	var quota429 []byte
	var retryAfter string
	var wg sync.WaitGroup
	for w := range 6 {
		base := a.URL
		if w%2 == 1 {
			base = b.URL
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				req, _ := http.NewRequest(http.MethodGet, base+"/zip4v1/echo", nil)
				req.Header.Set(headerAPIKey, key)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				mu.Lock()
				codes[resp.StatusCode]++
				if resp.StatusCode == 429 {
					quota429, retryAfter = body, resp.Header.Get("Retry-After")
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if codes[200] != 30 || codes[429] != 30 {
		t.Fatalf("answers %v: want exactly the quota, 30, let through by the two processes together", codes)
	}
	var qb struct {
		Message string              `json:"message"`
		Quota   *keys.QuotaExceeded `json:"quota"`
	}
	if err := json.Unmarshal(quota429, &qb); err != nil || qb.Quota == nil {
		t.Fatalf("quota 429 body %s: %v", quota429, err)
	}
	q := qb.Quota
	if q.Metric != "zip4v1" || q.Period != "day" || q.Limit != 30 || q.Used != 30 || q.Plan != "capped" || q.Requested != 1 ||
		!q.Resets.Equal(time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)) || !strings.Contains(qb.Message, "resets 2026-11-21T00:00:00Z") {
		t.Errorf("quota 429 body %s", quota429)
	}
	if retryAfter != "43200" {
		t.Errorf("Retry-After %q, want the 12 hours to midnight UTC", retryAfter)
	}
	// The next day the quota is whole again.
	f.advance(12 * time.Hour)
	if rec := call(f.srv, http.MethodGet, "/zip4v1/echo", key, ""); rec.Code != 200 {
		t.Errorf("after the reset: %d %s", rec.Code, rec.Body)
	}
}

// TestQuota429VersusRateLimit429: the two refusals differ: the rate
// limit's body is the message alone, the quota's names the quota.
func TestQuota429VersusRateLimit429(t *testing.T) {
	f := newKeysFixture(t, keys.TrialPolicy{}, StripeOptions{}, nil)
	_, slow := f.newKey(t, "slow")
	if rec := call(f.srv, http.MethodGet, "/zip4v1/echo", slow, ""); rec.Code != 200 {
		t.Fatalf("first: %d", rec.Code)
	}
	rec := call(f.srv, http.MethodGet, "/zip4v1/echo", slow, "")
	if rec.Code != 429 || strings.TrimSpace(rec.Body.String()) != `{"message":"rate limit exceeded: retry later"}` || rec.Header().Get("Retry-After") != "1" {
		t.Errorf("rate limit: %d %s Retry-After %q", rec.Code, rec.Body, rec.Header().Get("Retry-After"))
	}
	_, free := f.newKey(t, "free")
	for range 3 {
		call(f.srv, http.MethodGet, "/zip4v1/echo", free, "")
	}
	rec = call(f.srv, http.MethodGet, "/zip4v1/echo", free, "")
	var body map[string]any
	json.Unmarshal(rec.Body.Bytes(), &body)
	if rec.Code != 429 || body["quota"] == nil || !strings.HasPrefix(body["message"].(string), "quota exceeded: zip4v1 requests, 3 per day on plan free") {
		t.Errorf("quota: %d %s", rec.Code, rec.Body)
	}
	// Matrix cells: an order larger than what is left is refused whole
	// and takes nothing.
	_, pro := f.newKey(t, "pro")
	if rec := call(f.srv, http.MethodPost, "/tdmv1/cells?n=6", pro, "{}"); rec.Code != 200 {
		t.Fatalf("6 cells: %d %s", rec.Code, rec.Body)
	}
	rec = call(f.srv, http.MethodPost, "/tdmv1/cells?n=5", pro, "{}")
	json.Unmarshal(rec.Body.Bytes(), &body)
	q, _ := body["quota"].(map[string]any)
	if rec.Code != 429 || q["metric"] != "tdmv1.cells" || q["requested"] != 5.0 || q["used"] != 6.0 || q["limit"] != 10.0 ||
		!strings.Contains(body["message"].(string), "this request needs 5, 4 are left") {
		t.Errorf("cells over quota: %d %s", rec.Code, rec.Body)
	}
	if rec := call(f.srv, http.MethodPost, "/tdmv1/cells?n=4", pro, "{}"); rec.Code != 200 {
		t.Errorf("the 4 cells left: %d %s", rec.Code, rec.Body)
	}
}

// TestTrialOverHTTP: a trial key is issued once per e-mail address and a
// few times per client address, works on its plan's interfaces, and is
// Forbidden like any bad key once it expires.
func TestTrialOverHTTP(t *testing.T) {
	f := newKeysFixture(t, keys.TrialPolicy{Enabled: true, PerIPPerDay: 2}, StripeOptions{}, nil)
	rec := call(f.srv, http.MethodPost, trialPath, "", `{"name":"Ann","email":"ann@example.com","company":"Acme"}`)
	if rec.Code != 201 {
		t.Fatalf("trial: %d %s", rec.Code, rec.Body)
	}
	var a trialAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil || a.APIKey == "" || a.Plan != "trial" || !a.Expires.Equal(f.clock().AddDate(0, 0, 14)) {
		t.Fatalf("trial answer %s", rec.Body)
	}
	if rec := call(f.srv, http.MethodGet, "/zip4v1/echo", a.APIKey, ""); rec.Code != 200 {
		t.Errorf("trial key on zip4v1: %d", rec.Code)
	}
	if rec := call(f.srv, http.MethodPost, "/tdmv1/cells?n=1", a.APIKey, "{}"); rec.Code != 403 || strings.TrimSpace(rec.Body.String()) != forbiddenBody {
		t.Errorf("trial key on tdmv1 (sales only): %d %s", rec.Code, rec.Body)
	}
	if rec := call(f.srv, http.MethodPost, trialPath, "", `{"email":"ANN+again@example.com"}`); rec.Code != 409 {
		t.Errorf("duplicate e-mail: %d %s", rec.Code, rec.Body)
	}
	if rec := call(f.srv, http.MethodPost, trialPath, "", `{"email":"bob@example.com"}`); rec.Code != 201 {
		t.Errorf("second address: %d %s", rec.Code, rec.Body)
	}
	rec = call(f.srv, http.MethodPost, trialPath, "", `{"email":"carl@example.com"}`)
	if rec.Code != 429 || rec.Header().Get("Retry-After") != "43200" || !strings.Contains(rec.Body.String(), "free trials today") {
		t.Errorf("third trial from one address: %d %s %q", rec.Code, rec.Body, rec.Header().Get("Retry-After"))
	}
	for body, want := range map[string]int{`{"email":"nope"}`: 400, `{"email":"a@example.com","phone":"1"}`: 400, `[1]`: 400} {
		if rec := call(f.srv, http.MethodPost, trialPath, "", body); rec.Code != want {
			t.Errorf("%s: %d %s, want %d", body, rec.Code, rec.Body, want)
		}
	}
	f.advance(14 * 24 * time.Hour)
	if rec := call(f.srv, http.MethodGet, "/zip4v1/echo", a.APIKey, ""); rec.Code != 403 || strings.TrimSpace(rec.Body.String()) != forbiddenBody {
		t.Errorf("expired trial key: %d %s", rec.Code, rec.Body)
	}
	if rec := call(f.srv, http.MethodGet, usagePath, a.APIKey, ""); rec.Code != 403 || strings.TrimSpace(rec.Body.String()) != forbiddenBody {
		t.Errorf("expired trial key's statement: %d %s", rec.Code, rec.Body)
	}
	// Trials off: 404, and the page says so.
	off := newKeysFixture(t, keys.TrialPolicy{}, StripeOptions{}, nil)
	if rec := call(off.srv, http.MethodPost, trialPath, "", `{"email":"ann@example.com"}`); rec.Code != 404 {
		t.Errorf("trials off: %d %s", rec.Code, rec.Body)
	}
	if rec := call(off.srv, http.MethodGet, signupPath, "", ""); rec.Code != 200 || !strings.Contains(rec.Body.String(), "does not offer free trials") {
		t.Errorf("signup page, trials off: %d", rec.Code)
	}
	if rec := call(f.srv, http.MethodGet, signupPath, "", ""); rec.Code != 200 || !strings.Contains(rec.Body.String(), `fetch("keysv1/trial"`) {
		t.Errorf("signup page: %d", rec.Code)
	}
}

// TestStatementsEqualTraffic: the statement of GET /keysv1/usage (JSON and
// CSV) counts exactly the successful requests sent through the server
// (batched usage, flushed), prices them by the plan, and leaves out the
// failures and the statement calls themselves.
func TestStatementsEqualTraffic(t *testing.T) {
	f := newKeysFixture(t, keys.TrialPolicy{}, StripeOptions{}, func(o *Options) { o.Gate = keys.NewGate(o.Gate.Store(), keys.GateOptions{UsageFlush: time.Hour}) })
	k, key := f.newKey(t, "pro")
	const ok, failed = 37, 5
	for range ok {
		if rec := call(f.srv, http.MethodGet, "/zip4v1/echo", key, ""); rec.Code != 200 {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
	for range failed {
		call(f.srv, http.MethodGet, "/zip4v1/fail", key, "")
	}
	call(f.srv, http.MethodPost, "/tdmv1/cells?n=3", key, "{}")
	if err := f.store.AddCells(context.Background(), k.ID, "tdmv1", 3); err != nil { // as the order handler counts them
		t.Fatal(err)
	}
	call(f.srv, http.MethodGet, usagePath, key, "")
	if err := f.srv.FlushUsage(context.Background()); err != nil {
		t.Fatal(err)
	}
	rec := call(f.srv, http.MethodGet, usagePath+"?month=2026-11", key, "")
	var st keys.Statement
	if err := json.Unmarshal(rec.Body.Bytes(), &st); rec.Code != 200 || err != nil {
		t.Fatalf("statement: %d %s", rec.Code, rec.Body)
	}
	totals := map[string]keys.MetricTotal{}
	for _, m := range st.Metrics {
		totals[m.Metric] = m
	}
	// zip4v1: 37 requests, 10 included, 27 billable at 0.50 per 1000 ->
	// 2 cents (rounded up); tdmv1: 1 request; cells: 3, all included.
	if z := totals["zip4v1"]; z.Count != ok || z.Included != 10 || z.Billable != 27 || z.Amount != 2 {
		t.Errorf("zip4v1 total %+v", z)
	}
	if totals["tdmv1"].Count != 1 || totals["tdmv1.cells"].Count != 3 || totals["tdmv1.cells"].Billable != 0 || len(totals) != 3 {
		t.Errorf("totals %+v", totals)
	}
	if st.BaseFee != 2900 || st.Total != 2902 || st.Currency != "USD" || st.Plan != "pro" || st.KeyID != k.ID {
		t.Errorf("statement %+v", st)
	}
	// The statement equals the counters the middleware wrote.
	days, err := f.store.Usage(context.Background(), k.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c := days[0].Counts; c["zip4v1"] != ok || c["tdmv1"] != 1 || c["keysv1"] != 0 {
		t.Errorf("usage counters %v", c)
	}
	rec = call(f.srv, http.MethodGet, usagePath+"?format=csv", key, "")
	rows, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil || rec.Code != 200 || !strings.HasPrefix(rec.Header().Get(echo.HeaderContentType), "text/csv") {
		t.Fatalf("CSV: %d %v %s", rec.Code, err, rec.Body)
	}
	if got := strings.Join(rows[len(rows)-1], ","); got != "2026-11,,total,,,,2902,USD" {
		t.Errorf("CSV total row %q", got)
	}
	for target, want := range map[string]int{usagePath + "?month=2026-13": 400, usagePath + "?month=2027-01": 400, usagePath + "?format=xml": 400, usagePath + "?month=2026-10": 200} {
		if rec := call(f.srv, http.MethodGet, target, key, ""); rec.Code != want {
			t.Errorf("%s: %d, want %d", target, rec.Code, want)
		}
	}
}

// startStripeMock runs the pinned stripe-mock on free loopback ports and
// returns its HTTP base URL. Without it (no network, no Go toolchain) the
// test is skipped, and under CI=true it fails.
func startStripeMock(t *testing.T) string {
	t.Helper()
	if testing.Short() && !testenv.Required() {
		t.Skip("-short: not starting stripe-mock")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		testenv.Skip(t, "stripe-mock: no go command: %v", err)
	}
	// Its own process group: go run's child is stopped with it.
	cmd := exec.Command(goBin, "run", stripeMockModule, "-http-addr", "127.0.0.1:", "-https-addr", "127.0.0.1:")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		testenv.Skip(t, "stripe-mock: %v", err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	addr := make(chan string, 1)
	var log strings.Builder
	go func() {
		re := regexp.MustCompile(`Listening for HTTP at address: (\S+)`)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		close(addr)
	}()
	select {
	case a, ok := <-addr:
		if !ok {
			testenv.Skip(t, "stripe-mock (%s) did not start", stripeMockModule)
		}
		return "http://" + a
	case <-time.After(5 * time.Minute):
		testenv.Skip(t, "stripe-mock (%s) did not start within 5 minutes", stripeMockModule)
	}
	return ""
}

const testWebhookSecret = "whsec_geosvc_test"

// signedEvent returns a Stripe event of type typ around object, signed
// with secret by the library's test helper.
func signedEvent(t *testing.T, id, typ, secret string, object map[string]any) ([]byte, string) {
	t.Helper()
	payload, err := json.Marshal(map[string]any{
		"id": id, "object": "event", "type": typ, "api_version": "2025-08-27.basil", "created": time.Now().Unix(),
		"livemode": false, "pending_webhooks": 1, "data": map[string]any{"object": object},
	})
	if err != nil {
		t.Fatal(err)
	}
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret})
	return payload, sp.Header
}

func postEvent(h http.Handler, payload []byte, header string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, webhookPath, strings.NewReader(string(payload)))
	req.Header.Set(echo.HeaderContentType, "application/json; charset=utf-8")
	req.Header.Set("Stripe-Signature", header)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestStripeCheckoutAndWebhook: a checkout against stripe-mock creates a
// pending key and a Checkout Session; the signed completion event
// activates the key on its plan; a replayed event changes nothing; a
// forged signature is refused with 400 and changes nothing; the end of
// the subscription moves the key to the cancel plan.
func TestStripeCheckoutAndWebhook(t *testing.T) {
	mock := startStripeMock(t)
	f := newKeysFixture(t, keys.TrialPolicy{Enabled: true}, StripeOptions{SecretKey: "sk_test_123", WebhookSecret: testWebhookSecret, APIURL: mock}, nil)
	d := loadOpenAPI(t)
	rec := call(f.srv, http.MethodPost, checkoutPath, "", `{"plan":"pro","email":"buyer@example.com"}`)
	d.check(t, http.MethodPost, checkoutPath, rec)
	var co checkoutAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &co); rec.Code != 200 || err != nil || co.SessionID == "" || co.CheckoutURL == "" || co.APIKey == "" || co.KeyID == "" {
		t.Fatalf("checkout: %d %s", rec.Code, rec.Body)
	}
	// Pending payment: Forbidden like any bad key.
	if rec := call(f.srv, http.MethodGet, "/zip4v1/echo", co.APIKey, ""); rec.Code != 403 || strings.TrimSpace(rec.Body.String()) != forbiddenBody {
		t.Errorf("unpaid key: %d %s", rec.Code, rec.Body)
	}
	completed := map[string]any{"id": co.SessionID, "object": "checkout.session", "client_reference_id": co.KeyID, "mode": "subscription",
		"payment_status": "paid", "status": "complete", "customer": "cus_test1", "subscription": "sub_test1",
		"metadata": map[string]string{"key_id": co.KeyID, "plan": "pro"}, "customer_details": map[string]any{"email": "buyer@example.com"}}
	payload, header := signedEvent(t, "evt_completed_1", "checkout.session.completed", testWebhookSecret, completed)

	// A forged signature: 400, nothing changed, the event not spent.
	forged, forgedHeader := signedEvent(t, "evt_completed_1", "checkout.session.completed", "whsec_wrong", completed)
	rec = postEvent(f.srv, forged, forgedHeader)
	d.check(t, http.MethodPost, webhookPath, rec)
	if rec.Code != 400 {
		t.Errorf("forged signature: %d %s", rec.Code, rec.Body)
	}
	if rec := postEvent(f.srv, payload, ""); rec.Code != 400 {
		t.Errorf("no signature: %d %s", rec.Code, rec.Body)
	}
	tampered := []byte(strings.Replace(string(payload), `"pro"`, `"capped"`, 1))
	if rec := postEvent(f.srv, tampered, header); rec.Code != 400 {
		t.Errorf("tampered payload: %d %s", rec.Code, rec.Body)
	}
	if k, _ := f.store.Get(context.Background(), co.KeyID); k.Status != keys.Pending {
		t.Fatalf("after refused events the key is %+v", k)
	}

	rec = postEvent(f.srv, payload, header)
	d.check(t, http.MethodPost, webhookPath, rec)
	if rec.Code != 200 || strings.Contains(rec.Body.String(), "duplicate") {
		t.Fatalf("completion: %d %s", rec.Code, rec.Body)
	}
	k, err := f.store.Get(context.Background(), co.KeyID)
	if err != nil || k.Status != keys.Active || k.Plan != "pro" || !k.Expires.IsZero() || k.StripeSubscription != "sub_test1" || k.StripeCustomer != "cus_test1" {
		t.Fatalf("paid key %+v %v", k, err)
	}
	if rec := call(f.srv, http.MethodGet, "/zip4v1/echo", co.APIKey, ""); rec.Code != 200 {
		t.Errorf("paid key: %d %s", rec.Code, rec.Body)
	}

	// The subscription ends: the key falls back to the cancel plan.
	deleted := map[string]any{"id": "sub_test1", "object": "subscription", "status": "canceled", "metadata": map[string]string{"key_id": co.KeyID, "plan": "pro"}}
	dp, dh := signedEvent(t, "evt_deleted_1", "customer.subscription.deleted", testWebhookSecret, deleted)
	if rec := postEvent(f.srv, dp, dh); rec.Code != 200 {
		t.Fatalf("subscription deleted: %d %s", rec.Code, rec.Body)
	}
	if k, _ := f.store.Get(context.Background(), co.KeyID); k.Plan != "free" || k.Status != keys.Active {
		t.Errorf("after the subscription ended: %+v", k)
	}
	// The completion replayed (Stripe retries, or an attacker replays a
	// captured event within its tolerance): acknowledged, no effect.
	rec = postEvent(f.srv, payload, header)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"duplicate":true`) {
		t.Errorf("replay: %d %s", rec.Code, rec.Body)
	}
	if k, _ := f.store.Get(context.Background(), co.KeyID); k.Plan != "free" {
		t.Errorf("a replayed completion upgraded the key again: %+v", k)
	}

	// An upgrade of an existing (trial) key: no new key in the answer.
	tr := call(f.srv, http.MethodPost, trialPath, "", `{"email":"trial@example.com"}`)
	var ta trialAnswer
	json.Unmarshal(tr.Body.Bytes(), &ta)
	rec = call(f.srv, http.MethodPost, checkoutPath, ta.APIKey, `{"plan":"pro"}`)
	var up checkoutAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &up); rec.Code != 200 || err != nil || up.APIKey != "" || up.KeyID != ta.KeyID || up.SessionID == "" {
		t.Errorf("upgrade checkout: %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct {
		key, body string
		want      int
	}{
		{"", `{"plan":"enterprise","email":"a@example.com"}`, 400},
		{"", `{"plan":"pro"}`, 400},
		{strings.Repeat("w", 43), `{"plan":"pro"}`, 403},
	} {
		rec := call(f.srv, http.MethodPost, checkoutPath, tc.key, tc.body)
		if rec.Code != tc.want {
			t.Errorf("checkout %s: %d %s, want %d", tc.body, rec.Code, rec.Body, tc.want)
		}
		if tc.want == 403 && strings.TrimSpace(rec.Body.String()) != forbiddenBody {
			t.Errorf("bad key at checkout: %s", rec.Body)
		}
	}
	if rec := call(f.srv, http.MethodGet, pricingPath, "", ""); rec.Code != 200 || !strings.Contains(rec.Body.String(), `data-plan="pro"`) ||
		!strings.Contains(rec.Body.String(), "29.00 USD per month") {
		t.Errorf("pricing page with a provider: %d %s", rec.Code, rec.Body)
	}
}

// TestPricingWithoutProvider: with no payment provider the pricing page
// lists the plans and names the sales contact, and checkout and webhook
// answer 404.
func TestPricingWithoutProvider(t *testing.T) {
	f := newKeysFixture(t, keys.TrialPolicy{}, StripeOptions{}, nil)
	rec := call(f.srv, http.MethodGet, pricingPath, "", "")
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, "sales@example.test") || strings.Contains(body, "<form") || !strings.Contains(body, "29.00 USD per month") ||
		strings.Contains(body, "plan-capped") || !strings.HasPrefix(rec.Header().Get(echo.HeaderContentType), "text/html") {
		t.Errorf("pricing page: %d %s", rec.Code, body)
	}
	if rec := call(f.srv, http.MethodPost, checkoutPath, "", `{"plan":"pro","email":"a@example.com"}`); rec.Code != 404 {
		t.Errorf("checkout without provider: %d %s", rec.Code, rec.Body)
	}
	if rec := postEvent(f.srv, []byte(`{}`), "t=1,v1=00"); rec.Code != 404 {
		t.Errorf("webhook without provider: %d %s", rec.Code, rec.Body)
	}
}
