package api

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/speeds"
)

// speedsAnswer is the body of POST and GET /admin/speeds.
type speedsAnswer struct {
	// Version is the speed data's version ("" without any).
	Version string `json:"version"`
	// LoadedAt is when it was applied; AgeS how long ago, in seconds.
	LoadedAt *time.Time `json:"loaded_at,omitempty"`
	AgeS     float64    `json:"age_s"`
	// ApplyMS is how long the update took to apply (POST only).
	ApplyMS float64 `json:"apply_ms,omitempty"`
	// Report says how the data mapped onto the graph.
	Report *routing.SpeedReport `json:"report,omitempty"`
}

// speedsAnswerOf describes the speed data the current bundle applies.
func speedsAnswerOf(cur *bundle.Current) speedsAnswer {
	info := cur.Load().Speeds()
	if info == nil {
		return speedsAnswer{}
	}
	return speedsAnswer{Version: info.Version, LoadedAt: &info.LoadedAt, AgeS: time.Since(info.LoadedAt).Seconds(), Report: &info.Report}
}

// ServeSpeeds adds /admin/speeds to the admin listener: GET answers the
// speed data applied; POST applies a new speed file given as the body
// (the segment speed CSV; YAML rules with Content-Type application/yaml
// or ?format=yaml) to every graph of the process at once, all or
// nothing, and answers its version. A bad file is a 400 naming the line
// and the field; nothing is applied then.
func (a *AdminListener) ServeSpeeds(cur *bundle.Current, log *slog.Logger) {
	if a == nil {
		return
	}
	a.mux.HandleFunc("/admin/speeds", func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			writeAdminJSON(w, http.StatusOK, speedsAnswerOf(cur))
			return
		case http.MethodPost:
		default:
			w.Header().Set("Allow", "GET, POST")
			writeAdminJSON(w, http.StatusMethodNotAllowed, map[string]string{"message": "GET or POST"})
			return
		}
		if cur.Load() == nil {
			writeAdminJSON(w, http.StatusServiceUnavailable, map[string]string{"message": "data bundle loading"})
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, speeds.MaxBytes))
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeAdminJSON(w, http.StatusRequestEntityTooLarge, map[string]string{"message": "the speed file is larger than the 256 MiB accepted"})
			return
		}
		if err != nil {
			return
		}
		name := "body.csv"
		if strings.Contains(r.Header.Get("Content-Type"), "yaml") || r.URL.Query().Get("format") == "yaml" {
			name = "body.yaml"
		}
		t0 := time.Now()
		d, err := speeds.Parse(name, body)
		if err != nil {
			writeAdminJSON(w, http.StatusBadRequest, map[string]string{"message": err.Error()})
			return
		}
		rep := cur.SetSpeeds(d)
		ans := speedsAnswerOf(cur)
		ans.ApplyMS = float64(time.Since(t0).Microseconds()) / 1000
		ans.Report = &rep
		log.Info("speed data applied", "version", rep.Version, "source", "POST /admin/speeds", "took", time.Since(t0), "report", rep.String())
		writeAdminJSON(w, http.StatusOK, ans)
	})
}

func writeAdminJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// WatchSpeeds applies the speed file at path now and again whenever its
// modification time or size changes (checked every interval) until
// stop is closed. A file that fails to parse is logged and leaves the
// speed data applied as it was. The first application's error is
// returned (a missing or bad file at start-up).
func WatchSpeeds(cur *bundle.Current, path string, interval time.Duration, stop <-chan struct{}, log *slog.Logger) error {
	var seen os.FileInfo
	apply := func() error {
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		if seen != nil && fi.ModTime().Equal(seen.ModTime()) && fi.Size() == seen.Size() {
			return nil
		}
		seen = fi
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		t0 := time.Now()
		d, err := speeds.Parse(path, b)
		if err != nil {
			return err
		}
		rep := cur.SetSpeeds(d)
		if cur.Load() == nil {
			log.Info("speed data read: applied when the data bundle is loaded", "version", d.Version, "source", path)
			return nil
		}
		log.Info("speed data applied", "version", rep.Version, "source", path, "took", time.Since(t0), "report", rep.String())
		return nil
	}
	if err := apply(); err != nil {
		return err
	}
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if err := apply(); err != nil {
					log.Error("speed file not applied: the speed data stays as it was", "file", path, "err", err)
				}
			}
		}
	}()
	return nil
}

// speedsCollector reports the speed data applied, read at each scrape.
type speedsCollector struct {
	cur       *bundle.Current
	info, age *prometheus.Desc
}

// WatchSpeedMetrics adds geosvc_speeds_info{version} and
// geosvc_speeds_age_seconds, read from cur at each scrape.
func (pm *ProcessMetrics) WatchSpeedMetrics(cur *bundle.Current) {
	pm.reg.MustRegister(&speedsCollector{cur: cur,
		info: prometheus.NewDesc("geosvc_speeds_info", "The speed data applied: 1, labelled with its version (absent without speed data).", []string{"version"}, nil),
		age:  prometheus.NewDesc("geosvc_speeds_age_seconds", "How long ago the speed data applied was loaded (absent without speed data).", nil, nil),
	})
}

func (c *speedsCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.info; ch <- c.age }

func (c *speedsCollector) Collect(ch chan<- prometheus.Metric) {
	info := c.cur.Load().Speeds()
	if info == nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(c.info, prometheus.GaugeValue, 1, info.Version)
	ch <- prometheus.MustNewConstMetric(c.age, prometheus.GaugeValue, time.Since(info.LoadedAt).Seconds())
}
