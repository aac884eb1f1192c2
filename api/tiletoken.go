package api

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// tokenSigner issues and checks tile tokens: "<key id>.<expiry, Unix
// seconds>.<HMAC-SHA256 of both, base64url>", signed with a secret that
// every API process on one Redis shares (created once, at random, under
// the key store's prefix). A token proves which key asked for it and
// until when; the key itself is checked again on every tile, so a revoked
// key's tokens stop working as soon as its revocation is seen.
type tokenSigner struct {
	rdb       redis.UniversalClient
	secretKey string
	ttl       time.Duration
	now       func() time.Time

	mu     sync.Mutex
	secret []byte
}

func newTokenSigner(rdb redis.UniversalClient, secretKey string, ttl time.Duration, now func() time.Time) *tokenSigner {
	return &tokenSigner{rdb: rdb, secretKey: secretKey, ttl: ttl, now: now}
}

// errBadToken is any token that does not verify.
var errBadToken = errors.New("bad tile token")

// key returns the shared secret, creating it when no process has.
func (t *tokenSigner) key(ctx context.Context) ([]byte, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.secret != nil {
		return t.secret, nil
	}
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, err
	}
	if err := t.rdb.SetNX(ctx, t.secretKey, hex.EncodeToString(fresh), 0).Err(); err != nil {
		return nil, fmt.Errorf("tile token secret: %w", err)
	}
	v, err := t.rdb.Get(ctx, t.secretKey).Result()
	if err != nil {
		return nil, fmt.Errorf("tile token secret: %w", err)
	}
	b, err := hex.DecodeString(v)
	if err != nil || len(b) < 16 {
		return nil, fmt.Errorf("tile token secret at %s is not 16+ hex bytes", t.secretKey)
	}
	t.secret = b
	return b, nil
}

func sign(secret []byte, payload string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// issue returns a token for key id and when it expires.
func (t *tokenSigner) issue(ctx context.Context, id string) (string, time.Time, error) {
	secret, err := t.key(ctx)
	if err != nil {
		return "", time.Time{}, err
	}
	exp := t.now().Add(t.ttl).Truncate(time.Second).UTC()
	payload := id + "." + strconv.FormatInt(exp.Unix(), 10)
	return payload + "." + sign(secret, payload), exp, nil
}

// verify returns the key id a token was issued to; errBadToken when it is
// malformed, forged or expired, another error when the secret cannot be
// read.
func (t *tokenSigner) verify(ctx context.Context, tok string) (string, error) {
	if len(tok) > 200 {
		return "", errBadToken
	}
	i := strings.LastIndexByte(tok, '.')
	if i < 0 {
		return "", errBadToken
	}
	payload, sig := tok[:i], tok[i+1:]
	j := strings.LastIndexByte(payload, '.')
	if j <= 0 {
		return "", errBadToken
	}
	id, expS := payload[:j], payload[j+1:]
	exp, err := strconv.ParseInt(expS, 10, 64)
	if err != nil || !t.now().Before(time.Unix(exp, 0)) {
		return "", errBadToken
	}
	secret, err := t.key(ctx)
	if err != nil {
		return "", err
	}
	if !hmac.Equal([]byte(sig), []byte(sign(secret, payload))) {
		return "", errBadToken
	}
	return id, nil
}
