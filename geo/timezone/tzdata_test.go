package timezone

import (
	"testing"
	"time"
)

func TestLoadLocationFromEmbeddedDatabase(t *testing.T) {
	cases := []struct {
		name    string
		ok      bool
		at      time.Time
		wantOff int // seconds east of UTC at that instant
	}{
		{"America/New_York", true, time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC), -4 * 3600},
		{"America/New_York", true, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), -5 * 3600},
		{"Europe/Andorra", true, time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC), 2 * 3600},
		{"Pacific/Chatham", true, time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC), 12*3600 + 45*60},
		{"Etc/GMT+3", true, time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC), -3 * 3600},
		{"UTC", true, time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC), 0},
		{"Mars/Olympus_Mons", false, time.Time{}, 0},
		{"../../etc/passwd", false, time.Time{}, 0},
	}
	for _, tc := range cases {
		loc, err := LoadLocation(tc.name)
		if (err == nil) != tc.ok {
			t.Fatalf("%s: err %v, want ok %v", tc.name, err, tc.ok)
		}
		if !tc.ok {
			continue
		}
		if _, off := tc.at.In(loc).Zone(); off != tc.wantOff {
			t.Errorf("%s at %v: offset %d, want %d", tc.name, tc.at, off, tc.wantOff)
		}
	}
}
