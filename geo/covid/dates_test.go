package covid

import (
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	for _, tt := range []struct {
		format, in string
		want       time.Time
		ok         bool
	}{
		{formatMDYY, "1/22/20", date(2020, 1, 22), true},
		{formatMDYY, "12/31/21", date(2021, 12, 31), true},
		{formatMDYY, "1/22/2020", time.Time{}, false},
		{formatMDYY, "2/30/20", time.Time{}, false},
		{formatMDYYYY, "3/9/2023", date(2023, 3, 9), true},
		{formatMDYYYY, "03/09/2023", date(2023, 3, 9), true},
		{formatMDYYYY, "3/9/23", time.Time{}, false},
		{formatMDYYYY, "2/29/2020", date(2020, 2, 29), true},
		{formatMDYYYY, "2/29/2021", time.Time{}, false},
		{formatMDYYYY, "13/1/2020", time.Time{}, false},
		{formatMMDDYYYY, "03/07/2020", date(2020, 3, 7), true},
		{formatMMDDYYYY, "3/7/2020", time.Time{}, false},
		{formatMMDDYYYY, "10/11/2025", date(2025, 10, 11), true},
		{formatISO, "2020-01-21", date(2020, 1, 21), true},
		{formatISO, "2020-1-21", time.Time{}, false},
		{formatISO, "2020-02-30", time.Time{}, false},
		{formatMDYYYY, "", time.Time{}, false},
		{formatMDYYYY, "Province", time.Time{}, false},
		{formatMDYYYY, "1/2/3/2020", time.Time{}, false},
		{formatMDYYYY, "1//2020", time.Time{}, false},
		{"YYYYMMDD", "20200101", time.Time{}, false},
	} {
		got, err := parseDate(tt.format, tt.in)
		if (err == nil) != tt.ok || !got.Equal(tt.want) {
			t.Errorf("parseDate(%s, %q) = %v, %v; want %v ok=%v", tt.format, tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestDayRoundTrip(t *testing.T) {
	for _, d := range []time.Time{date(1970, 1, 1), date(2020, 1, 22), date(2025, 10, 11), date(1969, 12, 31)} {
		if got := dayOf(d).time(); !got.Equal(d) {
			t.Errorf("%v -> %v", d, got)
		}
	}
	if noDay.String() != "" || dayOf(date(2020, 3, 1)).String() != "2020-03-01" {
		t.Error("day String")
	}
}

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"1/22/20", "3/9/2023", "03/07/2020", "2020-01-21", "99/99/9999", "1/1/", "-1/-1/-1", "２/１/2020"} {
		f.Add(s)
	}
	formats := []string{formatMDYY, formatMDYYYY, formatMMDDYYYY, formatISO}
	f.Fuzz(func(t *testing.T, s string) {
		for _, format := range formats {
			got, err := parseDate(format, s)
			if err != nil {
				continue
			}
			// A date that parses prints back to itself in that format.
			var back string
			switch format {
			case formatMDYY:
				back = got.Format("1/2/06")
			case formatMDYYYY:
				back = got.Format("1/2/2006")
			case formatMMDDYYYY:
				back = got.Format("01/02/2006")
			case formatISO:
				back = got.Format(time.DateOnly)
			}
			if again, err := parseDate(format, back); err != nil || !again.Equal(got) {
				t.Errorf("%s %q -> %v -> %q -> %v %v", format, s, got, back, again, err)
			}
		}
	})
}
