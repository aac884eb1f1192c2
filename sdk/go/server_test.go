package geosvc_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests run against a real `geosvc serve` on the Delaware bundle,
// started once for the package by testServer: the geosvc binary is built
// from this repository (../..), the bundle is data/delaware-latest, the
// directory `make run` and `make data` use, built or rebuilt there only
// when missing or stale (`geosvc build --if-stale`: another bundle
// version, another source file). GEOSVC_TEST_BIN and GEOSVC_TEST_DATA name
// a binary and a bundle to use instead. The server has the embedded Redis,
// the demo key demoKey on the unlimited plan, and free trials on the plan
// "slow" (one request a second, a burst of one) for the retry tests.

// repoRoot is the server's repository, holding this module in sdk/go.
const repoRoot = "../.."

// matrixRetention is how long the server keeps a matrix job and its
// result (tdm.retention), short so that TestMatrixExpired sees one expire.
const matrixRetention = 5 * time.Second

// demoKey is the server's demo key (GEOSVC_DEMO_KEY).
const demoKey = "gs_sdk_test_demo_key_0123456789abcdefghij"

// testPlans is the server's plan file: the demo key's unlimited plan and
// the trial plan "slow".
const testPlans = `currency: USD
default_plan: internal
trial_plan: slow
plans:
  internal:
    title: Internal
    hidden: true
  slow:
    title: SDK tests (one request a second)
    trial_days: 1
    rate_limit: {rate: 1, burst: 1}
`

var (
	serverOnce sync.Once
	serverURL  string
	serverErr  error
	serverStop func()
	tmpDir     string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "geosvc-sdk-go-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tmpDir = dir
	code := m.Run()
	if serverStop != nil {
		serverStop()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// required reports whether a missing prerequisite fails the test (CI=true,
// as .ci/run sets it) rather than skipping it; the server's
// internal/testenv in this module's own terms.
func required() bool {
	v := os.Getenv("CI")
	return v == "true" || v == "1"
}

// need skips t with the reason, or fails it under CI=true.
func need(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if required() {
		t.Fatalf("%s (CI=true: this prerequisite is required, not skipped)", msg)
	}
	t.Skip(msg)
}

// testServer returns the base URL of the package's geosvc server,
// starting it on first use.
func testServer(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: starts geosvc serve on the Delaware bundle")
	}
	serverOnce.Do(func() { serverURL, serverErr = startServer() })
	if serverErr != nil {
		need(t, "no geosvc server: %v", serverErr)
	}
	return serverURL
}

// startServer builds what is missing and starts `geosvc serve`.
func startServer() (string, error) {
	bin := os.Getenv("GEOSVC_TEST_BIN")
	if bin == "" {
		bin = filepath.Join(tmpDir, "geosvc")
		build := exec.Command("go", "build", "-o", bin, "./cmd/geosvc")
		build.Dir = repoRoot
		if out, err := build.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build ./cmd/geosvc: %v\n%s", err, out)
		}
	}
	data := os.Getenv("GEOSVC_TEST_DATA")
	if data == "" {
		list := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/paulmach/osm")
		list.Dir = repoRoot
		out, err := list.Output()
		if err != nil {
			return "", fmt.Errorf("the Delaware extract (module github.com/paulmach/osm): %v", err)
		}
		osm := filepath.Join(strings.TrimSpace(string(out)), "testdata", "delaware-latest.osm.pbf")
		data = filepath.Join(repoRoot, "data", "delaware-latest")
		if b, err := exec.Command(bin, "build", "--osm", osm, "--out", data, "--if-stale").CombinedOutput(); err != nil {
			return "", fmt.Errorf("geosvc build: %v\n%s", err, b)
		}
	}
	plans := filepath.Join(tmpDir, "plans.yaml")
	if err := os.WriteFile(plans, []byte(testPlans), 0o644); err != nil {
		return "", err
	}
	cmd := exec.Command(bin, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-addr", "",
		"--log-level", "error", "--plans-file", plans, "--trials", "--trials-per-ip", "0",
		"--tdm-retention", matrixRetention.String())
	env := []string{"GEOSVC_DEMO_KEY=" + demoKey}
	for _, kv := range os.Environ() {
		// The embedded Redis: nothing of the tests outlives the server.
		if !strings.HasPrefix(kv, "REDIS_URL=") && !strings.HasPrefix(kv, "GEOSVC_") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	// The server log goes to a file, printed when the server does not come up.
	logFile, err := os.Create(filepath.Join(tmpDir, "serve.log"))
	if err != nil {
		return "", err
	}
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	serverStop = func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}
	urls := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`listening on (http://\S+)`)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case urls <- m[1]:
				default:
				}
			}
		}
	}()
	var base string
	select {
	case base = <-urls:
	case <-done:
		b, _ := os.ReadFile(logFile.Name())
		return "", fmt.Errorf("geosvc serve ended before listening:\n%s", b)
	case <-time.After(60 * time.Second):
		return "", fmt.Errorf("geosvc serve did not listen within 60 s")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base, nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return "", fmt.Errorf("%s not ready within 120 s", data)
}
