package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/geosvc/geosvc/internal/testenv"
	"github.com/geosvc/geosvc/keys"
)

// startRedisCluster starts a Redis Cluster of three masters on local ports
// (redis-server --cluster-enabled, joined by redis-cli --cluster create)
// and returns its REDIS_URL. The servers stop when the test ends.
func startRedisCluster(t *testing.T) string {
	t.Helper()
	server, err := exec.LookPath("redis-server")
	if err != nil {
		testenv.Skip(t, "no redis-server on PATH: the Cluster test needs it (Debian: apt-get install redis-server)")
	}
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		testenv.Skip(t, "no redis-cli on PATH: the Cluster test needs it")
	}
	dir := t.TempDir()
	var addrs []string
	for i := range 3 {
		addr, err := freeAddr()
		if err != nil {
			t.Fatal(err)
		}
		_, port, _ := strings.Cut(addr, ":")
		node := filepath.Join(dir, fmt.Sprint(i))
		if err := os.Mkdir(node, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(server, "--port", port, "--bind", "127.0.0.1", "--cluster-enabled", "yes",
			"--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000", "--dir", node,
			"--save", "", "--appendonly", "no", "--protected-mode", "no", "--logfile", filepath.Join(node, "log"))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		addrs = append(addrs, addr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, a := range addrs {
		c := redis.NewClient(&redis.Options{Addr: a})
		for c.Ping(ctx).Err() != nil {
			if ctx.Err() != nil {
				t.Fatalf("redis-server %s did not start", a)
			}
			time.Sleep(20 * time.Millisecond)
		}
		c.Close()
	}
	out, err := exec.CommandContext(ctx, cli, append(append([]string{"--cluster", "create"}, addrs...), "--cluster-replicas", "0", "--cluster-yes")...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	for _, a := range addrs {
		c := redis.NewClient(&redis.Options{Addr: a})
		for {
			info, _ := c.ClusterInfo(ctx).Result()
			if strings.Contains(info, "cluster_state:ok") {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("the cluster did not come up: %s", info)
			}
			time.Sleep(50 * time.Millisecond)
		}
		c.Close()
	}
	return "redis+cluster://" + addrs[0] + "?addr=" + addrs[1] + "&addr=" + addrs[2]
}

// TestRedisCluster runs geosvc on a 3-node Redis Cluster: keys made and
// revoked with the keys command, usage counted, the rate limit of a plan,
// SOAP location sets made, filled, searched and deleted, and a matrix job
// from order to result. Every multi-key operation must stay in one hash
// slot, or the Cluster answers CROSSSLOT.
func TestRedisCluster(t *testing.T) {
	if testing.Short() && !testenv.Required() {
		t.Skip("-short: skipping the Redis Cluster test")
	}
	url := startRedisCluster(t)
	rdb, err := redisClient(url)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	if _, ok := rdb.(*redis.ClusterClient); !ok {
		t.Fatalf("%s gives a %T, want a cluster client", url, rdb)
	}
	const demo = "gs_cluster_test_key_0123456789abcdefgh"
	t.Setenv("GEOSVC_KEY_PREFIX", "cl:")
	base := inProcessServersOn(t, roundaboutBundle(t), demo, url).api
	t.Chdir(t.TempDir()) // the keys command: the embedded configuration

	get := func(path, key string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		req.Header.Set("x-api-key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	keysCmd := func(args ...string) string {
		t.Helper()
		var code int
		out, errOut := capture(t, func() { code = run(append([]string{"keys"}, args...), os.Stderr) })
		if code != 0 {
			t.Fatalf("geosvc keys %v: exit %d: %s", args, code, errOut)
		}
		return out
	}

	// Keys: made by the keys command, used, counted, revoked.
	var created struct {
		ID     string `json:"id"`
		APIKey string `json:"api_key"`
	}
	if err := json.Unmarshal([]byte(keysCmd("create", "--owner", "cluster", "--plan", "free", "--json")), &created); err != nil {
		t.Fatal(err)
	}
	const route = "/routev1/route?from=10.002,0.000&to=10.004,0.002"
	if st := get(route, created.APIKey); st != http.StatusOK {
		t.Fatalf("a new key: %d", st)
	}
	// The free plan's bucket holds 30 requests: the 31st of a burst waits.
	limited := 0
	for range 40 {
		if get(route, created.APIKey) == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited == 0 {
		t.Error("40 requests at once passed the free plan's rate limit (burst 30)")
	}
	store := keys.NewStore(rdb, keys.Options{Prefix: "cl:"})
	ctx := context.Background()
	deadline := time.Now().Add(10 * time.Second) // usage is written as requests end
	for {
		days, err := store.Usage(ctx, created.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(days) == 1 && days[0].Counts[keys.RouteV1] == int64(41-limited) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("usage %+v, want %d routev1 requests", days, 41-limited)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if out := keysCmd("revoke", created.ID); !strings.Contains(out, "revoked") {
		t.Errorf("keys revoke: %q", out)
	}
	for deadline := time.Now().Add(10 * time.Second); get(route, created.APIKey) != http.StatusForbidden; {
		if time.Now().After(deadline) {
			t.Fatal("the revoked key still works")
		}
		time.Sleep(100 * time.Millisecond)
	}

	// Location sets over SOAP.
	soapCall := func(op string) string {
		t.Helper()
		body := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` + op + `</soap:Body></soap:Envelope>`
		resp, err := http.Post(base+"/soap", "text/xml; charset=utf-8", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("SOAP %.60s: %d %s", op, resp.StatusCode, b)
		}
		return string(b)
	}
	const ns = ` xmlns="http://geosvc.org/LocationService/"`
	var set struct {
		Key string `xml:"Body>LocationCreateSetSimpleResponse>SubscriptionKey"`
	}
	out := soapCall(`<LocationCreateSetSimple` + ns + `><LocationSetName>depots</LocationSetName><SubscriptionKey>` + demo + `</SubscriptionKey></LocationCreateSetSimple>`)
	if err := xml.Unmarshal([]byte(out), &set); err != nil || set.Key == "" {
		t.Fatalf("LocationCreateSetSimple: %v %s", err, out)
	}
	out = soapCall(`<LocationUpload` + ns + `><Locations><LocationInput fid="a"><Name>depot a</Name><X>10.002</X><Y>0.000</Y><Encoding>EPGS4326</Encoding></LocationInput>` +
		`<LocationInput fid="b"><Name>depot b</Name><X>10.004</X><Y>0.002</Y><Encoding>EPGS4326</Encoding></LocationInput></Locations>` +
		`<ClearBeforeUpload>true</ClearBeforeUpload><NameOrSubscriptionKey>` + set.Key + `</NameOrSubscriptionKey></LocationUpload>`)
	if !strings.Contains(out, "<Uploaded>2</Uploaded>") {
		t.Errorf("LocationUpload: %s", out)
	}
	out = soapCall(`<LocationDeleteSetSimple` + ns + `><LocationSetName>depots</LocationSetName><SubscriptionKey>` + demo + `</SubscriptionKey></LocationDeleteSetSimple>`)
	if !strings.Contains(out, "<CreateDBStatus>true</CreateDBStatus>") {
		t.Errorf("LocationDeleteSetSimple: %s", out)
	}

	// A matrix job, from order to result (a long-poll fetch).
	var order struct {
		UUID string `json:"uuid"`
	}
	if st, _ := apiCall(t, http.MethodPost, base+"/tdmv1/order", demo, map[string]any{
		"result": []string{"duration"}, "origin_addresses": []string{"10.002,0.000"}, "destination_addresses": []string{"10.004,0.002", "10.000,0.002"},
	}, &order); st != http.StatusOK {
		t.Fatalf("order: %d", st)
	}
	var job struct {
		Status   string    `json:"status"`
		Duration [][]int64 `json:"duration"`
	}
	for deadline := time.Now().Add(30 * time.Second); job.Status != "Finished"; {
		if st, _ := apiCall(t, http.MethodPost, base+"/tdmv1/fetch", demo, map[string]any{"uuid": order.UUID, "wait": 5}, &job); st != http.StatusOK || time.Now().After(deadline) {
			t.Fatalf("fetch: %d %+v", st, job)
		}
	}
	// The roundabout fixture's hand-computed routes: S2 -> E2 55 s, S2 -> W2 111 s.
	if len(job.Duration) != 1 || len(job.Duration[0]) != 2 || job.Duration[0][0] != 55 || job.Duration[0][1] != 111 {
		t.Errorf("matrix %v, want [[55 111]]", job.Duration)
	}
}
