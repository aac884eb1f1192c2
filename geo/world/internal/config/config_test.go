package config

import (
	"strings"
	"testing"
)

// TestLoad: the embedded world.yaml parses, and its county rule names the
// counties as the Census Bureau does (expected names from the Census 2017
// county list, not from the file).
func TestLoad(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ fips, name, want string }{
		{"10001", "Kent", "Kent County"},
		{"24005", "Baltimore", "Baltimore County"},
		{"24510", "Baltimore", "Baltimore city"},
		{"29510", "St. Louis", "St. Louis city"},
		{"32510", "Carson City", "Carson City"},
		{"51510", "Alexandria", "Alexandria city"},
		{"51036", "Charles City", "Charles City County"},
		{"51059", "Fairfax", "Fairfax County"},
		{"51600", "Fairfax", "Fairfax city"},
		{"48501", "Yoakum", "Yoakum County"},
		{"22001", "Acadia", "Acadia Parish"},
		{"02020", "Anchorage", "Anchorage Municipality"},
		{"02090", "Fairbanks North Star", "Fairbanks North Star Borough"},
		{"02100", "Haines", "Haines Borough"},
		{"02110", "Juneau", "Juneau City and Borough"},
		{"02158", "Kusilvak", "Kusilvak Census Area"},
		{"11001", "District of Columbia", "District of Columbia"},
		{"72127", "San Juan", "San Juan Municipio"},
		{"66010", "Guam", "Guam"},
		{"78010", "St. Croix", "St. Croix"},
	}
	for _, tt := range tests {
		if got := c.Counties.FullName(tt.fips, tt.name); got != tt.want {
			t.Errorf("FullName(%s, %q) = %q, want %q", tt.fips, tt.name, got, tt.want)
		}
	}
	if _, missing := c.Counties.Describe("02999"); !missing {
		t.Error("an Alaska county without an entry is not reported")
	}
	if _, missing := c.Counties.Describe("51599"); !missing {
		t.Error("a Virginia city without an entry is not reported")
	}
	if _, missing := c.Counties.Describe("51001"); missing {
		t.Error("a Virginia county is reported as needing an entry")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"unknown key", "countries: {unidentified: [], typo: 1}", "typo"},
		{"two actions", "countries: {unidentified: [{name: A, id: '001', omit: true}]}", "exactly one"},
		{"no action", "countries: {unidentified: [{name: A}]}", "exactly one"},
		{"bad id", "countries: {unidentified: [{name: A, id: '1'}]}", "3-digit"},
		{"repeated name", "countries: {unidentified: [{name: A, omit: true}, {name: A, omit: true}]}", "repeated"},
		{"bad box", "countries: {unidentified: [{name: A, parts: [{id: '001', as: B, box: [1, 0, 0, 1]}]}]}", "box"},
		{"bad state", "counties: {states: {'2': X}}", "state FIPS"},
		{"bad county", "counties: {counties: {'0201': X}}", "county FIPS"},
		{"bad prefix", "counties: {listed: ['0a']}", "prefix"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
