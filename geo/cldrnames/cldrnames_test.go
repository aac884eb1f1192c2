package cldrnames

import "testing"

// TestNames: values read in CLDR 41's main/<lang>.xml by hand.
func TestNames(t *testing.T) {
	for _, c := range []struct {
		lang, iso2, want string
		ok               bool
	}{
		{"de", "US", "Vereinigte Staaten", true},
		{"fr", "us", "États-Unis", true},
		{"ja", "US", "アメリカ合衆国", true},
		{"ru", "US", "Соединенные Штаты", true},
		{"fr-CA", "US", "États-Unis", true}, // the base language's
		{"xx", "US", "", false},
		{"de", "QQ", "", false},
	} {
		got, ok := CountryIn(c.lang, c.iso2)
		if got != c.want || ok != c.ok {
			t.Errorf("%s %s: %q %v, want %q %v", c.lang, c.iso2, got, ok, c.want, c.ok)
		}
	}
	if got, ok := Country([]string{"xx", "de"}, "FR"); got != "Frankreich" || !ok {
		t.Errorf("xx,de FR: %q %v", got, ok)
	}
	for _, c := range []struct {
		lang, zone, mz string
		dst            bool
		want           string
	}{
		{"de", "America/New_York", "America_Eastern", false, "Nordamerikanische Ostküsten-Normalzeit"},
		{"de", "America/New_York", "America_Eastern", true, "Nordamerikanische Ostküsten-Sommerzeit"},
		{"de", "Europe/London", "GMT", true, "Britische Sommerzeit"},
		{"xx", "Europe/London", "GMT", true, ""},
	} {
		if got, _ := Zone(c.lang, c.zone, c.mz, c.dst); got != c.want {
			t.Errorf("%s %s dst=%v: %q, want %q", c.lang, c.zone, c.dst, got, c.want)
		}
	}
}
