package config

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/geosvc/geosvc/configs"
)

// ConfigEnv names the environment variable holding the config file path.
const ConfigEnv = "GEOSVC_CONFIG"

// LocalFile is the config file read when neither --config nor GEOSVC_CONFIG
// names one and it exists in the working directory.
const LocalFile = "configs/geosvc.yaml"

// EmbeddedSource is the Source of a configuration read from the binary.
const EmbeddedSource = "embedded configs/geosvc.yaml"

// Loader loads a Config for one subcommand: NewLoader registers the flags
// on the subcommand's FlagSet, the caller parses the arguments, then Load
// merges defaults, file, environment and the flags that were set.
type Loader struct {
	file  string
	flags map[string]string // setting key -> flag value, set flags only
	order []string
}

// NewLoader registers --config and the flags of the settings in groups on
// fs.
func NewLoader(fs *flag.FlagSet, groups Group) *Loader {
	l := &Loader{flags: map[string]string{}}
	fs.StringVar(&l.file, "config", "", "config file (env "+ConfigEnv+"; default "+LocalFile+" if present, else the embedded copy)")
	for _, s := range Settings {
		if s.Group&groups == 0 {
			continue
		}
		key := s.Key
		help := s.Help + " (env " + s.Env + ", config " + key + ")"
		set := func(v string) error {
			if _, seen := l.flags[key]; !seen {
				l.order = append(l.order, key)
			}
			l.flags[key] = v
			return nil
		}
		if isBool(key) {
			fs.BoolFunc(s.Flag, help, set)
		} else {
			fs.Func(s.Flag, help, set)
		}
	}
	return l
}

func isBool(key string) bool {
	f, err := field(&Config{}, key)
	return err == nil && f.Kind() == reflect.Bool
}

// Load returns the configuration: defaults, then the YAML file, then the
// environment (looked up with getenv), then the flags that were set. It
// also returns where the file part came from.
func (l *Loader) Load(getenv func(string) (string, bool)) (Config, string, error) {
	cfg := Defaults()
	data, source, err := l.read(getenv)
	if err != nil {
		return cfg, source, err
	}
	if err := decodeYAML(data, &cfg); err != nil {
		return cfg, source, fmt.Errorf("config %s: %w", source, err)
	}
	explicit := map[string]bool{}
	for _, s := range Settings {
		v, ok := getenv(s.Env)
		if !ok {
			continue
		}
		if err := Set(&cfg, s.Key, v); err != nil {
			return cfg, source, fmt.Errorf("env %s: %w", s.Env, err)
		}
		explicit[s.Key] = true
	}
	for _, key := range l.order {
		if err := Set(&cfg, key, l.flags[key]); err != nil {
			return cfg, source, fmt.Errorf("flag for %s: %w", key, err)
		}
		explicit[key] = true
	}
	cfg.Admin.Fallback = cfg.Admin.Addr == DefaultAdminAddr && !explicit["admin.addr"]
	return cfg, source, cfg.Validate()
}

// read returns the YAML to apply and its source.
func (l *Loader) read(getenv func(string) (string, bool)) ([]byte, string, error) {
	path := l.file
	if path == "" {
		path, _ = getenv(ConfigEnv)
	}
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, path, fmt.Errorf("config: %w", err)
		}
		return b, path, nil
	}
	b, err := os.ReadFile(LocalFile)
	switch {
	case err == nil:
		return b, LocalFile, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, LocalFile, fmt.Errorf("config: %w", err)
	}
	return configs.Service(), EmbeddedSource, nil
}

// decodeYAML applies data onto cfg; unknown keys are errors (typos). A map
// given in the file replaces the default one rather than merging with it.
func decodeYAML(data []byte, cfg *Config) error {
	var probe struct {
		Queue struct {
			Queues map[string]int `yaml:"queues"`
		} `yaml:"queue"`
	}
	if err := yaml.Unmarshal(data, &probe); err == nil && probe.Queue.Queues != nil {
		cfg.Queue.Queues = nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// Set sets the setting key of cfg from its string form: numbers, booleans
// (strconv.ParseBool), durations (time.ParseDuration), comma-separated lists
// and name=value,name=value maps.
func Set(cfg *Config, key, value string) error {
	f, err := field(cfg, key)
	if err != nil {
		return err
	}
	value = strings.TrimSpace(value)
	switch f.Interface().(type) {
	case time.Duration:
		d, err := time.ParseDuration(value)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		f.SetInt(int64(d))
		return nil
	case []string:
		var list []string
		for _, s := range strings.Split(value, ",") {
			if s = strings.TrimSpace(s); s != "" {
				list = append(list, s)
			}
		}
		f.Set(reflect.ValueOf(list))
		return nil
	case map[string]int:
		m := map[string]int{}
		for _, s := range strings.Split(value, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			name, n, ok := strings.Cut(s, "=")
			p, err := strconv.Atoi(strings.TrimSpace(n))
			if !ok || err != nil || strings.TrimSpace(name) == "" {
				return fmt.Errorf("%s: want name=priority pairs, got %q", key, s)
			}
			m[strings.TrimSpace(name)] = p
		}
		f.Set(reflect.ValueOf(m))
		return nil
	}
	switch f.Kind() {
	case reflect.String:
		f.SetString(value)
	case reflect.Bool:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		f.SetBool(b)
	case reflect.Int, reflect.Int64:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		f.SetInt(n)
	case reflect.Float64:
		x, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		f.SetFloat(x)
	default:
		return fmt.Errorf("%s: unsupported type %s", key, f.Type())
	}
	return nil
}

// field returns the settable field of cfg at the dotted YAML path key.
func field(cfg *Config, key string) (reflect.Value, error) {
	v := reflect.ValueOf(cfg).Elem()
	for _, part := range strings.Split(key, ".") {
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, fmt.Errorf("config: no key %q", key)
		}
		found := false
		t := v.Type()
		for i := range t.NumField() {
			if strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0] == part {
				v, found = v.Field(i), true
				break
			}
		}
		if !found {
			return reflect.Value{}, fmt.Errorf("config: no key %q", key)
		}
	}
	return v, nil
}

// Get returns the setting key of cfg in the string form Set accepts.
func Get(cfg Config, key string) (string, error) {
	f, err := field(&cfg, key)
	if err != nil {
		return "", err
	}
	switch x := f.Interface().(type) {
	case time.Duration:
		return x.String(), nil
	case []string:
		return strings.Join(x, ","), nil
	case map[string]int:
		names := make([]string, 0, len(x))
		for k := range x {
			names = append(names, k)
		}
		sortStrings(names)
		parts := make([]string, len(names))
		for i, k := range names {
			parts[i] = k + "=" + strconv.Itoa(x[k])
		}
		return strings.Join(parts, ","), nil
	}
	return fmt.Sprint(f.Interface()), nil
}
