package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/keys"
)

// capture runs f with os.Stdout and os.Stderr sent to buffers.
func capture(t *testing.T, f func()) (stdout, stderr string) {
	t.Helper()
	oldOut, oldErr := os.Stdout, os.Stderr
	ro, wo, _ := os.Pipe()
	re, we, _ := os.Pipe()
	os.Stdout, os.Stderr = wo, we
	var bo, be bytes.Buffer
	done := make(chan struct{}, 2)
	go func() { io.Copy(&bo, ro); done <- struct{}{} }()
	go func() { io.Copy(&be, re); done <- struct{}{} }()
	f()
	wo.Close()
	we.Close()
	<-done
	<-done
	os.Stdout, os.Stderr = oldOut, oldErr
	return bo.String(), be.String()
}

func TestHelpOnEverySubcommand(t *testing.T) {
	names := []string{"keys create", "keys list", "keys revoke", "keys usage"}
	for n := range commands {
		names = append(names, n)
	}
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			var code int
			_, errOut := capture(t, func() { code = run(append(strings.Fields(n), "--help"), os.Stderr) })
			if code != 0 || !strings.Contains(errOut, "Usage: geosvc "+n) {
				t.Errorf("geosvc %s --help: exit %d, output %q", n, code, errOut)
			}
		})
	}
}

func TestDispatchErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
	}{
		{nil, 2},
		{[]string{"help"}, 0},
		{[]string{"nope"}, 2},
		{[]string{"serve", "--no-such-flag"}, 2},
		{[]string{"build"}, 2},
		{[]string{"keys", "frobnicate"}, 2},
		{[]string{"keys", "revoke"}, 2},
	}
	for _, tt := range tests {
		var code int
		capture(t, func() { code = run(tt.args, os.Stderr) })
		if code != tt.code {
			t.Errorf("geosvc %v: exit %d, want %d", tt.args, code, tt.code)
		}
	}
}

// bundleVersionRE is the shape of a bundle version: layout.routing, then
// the layers' formats.
var bundleVersionRE = regexp.MustCompile(`^\d+\.\d+\+([a-z0-9]+/\d+,)*[a-z0-9]+/\d+$`)

func TestVersionBundle(t *testing.T) {
	out, _ := capture(t, func() { run([]string{"version", "--bundle"}, os.Stderr) })
	if got := strings.TrimSpace(out); got != bundle.Version() || !bundleVersionRE.MatchString(got) {
		t.Errorf("version --bundle = %q, want %q", got, bundle.Version())
	}
}

func TestKeysCommands(t *testing.T) {
	mr := miniredis.RunT(t)
	t.Setenv("REDIS_URL", "redis://"+mr.Addr())
	t.Setenv("GEOSVC_KEY_PREFIX", "cli:")
	t.Chdir(t.TempDir()) // no local configs/geosvc.yaml: the embedded one

	var code int
	out, errOut := capture(t, func() {
		code = run([]string{"keys", "create", "--owner", "acme", "--interfaces", "tdmv1", "--json"}, os.Stderr)
	})
	if code != 0 {
		t.Fatalf("keys create: exit %d: %s", code, errOut)
	}
	var created struct {
		ID         string   `json:"id"`
		Owner      string   `json:"owner"`
		APIKey     string   `json:"api_key"`
		Interfaces []string `json:"interfaces"`
	}
	if err := json.Unmarshal([]byte(out), &created); err != nil {
		t.Fatalf("keys create output %q: %v", out, err)
	}
	if created.Owner != "acme" || len(created.APIKey) != 43 || len(created.Interfaces) != 1 {
		t.Errorf("created = %+v", created)
	}
	store := keys.NewStore(redis.NewClient(&redis.Options{Addr: mr.Addr()}), keys.Options{Prefix: "cli:"})
	ctx := context.Background()
	if k, err := store.Authenticate(ctx, created.APIKey); err != nil || k.ID != created.ID {
		t.Fatalf("Authenticate(created) = %+v, %v", k, err)
	}
	if err := store.AddUsage(ctx, created.ID, "tdmv1", 3); err != nil {
		t.Fatal(err)
	}

	steps := []struct {
		args []string
		want string
	}{
		{[]string{"keys", "list"}, created.ID + "  acme"},
		{[]string{"keys", "usage", created.ID, "--days", "1"}, "tdmv1   3"},
		{[]string{"keys", "revoke", created.ID}, "revoked " + created.ID},
		{[]string{"keys", "list"}, "revoked  internal (default)"},
		{[]string{"keys", "set-plan", created.ID, "starter"}, "is on plan starter"},
		{[]string{"keys", "statement", created.ID, "--csv"}, ",tdmv1,3,0,3,0,USD"},
		{[]string{"keys", "plans"}, "trial"},
	}
	for _, st := range steps {
		out, errOut := capture(t, func() { code = run(st.args, os.Stderr) })
		if code != 0 || !strings.Contains(out, st.want) {
			t.Errorf("geosvc %v: exit %d, stdout %q (stderr %q), want it to contain %q", st.args, code, out, errOut, st.want)
		}
	}
	if _, err := store.Authenticate(ctx, created.APIKey); err == nil {
		t.Errorf("revoked key still authenticates")
	}
	capture(t, func() { code = run([]string{"keys", "revoke", "no-such-id"}, os.Stderr) })
	if code != 1 {
		t.Errorf("keys revoke unknown id: exit %d, want 1", code)
	}
}

func TestKeysNeedRedisURL(t *testing.T) {
	t.Setenv("REDIS_URL", "")
	t.Chdir(t.TempDir())
	var code int
	_, errOut := capture(t, func() { code = run([]string{"keys", "list"}, os.Stderr) })
	if code != 1 || !strings.Contains(errOut, "REDIS_URL is not set") {
		t.Errorf("keys list without Redis: exit %d, %q", code, errOut)
	}
}

// TestServeWithoutBundleAnnouncesNothing: a data directory without a
// bundle is a start-up error, reported before the URL or a demo key is
// printed.
func TestServeWithoutBundleAnnouncesNothing(t *testing.T) {
	t.Setenv("REDIS_URL", "")
	var code int
	out, errOut := capture(t, func() {
		code = run([]string{"serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--admin-addr", ""}, os.Stderr)
	})
	if code != 1 || out != "" || !strings.Contains(errOut, "no data bundle in") {
		t.Errorf("serve on an empty directory: exit %d, stdout %q, stderr %q; want exit 1, nothing announced, the reason", code, out, errOut)
	}
}

// TestKeysRevokeNeedsAnID: revoke and usage without a key id say what is
// missing.
func TestKeysRevokeNeedsAnID(t *testing.T) {
	for _, sub := range []string{"revoke", "usage"} {
		var code int
		_, errOut := capture(t, func() { code = run([]string{"keys", sub}, os.Stderr) })
		if code != 2 || !strings.Contains(errOut, "the key id is missing") {
			t.Errorf("keys %s: exit %d, %q", sub, code, errOut)
		}
	}
}
