package keys

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// TrialPolicy says whether and to whom free-trial keys are issued.
type TrialPolicy struct {
	// Enabled issues trial keys at all.
	Enabled bool
	// PerIPPerDay caps the trials issued to one client address (an IPv6
	// address counts by its /64) per UTC day; 0 means no cap.
	PerIPPerDay int
	// EmailDomains, when not empty, are the only e-mail domains (and
	// their subdomains) a trial is issued to.
	EmailDomains []string
}

// TrialRequest is an application for a free trial.
type TrialRequest struct {
	// Name, Email and Company describe the applicant; Email is required.
	Name, Email, Company string
	// IP is the client's address ("" when unknown: no per-address cap).
	IP string
}

// Errors of IssueTrial.
var (
	// ErrTrialsOff: this server issues no trial keys.
	ErrTrialsOff = errors.New("this server does not issue free-trial keys")
	// ErrTrialEmail: the e-mail address already has an active trial.
	ErrTrialEmail = errors.New("this e-mail address already has an active free trial")
)

// TrialInputError is an application that cannot be accepted as given (a
// missing or malformed e-mail address, a domain not allowed).
type TrialInputError struct {
	// Field is the JSON name of the input: "email", "name", "company".
	Field string
	// Reason says what is wrong.
	Reason string
}

// Error says which input is wrong and why.
func (e *TrialInputError) Error() string { return e.Field + ": " + e.Reason }

// TrialIPLimit is the refusal of an address that has had its trials for
// the day.
type TrialIPLimit struct {
	// Limit is TrialPolicy.PerIPPerDay.
	Limit int
	// Resets is the next UTC midnight.
	Resets time.Time
}

// Error says the address had its trials today.
func (e *TrialIPLimit) Error() string {
	return fmt.Sprintf("this address has had its %d free trials today; retry after %s", e.Limit, e.Resets.UTC().Format(time.RFC3339))
}

// maxTrialField bounds the name and company of a trial application.
const maxTrialField = 200

// NormalizeEmail returns the address a trial is counted under: trimmed and
// lower-cased, without a "+tag" in the local part, and for Gmail without
// dots in the local part (googlemail.com counts as gmail.com). It refuses
// what is not a plain address (no display name, one "@", a dotted domain).
func NormalizeEmail(email string) (string, error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return "", &TrialInputError{"email", "an e-mail address is required"}
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || a.Name != "" || len(email) > 254 {
		return "", &TrialInputError{"email", fmt.Sprintf("%q is not an e-mail address like name@example.com", email)}
	}
	local, domain, _ := strings.Cut(strings.ToLower(a.Address), "@")
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") || strings.HasPrefix(domain, "[") {
		return "", &TrialInputError{"email", fmt.Sprintf("%q: the domain must be a host name like example.com", email)}
	}
	if i := strings.IndexByte(local, '+'); i > 0 {
		local = local[:i]
	}
	if domain == "googlemail.com" {
		domain = "gmail.com"
	}
	if domain == "gmail.com" {
		local = strings.ReplaceAll(local, ".", "")
	}
	return local + "@" + domain, nil
}

// domainAllowed reports whether the (normalised) address's domain is one
// of allowed or a subdomain of one.
func domainAllowed(email string, allowed []string) bool {
	if len(allowed) == 0 {
		return true
	}
	_, domain, _ := strings.Cut(email, "@")
	for _, a := range allowed {
		a = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(a), "@"))
		if a != "" && (domain == a || strings.HasSuffix(domain, "."+a)) {
			return true
		}
	}
	return false
}

// clientNet is the address a trial is counted under: an IPv4 address, or
// an IPv6 address's /64 (one customer's network).
func clientNet(ip string) string {
	p := net.ParseIP(strings.TrimSpace(ip))
	if p == nil {
		return ""
	}
	if v4 := p.To4(); v4 != nil {
		return v4.String()
	}
	return p.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// trialKeys are the Redis keys of trial reservations; "{trial}" is a hash
// tag: the reservation script touches two of them in one Redis Cluster
// slot.
func (s *Store) trialEmailKey(email string) string {
	sum := sha256.Sum256([]byte(email))
	return s.prefix + "trial:{trial}:email:" + hex.EncodeToString(sum[:])
}

func (s *Store) trialIPKey(ip string, day time.Time) string {
	return s.prefix + "trial:{trial}:ip:" + ip + ":" + day.UTC().Format(dayFormat)
}

// reserveTrial claims a trial for an e-mail address and counts it against
// the client's address, atomically. KEYS: the e-mail marker, the address's
// counter of the day (absent: no cap). ARGV: the marker's value, its
// lifetime (ms), the per-address cap, the counter's lifetime (ms). It
// returns 0 (reserved), 1 (the e-mail has an active trial) or 2 (the
// address has had its trials today).
var reserveTrial = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 1
end
if KEYS[2] then
  local n = tonumber(redis.call('GET', KEYS[2]) or '0')
  if n >= tonumber(ARGV[3]) then
    return 2
  end
  redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 0
`)

// IssueTrial issues a free-trial key on the trial plan, expiring after the
// plan's trial_days, under the store's TrialPolicy: one active trial per
// e-mail address (normalised by NormalizeEmail), at most PerIPPerDay per
// client address and UTC day, only to EmailDomains when set. It returns
// ErrTrialsOff, ErrTrialEmail, a *TrialInputError or a *TrialIPLimit when
// the application is refused. The key's value is returned once, never
// stored.
func (s *Store) IssueTrial(ctx context.Context, r TrialRequest) (Key, string, error) {
	plan := s.plans.Get(s.plans.TrialPlan)
	if !s.trials.Enabled || plan == nil {
		return Key{}, "", ErrTrialsOff
	}
	email, err := NormalizeEmail(r.Email)
	if err != nil {
		return Key{}, "", err
	}
	name, company := strings.TrimSpace(r.Name), strings.TrimSpace(r.Company)
	if len(name) > maxTrialField || len(company) > maxTrialField {
		return Key{}, "", &TrialInputError{"name", fmt.Sprintf("name and company take at most %d characters", maxTrialField)}
	}
	if !domainAllowed(email, s.trials.EmailDomains) {
		return Key{}, "", &TrialInputError{"email", "free trials are offered to addresses of " + strings.Join(s.trials.EmailDomains, ", ") + " only"}
	}
	now := s.now().UTC()
	expires := now.AddDate(0, 0, plan.TrialDays)
	ks := []string{s.trialEmailKey(email)}
	ipNet := clientNet(r.IP)
	_, midnight := periodBounds(PeriodDay, now)
	if ipNet != "" && s.trials.PerIPPerDay > 0 {
		ks = append(ks, s.trialIPKey(ipNet, now))
	}
	// The marker holds "pending" until the key exists, then its id.
	res, err := reserveTrial.Run(ctx, s.rdb, ks, "pending", expires.Sub(now).Milliseconds(), s.trials.PerIPPerDay,
		midnight.Add(quotaKeep).Sub(now).Milliseconds()).Int64()
	if err != nil {
		return Key{}, "", fmt.Errorf("keys: trial: %w", err)
	}
	switch res {
	case 1:
		return Key{}, "", ErrTrialEmail
	case 2:
		return Key{}, "", &TrialIPLimit{Limit: s.trials.PerIPPerDay, Resets: midnight}
	}
	owner := "trial: " + email
	if company != "" {
		owner += " (" + company + ")"
	}
	if name != "" {
		owner = "trial: " + name + " <" + email + ">"
		if company != "" {
			owner += " (" + company + ")"
		}
	}
	k, plain, err := s.Create(ctx, CreateOptions{Owner: owner, Plan: plan.Name, Expires: expires, Email: email})
	if err != nil {
		// Give the e-mail back (the address's count stays: it was tried).
		s.rdb.Del(context.WithoutCancel(ctx), ks[0])
		return Key{}, "", err
	}
	if err := s.rdb.Set(ctx, ks[0], k.ID, expires.Sub(now)).Err(); err != nil {
		return Key{}, "", fmt.Errorf("keys: trial: %w", err)
	}
	return k, plain, nil
}
