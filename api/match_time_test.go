package api

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// TestMatchV1TraceTime: on the timed fixture (alternatives.osm, Main
// Street's C1 -> C2 at 5 km/h in Monday's hour 8, Africa/Libreville,
// UTC+1), a trace driving S -> T along Main Street is matched on the
// speed bucket of its first time: leaving at 08:30 local the matched
// duration is longer by C1 -> C2's 222.390 m at 5 km/h instead of
// 25 km/h (160.1 s against 32.0 s: 128.1 s by hand) than leaving at
// 10:30; a trace without times has no speed data applied.
func TestMatchV1TraceTime(t *testing.T) {
	srv, key, d, _ := timedRouteServer(t)
	trace := func(start string) string {
		t0, _ := time.Parse(time.RFC3339, start)
		var pts []string
		for i := 0; i <= 20; i++ {
			lon := 10.0 + 0.0005*float64(i)
			if start == "" {
				pts = append(pts, fmt.Sprintf(`{"lon": %.4f, "lat": 0}`, lon))
				continue
			}
			pts = append(pts, fmt.Sprintf(`{"lon": %.4f, "lat": 0, "time": %q}`, lon, t0.Add(time.Duration(i)*8*time.Second).Format(time.RFC3339)))
		}
		return `{"points": [` + strings.Join(pts, ",") + `]}`
	}
	type answer struct {
		Matchings []struct {
			Duration float64 `json:"duration"`
		} `json:"matchings"`
		TraceTime    string `json:"trace_time"`
		TimeZone     string `json:"time_zone"`
		SpeedVersion string `json:"speed_version"`
	}
	get := func(start string) answer {
		t.Helper()
		code, body := postMatch(srv, key, trace(start))
		var a answer
		if code != 200 || json.Unmarshal([]byte(body), &a) != nil || len(a.Matchings) != 1 {
			t.Fatalf("%s: %d %s", start, code, body)
		}
		return a
	}
	slow, free, untimed := get("2026-11-30T07:30:00Z"), get("2026-11-30T09:30:00Z"), get("")
	if slow.TraceTime != "2026-11-30T08:30:00+01:00" || slow.TimeZone != "Africa/Libreville" || slow.SpeedVersion != d.Version {
		t.Errorf("08:30: trace_time %q zone %q version %q", slow.TraceTime, slow.TimeZone, slow.SpeedVersion)
	}
	if free.SpeedVersion != d.Version || untimed.SpeedVersion != "" || untimed.TraceTime != "" {
		t.Errorf("10:30 version %q; untimed version %q time %q", free.SpeedVersion, untimed.SpeedVersion, untimed.TraceTime)
	}
	want := 222.390/(5/3.6) - 222.390/(25/3.6)
	if diff := slow.Matchings[0].Duration - free.Matchings[0].Duration; math.Abs(diff-want) > 1 {
		t.Errorf("08:30 %.1f s, 10:30 %.1f s: %.1f s apart, want %.1f", slow.Matchings[0].Duration, free.Matchings[0].Duration, diff, want)
	}
	if free.Matchings[0].Duration != untimed.Matchings[0].Duration {
		t.Errorf("10:30 %.1f s, untimed %.1f s", free.Matchings[0].Duration, untimed.Matchings[0].Duration)
	}
}
