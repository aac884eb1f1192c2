package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestReadTZ(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"tzdata.zi":    "# version 2099z\nZ Europe/Kyiv 2:2:4 - LMT 1880\nZ Asia/Tokyo 9:18:59 - LMT 1887\nL Europe/Kyiv Europe/Kiev\n",
		"zone1970.tab": "#codes\tcoordinates\tTZ\tcomments\nJP,AU\t+353916+1394441\tAsia/Tokyo\tEyre Bird Observatory\nUA\t+5026+03031\tEurope/Kyiv\n",
		"zone.tab":     "JP\t+353916+1394441\tAsia/Tokyo\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tz, err := readTZ(dir)
	if err != nil {
		t.Fatal(err)
	}
	if tz.version != "2099z" {
		t.Errorf("version %q", tz.version)
	}
	if want := []string{"Asia/Tokyo", "Europe/Kiev", "Europe/Kyiv"}; !reflect.DeepEqual(tz.zones, want) {
		t.Errorf("zones %v, want %v", tz.zones, want)
	}
	if tz.links["Europe/Kiev"] != "Europe/Kyiv" {
		t.Errorf("links %v", tz.links)
	}
	if want := []string{"JP", "AU"}; !reflect.DeepEqual(tz.countries["Asia/Tokyo"], want) {
		t.Errorf("Asia/Tokyo countries %v, want %v (union of both tabs, principal first)", tz.countries["Asia/Tokyo"], want)
	}
}

func TestCLDRTime(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"", 0},
		{"1970-01-01 00:00", 0},
		{"1983-10-30 12:00", 436363200},
	}
	for _, tt := range tests {
		got, err := cldrTime(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("cldrTime(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	if _, err := cldrTime("30.10.1983"); err == nil {
		t.Error("bad date accepted")
	}
}

func TestClasses(t *testing.T) {
	cs := &classes{parent: map[string]string{}}
	cs.union("Europe/Kiev", "Europe/Kyiv")
	cs.union("Europe/Uzhgorod", "Europe/Kyiv")
	cs.union("Asia/Calcutta", "Asia/Kolkata")
	if cs.find("Europe/Kiev") != cs.find("Europe/Uzhgorod") {
		t.Error("Kiev and Uzhgorod not in one group")
	}
	if cs.find("Europe/Kiev") == cs.find("Asia/Kolkata") {
		t.Error("Kiev and Kolkata in one group")
	}
	if cs.find("Asia/Tokyo") != "Asia/Tokyo" {
		t.Error("a name without links is not its own group")
	}
}
