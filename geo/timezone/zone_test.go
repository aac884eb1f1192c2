package timezone

import (
	"reflect"
	"testing"
	"time"
)

// fixedNow is the clock of every test: mid-June 2026.
var fixedNow = time.Date(2026, time.June, 15, 12, 0, 0, 0, time.UTC)

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	if s == "" {
		return time.Time{}
	}
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestComputeZone(t *testing.T) {
	tests := []struct {
		zone       string
		utc        string
		std, dst   Naming
		start, end string
		countries  []string
	}{
		{"America/New_York", "UTC-05:00",
			Naming{"EST", "Eastern Standard Time"}, Naming{"EDT", "Eastern Daylight Time"},
			"2026-03-08T07:00:00Z", "2026-11-01T06:00:00Z", []string{"USA"}},
		{"Europe/Andorra", "UTC+01:00",
			Naming{"CET", "Central European Standard Time"}, Naming{"CEST", "Central European Summer Time"},
			"2026-03-29T01:00:00Z", "2026-10-25T01:00:00Z", []string{"AND"}},
		{"Australia/Sydney", "UTC+10:00",
			Naming{"AEST", "Australian Eastern Standard Time"}, Naming{"AEDT", "Australian Eastern Daylight Time"},
			"2026-10-03T16:00:00Z", "2026-04-04T16:00:00Z", []string{"AUS"}},
		{"Australia/Lord_Howe", "UTC+10:30",
			Naming{"+1030", "Lord Howe Standard Time"}, Naming{"+11", "Lord Howe Daylight Time"},
			"2026-10-03T15:30:00Z", "2026-04-04T15:00:00Z", []string{"AUS"}},
		{"Pacific/Chatham", "UTC+12:45",
			Naming{"+1245", "Chatham Standard Time"}, Naming{"+1345", "Chatham Daylight Time"},
			"2026-09-26T14:00:00Z", "2026-04-04T14:00:00Z", []string{"NZL"}},
		{"Europe/Dublin", "UTC+00:00",
			Naming{"GMT", "Greenwich Mean Time"}, Naming{"IST", "Irish Standard Time"},
			"2026-03-29T01:00:00Z", "2026-10-25T01:00:00Z", []string{"IRL"}},
		{"Pacific/Honolulu", "UTC-10:00", Naming{"HST", "Hawaii-Aleutian Standard Time"}, Naming{}, "", "", []string{"USA"}},
		{"Asia/Tokyo", "UTC+09:00", Naming{"JST", "Japan Standard Time"}, Naming{}, "", "", []string{"JPN", "AUS"}},
		{"Asia/Kolkata", "UTC+05:30", Naming{"IST", "India Standard Time"}, Naming{}, "", "", []string{"IND"}},
		{"Europe/Kyiv", "UTC+02:00",
			Naming{"EET", "Eastern European Standard Time"}, Naming{"EEST", "Eastern European Summer Time"},
			"2026-03-29T01:00:00Z", "2026-10-25T01:00:00Z", []string{"UKR"}},
		{"Etc/GMT+3", "UTC-03:00", Naming{"-03", "GMT-03:00"}, Naming{}, "", "", nil},
		{"Etc/GMT", "UTC+00:00", Naming{"GMT", "Greenwich Mean Time"}, Naming{}, "", "", nil},
		{"Etc/UTC", "UTC+00:00", Naming{"UTC", "Coordinated Universal Time"}, Naming{}, "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.zone, func(t *testing.T) {
			z, err := ComputeZone(tt.zone, fixedNow)
			if err != nil {
				t.Fatal(err)
			}
			if z.Name != tt.zone || z.Year != 2026 {
				t.Errorf("name, year = %s, %d", z.Name, z.Year)
			}
			if got := z.UTCOffset(); got != tt.utc {
				t.Errorf("UTCOffset = %s, want %s", got, tt.utc)
			}
			if z.Standard != tt.std {
				t.Errorf("Standard = %+v, want %+v", z.Standard, tt.std)
			}
			if z.DST != tt.dst {
				t.Errorf("DST = %+v, want %+v", z.DST, tt.dst)
			}
			if z.HasDST != (tt.start != "") {
				t.Errorf("HasDST = %v", z.HasDST)
			}
			if !z.DSTStart.Equal(mustTime(t, tt.start)) || !z.DSTEnd.Equal(mustTime(t, tt.end)) {
				t.Errorf("DST %v .. %v, want %s .. %s", z.DSTStart, z.DSTEnd, tt.start, tt.end)
			}
			if !reflect.DeepEqual(z.Countries, tt.countries) {
				t.Errorf("Countries = %v, want %v", z.Countries, tt.countries)
			}
		})
	}
}

// TestComputeZoneYearOfClock: the year is the clock's, in the zone's local
// time (New Year's Eve 2026 in UTC is already 2027 in Tokyo).
func TestComputeZoneYearOfClock(t *testing.T) {
	at := time.Date(2026, time.December, 31, 20, 0, 0, 0, time.UTC)
	for zone, year := range map[string]int{"Asia/Tokyo": 2027, "America/New_York": 2026} {
		z, err := ComputeZone(zone, at)
		if err != nil {
			t.Fatal(err)
		}
		if z.Year != year {
			t.Errorf("%s: year %d, want %d", zone, z.Year, year)
		}
	}
	z, _ := ComputeZone("America/New_York", time.Date(2027, time.July, 1, 0, 0, 0, 0, time.UTC))
	if want := mustTime(t, "2027-03-14T07:00:00Z"); !z.DSTStart.Equal(want) {
		t.Errorf("2027 DST start %v, want %v", z.DSTStart, want)
	}
}

func TestFormatOffset(t *testing.T) {
	tests := []struct {
		off  int
		bare bool
		want string
	}{
		{-5 * 3600, false, "UTC-05:00"},
		{0, false, "UTC+00:00"},
		{0, true, "GMT"},
		{12*3600 + 45*60, false, "UTC+12:45"},
		{-(9*3600 + 30*60), false, "UTC-09:30"},
	}
	for _, tt := range tests {
		prefix := "UTC"
		if tt.bare {
			prefix = "GMT"
		}
		if got := formatOffset(prefix, tt.off, tt.bare); got != tt.want {
			t.Errorf("formatOffset(%d) = %s, want %s", tt.off, got, tt.want)
		}
	}
}

func TestZonesCache(t *testing.T) {
	var zs Zones
	a, err := zs.At("Europe/Andorra", fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := zs.At("Europe/Andorra", fixedNow.Add(24*time.Hour))
	if a != b {
		t.Error("same zone and year computed twice")
	}
	c, _ := zs.At("Europe/Andorra", fixedNow.AddDate(1, 0, 0))
	if c == a || c.Year != 2027 {
		t.Errorf("next year: %+v", c)
	}
	if _, err := zs.At("Mars/Olympus_Mons", fixedNow); err == nil {
		t.Error("unknown zone: no error")
	}
}

// TestZoneIn: the zone's long names in other languages, CLDR 41's
// (main/de.xml, main/fr.xml read by hand); a language CLDR lacks keeps
// the English ones; the shared zone is not changed.
func TestZoneIn(t *testing.T) {
	for _, c := range []struct {
		zone      string
		langs     []string
		std, dst  string
		unchanged bool
	}{
		{"America/New_York", []string{"de"}, "Nordamerikanische Ostküsten-Normalzeit", "Nordamerikanische Ostküsten-Sommerzeit", false},
		{"America/New_York", []string{"xx", "de-AT"}, "Nordamerikanische Ostküsten-Normalzeit", "Nordamerikanische Ostküsten-Sommerzeit", false},
		{"Europe/London", []string{"de"}, "Mittlere Greenwich-Zeit", "Britische Sommerzeit", false},
		{"Europe/Paris", []string{"fr"}, "heure normale d’Europe centrale", "heure d’été d’Europe centrale", false},
		{"America/New_York", []string{"xx"}, "Eastern Standard Time", "Eastern Daylight Time", true},
	} {
		z, err := ComputeZone(c.zone, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		std, dst := z.Standard.Name, z.DST.Name
		got := z.In(c.langs)
		if got.Standard.Name != c.std || got.DST.Name != c.dst || (got == z) != c.unchanged {
			t.Errorf("%s %v: %q / %q (same %v), want %q / %q", c.zone, c.langs, got.Standard.Name, got.DST.Name, got == z, c.std, c.dst)
		}
		if z.Standard.Name != std || z.DST.Name != dst {
			t.Errorf("%s: the shared zone changed", c.zone)
		}
	}
}
