package api

import (
	"net/url"
	"reflect"
	"testing"
)

func TestSemicolonQuery(t *testing.T) {
	tests := []struct {
		raw     string
		want    url.Values
		wantErr bool
	}{
		{"", url.Values{}, false},
		{"from=-75.75,39.68&radiuses=10;", url.Values{"from": {"-75.75,39.68"}, "radiuses": {"10;"}}, false},
		{"bearings=90,20;;&approaches=;curb", url.Values{"bearings": {"90,20;;"}, "approaches": {";curb"}}, false},
		{"radiuses=50%3B100&a=b+c", url.Values{"radiuses": {"50;100"}, "a": {"b c"}}, false},
		{"snapping&&x=1&x=2", url.Values{"snapping": {""}, "x": {"1", "2"}}, false},
		{"avoid_polygons=%7B%22type%22", url.Values{"avoid_polygons": {`{"type"`}}, false},
		{"radiuses=%zz", nil, true},
		{"%zz=1", nil, true},
	}
	for _, tc := range tests {
		got, err := semicolonQuery(tc.raw)
		if (err != nil) != tc.wantErr {
			t.Errorf("semicolonQuery(%q) error %v, want error %v", tc.raw, err, tc.wantErr)
			continue
		}
		if !tc.wantErr && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("semicolonQuery(%q) = %v, want %v", tc.raw, got, tc.want)
		}
	}
}

// FuzzSemicolonQuery checks that the parser never panics and agrees with
// url.ParseQuery wherever that accepts the query.
func FuzzSemicolonQuery(f *testing.F) {
	for _, s := range []string{"from=1,2&to=3,4", "radiuses=10;", "a=%41&b", "x=%zz", "&&=&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := semicolonQuery(raw)
		want, werr := url.ParseQuery(raw)
		if werr == nil {
			if err != nil {
				t.Fatalf("semicolonQuery(%q): %v; url.ParseQuery accepts it", raw, err)
			}
			if len(want) != len(got) {
				t.Fatalf("semicolonQuery(%q) = %v, url.ParseQuery %v", raw, got, want)
			}
			for k, v := range want {
				if !reflect.DeepEqual(got[k], v) {
					t.Fatalf("semicolonQuery(%q)[%q] = %v, url.ParseQuery %v", raw, k, got[k], v)
				}
			}
		}
	})
}
