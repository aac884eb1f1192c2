package config

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/configs"
)

func TestEmbeddedYAMLMatchesDefaults(t *testing.T) {
	var got Config
	if err := decodeYAML(configs.Service(), &got); err != nil {
		t.Fatal(err)
	}
	if want := Defaults(); !reflect.DeepEqual(got, want) {
		t.Errorf("configs/geosvc.yaml = %+v\nDefaults() = %+v", got, want)
	}
	if err := Defaults().Validate(); err != nil {
		t.Errorf("Defaults().Validate() = %v", err)
	}
}

func TestEverySettingDocumented(t *testing.T) {
	yml := string(configs.Service())
	seenEnv, seenFlag := map[string]bool{}, map[string]bool{}
	for _, s := range Settings {
		if _, err := Get(Defaults(), s.Key); err != nil {
			t.Errorf("setting %s: %v", s.Key, err)
		}
		if !strings.Contains(yml, s.Env) || !strings.Contains(yml, "--"+s.Flag) {
			t.Errorf("configs/geosvc.yaml does not mention %s / --%s", s.Env, s.Flag)
		}
		if seenEnv[s.Env] || seenFlag[s.Flag] {
			t.Errorf("duplicate env %s or flag %s", s.Env, s.Flag)
		}
		seenEnv[s.Env], seenFlag[s.Flag] = true, true
	}
}

// load runs a Loader over args, env and the working directory dir.
func load(t *testing.T, dir string, args []string, env map[string]string) (Config, string, error) {
	t.Helper()
	t.Chdir(dir)
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	l := NewLoader(fs, Server)
	if err := fs.Parse(args); err != nil {
		return Config{}, "", err
	}
	return l.Load(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
}

func TestPrecedence(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "custom.yaml")
	if err := os.WriteFile(file, []byte("addr: \":7000\"\ndata_dir: /srv/file\nworker:\n  concurrency: 3\nqueue:\n  queues: {tdm: 2}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	local := t.TempDir()
	if err := os.MkdirAll(filepath.Join(local, "configs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(local, LocalFile), []byte("addr: \":6000\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()

	tests := []struct {
		name   string
		dir    string
		args   []string
		env    map[string]string
		source string
		check  func(Config) string
	}{
		{
			name: "defaults from the embedded file", dir: empty, source: EmbeddedSource,
			check: func(c Config) string { return c.Addr + " " + c.DataDir + " " + c.RedisURL },
		},
		{
			name: "local configs/geosvc.yaml", dir: local, source: LocalFile,
			check: func(c Config) string { return c.Addr + " " + c.DataDir },
		},
		{
			name: "GEOSVC_CONFIG names the file", dir: local, env: map[string]string{"GEOSVC_CONFIG": file}, source: file,
			check: func(c Config) string { return c.Addr + " " + c.DataDir },
		},
		{
			name: "--config beats GEOSVC_CONFIG", dir: empty, args: []string{"--config", file},
			env: map[string]string{"GEOSVC_CONFIG": "/nonexistent.yaml"}, source: file,
			check: func(c Config) string { return c.Addr + " " + c.DataDir },
		},
		{
			name: "env beats file", dir: empty, args: []string{"--config", file}, source: file,
			env: map[string]string{"GEOSVC_ADDR": ":9000", "REDIS_URL": "redis://r:6379/2", "GEOSVC_CONCURRENCY": "8"},
			check: func(c Config) string {
				return c.Addr + " " + c.DataDir + " " + c.RedisURL + " " + itoa(c.Worker.Concurrency)
			},
		},
		{
			name: "flag beats env", dir: empty, args: []string{"--config", file, "--addr", ":9100", "--data=/srv/flag", "--concurrency", "5"}, source: file,
			env:   map[string]string{"GEOSVC_ADDR": ":9000", "GEOSVC_DATA": "/srv/env"},
			check: func(c Config) string { return c.Addr + " " + c.DataDir + " " + itoa(c.Worker.Concurrency) },
		},
		{
			name: "typed values from env and flags", dir: empty, source: EmbeddedSource,
			args: []string{"--demo=false", "--tdm-retention", "2h", "--cors-origins", "https://a.example, https://b.example"},
			env:  map[string]string{"GEOSVC_QUEUES": "tdm=3,bulk=1", "GEOSVC_RATE_LIMIT": "2.5", "GEOSVC_DEMO_KEY": strings.Repeat("d", 30)},
			check: func(c Config) string {
				q, _ := Get(c, "queue.queues")
				return strings.Join([]string{q, ftoa(c.Auth.RateLimit.Rate), c.Auth.DemoKey[:3], boolStr(c.Auth.Demo), c.TDM.Retention.String(), strings.Join(c.HTTP.CORSOrigins, "|")}, " ")
			},
		},
		{
			name: "a map in the file replaces the default map", dir: empty, args: []string{"--config", file}, source: file,
			check: func(c Config) string { q, _ := Get(c, "queue.queues"); return q },
		},
	}
	want := []string{
		":8080 ./data ",
		":6000 ./data",
		":7000 /srv/file",
		":7000 /srv/file",
		":9000 /srv/file redis://r:6379/2 8",
		":9100 /srv/flag 5",
		"bulk=1,tdm=3 2.5 ddd false 2h0m0s https://a.example|https://b.example",
		"tdm=2",
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, source, err := load(t, tt.dir, tt.args, tt.env)
			if err != nil {
				t.Fatal(err)
			}
			if source != tt.source {
				t.Errorf("source = %q, want %q", source, tt.source)
			}
			if got := tt.check(cfg); got != want[i] {
				t.Errorf("got %q, want %q", got, want[i])
			}
		})
	}
}

// TestAdminFallback: the admin listener may fall back to a free port only
// when its address is the built-in default that no flag or environment
// variable gave.
func TestAdminFallback(t *testing.T) {
	tmp := t.TempDir()
	copied := filepath.Join(tmp, "copy.yaml")
	if err := os.WriteFile(copied, configs.Service(), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(tmp, "other.yaml")
	if err := os.WriteFile(other, []byte("admin:\n  addr: \"127.0.0.1:9191\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		env      map[string]string
		addr     string
		fallback bool
	}{
		{"nothing set", nil, nil, DefaultAdminAddr, true},
		{"a file that copies the default", []string{"--config", copied}, nil, DefaultAdminAddr, true},
		{"a file with another address", []string{"--config", other}, nil, "127.0.0.1:9191", false},
		{"the default by flag", []string{"--admin-addr", DefaultAdminAddr}, nil, DefaultAdminAddr, false},
		{"the default by env", nil, map[string]string{"GEOSVC_ADMIN_ADDR": DefaultAdminAddr}, DefaultAdminAddr, false},
		{"the default by flag over a file", []string{"--config", other, "--admin-addr", DefaultAdminAddr}, nil, DefaultAdminAddr, false},
		{"off by env", nil, map[string]string{"GEOSVC_ADMIN_ADDR": ""}, "", false},
		{"a port of its own by flag", []string{"--admin-addr", "127.0.0.1:9091"}, nil, "127.0.0.1:9091", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _, err := load(t, t.TempDir(), tc.args, tc.env)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Admin.Addr != tc.addr || cfg.Admin.Fallback != tc.fallback {
				t.Errorf("admin = %+v, want addr %q fallback %v", cfg.Admin, tc.addr, tc.fallback)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	tmp := t.TempDir()
	typo := filepath.Join(tmp, "typo.yaml")
	if err := os.WriteFile(typo, []byte("adr: \":1\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"unknown key in file", []string{"--config", typo}, nil, "field adr not found"},
		{"missing file", []string{"--config", filepath.Join(tmp, "nope.yaml")}, nil, "no such file"},
		{"bad duration", nil, map[string]string{"GEOSVC_TDM_RETENTION": "soon"}, "tdm.retention"},
		{"bad number", []string{"--concurrency", "many"}, nil, "worker.concurrency"},
		{"short demo key", nil, map[string]string{"GEOSVC_DEMO_KEY": "short"}, "auth.demo_key: 5 characters"},
		{"public URL without scheme", nil, map[string]string{"GEOSVC_PUBLIC_URL": "geo.example.org"}, "http.public_url"},
		{"public URL with a query", nil, map[string]string{"GEOSVC_PUBLIC_URL": "https://geo.example.org/?a=1"}, "http.public_url"},
		{"tdm queue not polled", []string{"--queues", "other=1"}, nil, `queue.tdm_queue: "tdm" is not in queue.queues`},
		{"bad log level", []string{"--log-level", "loud"}, nil, "log.level"},
		{"trusted proxy that is no address", nil, map[string]string{"GEOSVC_TRUSTED_PROXIES": "10.0.0.0/8, proxy.local"}, `http.trusted_proxies: "proxy.local"`},
		{"trusted proxy range too long", []string{"--trusted-proxies", "10.0.0.0/33"}, nil, "http.trusted_proxies"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := load(t, tmp, tt.args, tt.env)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestSetGetRoundTrip(t *testing.T) {
	tests := []struct{ key, in, out string }{
		{"http.body_limit", "2048", "2048"},
		{"worker.task_check_interval", "250ms", "250ms"},
		{"auth.demo", "false", "false"},
		{"http.public_url", "https://geo.example.org/base", "https://geo.example.org/base"},
		{"tdm.snap_radius_m", "1500.5", "1500.5"},
		{"http.cors_origins", "", ""},
	}
	for _, tt := range tests {
		cfg := Defaults()
		if err := Set(&cfg, tt.key, tt.in); err != nil {
			t.Fatalf("Set(%s, %q) = %v", tt.key, tt.in, err)
		}
		if got, _ := Get(cfg, tt.key); got != tt.out {
			t.Errorf("Get(%s) = %q, want %q", tt.key, got, tt.out)
		}
	}
	if err := Set(&Config{}, "no.such", "1"); err == nil {
		t.Errorf("Set(no.such) succeeded")
	}
}

func itoa(n int) string {
	s, _ := Get(Config{Worker: Worker{Concurrency: n}}, "worker.concurrency")
	return s
}
func ftoa(x float64) string {
	s, _ := Get(Config{TDM: TDM{SnapRadiusM: x}}, "tdm.snap_radius_m")
	return s
}
func boolStr(b bool) string { s, _ := Get(Config{Auth: Auth{Demo: b}}, "auth.demo"); return s }

// TestProxies: addresses become ranges of one, ranges are masked,
// IPv4-mapped addresses are IPv4, blanks are skipped.
func TestProxies(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"10.1.2.3/8", " 192.0.2.7 ", ""}, "10.0.0.0/8 192.0.2.7/32"},
		{[]string{"2001:db8::1/32", "::ffff:198.51.100.9"}, "2001:db8::/32 198.51.100.9/32"},
	}
	for _, tc := range tests {
		ps, err := HTTP{TrustedProxies: tc.in}.Proxies()
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		var got []string
		for _, p := range ps {
			got = append(got, p.String())
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%q = %q, want %q", tc.in, got, tc.want)
		}
	}
}
