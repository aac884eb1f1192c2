package speeds

import (
	"errors"
	"strings"
	"testing"
)

func TestParseCSV(t *testing.T) {
	in := "from_osm_node,to_osm_node,speed_kmh,rate,hour\n" +
		"# a comment\n" +
		"1,2,50\n" +
		"\n" +
		"2,1,30.5,8.5\r\n" +
		"1,2,20,,17\n" +
		" 3 , 4 , 10 , 2 , 167 \n"
	d, err := ParseCSV([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Segment{
		{From: 1, To: 2, Kmh: 50, Hour: AllHours, Line: 3},
		{From: 2, To: 1, Kmh: 30.5, Rate: 8.5, Hour: AllHours, Line: 5},
		{From: 1, To: 2, Kmh: 20, Hour: 17, Line: 6},
		{From: 3, To: 4, Kmh: 10, Rate: 2, Hour: 167, Line: 7},
	}
	if len(d.Segments) != len(want) {
		t.Fatalf("got %d segments %+v, want %d", len(d.Segments), d.Segments, len(want))
	}
	for i := range want {
		if d.Segments[i] != want[i] {
			t.Errorf("segment %d: got %+v, want %+v", i, d.Segments[i], want[i])
		}
	}
	if d.Format != "csv" || len(d.Version) != 12 {
		t.Errorf("format %q version %q", d.Format, d.Version)
	}
	d2, _ := ParseCSV([]byte(in + "\n"))
	if d2.Version == d.Version {
		t.Errorf("two different files have one version %s", d.Version)
	}
}

func TestParseCSVErrors(t *testing.T) {
	for _, c := range []struct {
		in    string
		line  int
		field string
		msg   string
	}{
		{"1,2\n", 1, "row", "has 2 fields"},
		{"1,2,3,4,5,6\n", 1, "row", "has 6 fields"},
		{"1,2,50\nx,2,50\n", 2, "from_osm_node", "not an OSM node id"},
		{"1,-2,50\n", 1, "to_osm_node", "not an OSM node id"},
		{"1,1,50\n", 1, "to_osm_node", "a segment joins two nodes"},
		{"1,2,0\n", 1, "speed_kmh", "out of range"},
		{"1,2,-5\n", 1, "speed_kmh", "out of range"},
		{"1,2,251\n", 1, "speed_kmh", "out of range"},
		{"1,2,NaN\n", 1, "speed_kmh", "not a number"},
		{"1,2,fast\n", 1, "speed_kmh", "not a number"},
		{"1,2,50,0\n", 1, "rate", "not a positive number"},
		{"1,2,50,1,168\n", 1, "hour", "not an hour of the week"},
		{"1,2,50,1,-1\n", 1, "hour", "not an hour of the week"},
		{"1,2,50,,7.5\n", 1, "hour", "not an hour of the week"},
		{"1,2,50\n1,2,40\n", 2, "from_osm_node", "already given on line 1"},
		{"1,2,50,,3\n# x\n1,2,40,,3\n", 3, "from_osm_node", "at hour 3 is already given on line 1"},
	} {
		_, err := ParseCSV([]byte(c.in))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: got %v, want an *Error", c.in, err)
			continue
		}
		if e.Line != c.line || e.Field != c.field || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%q: got line %d field %q msg %q; want line %d field %q containing %q", c.in, e.Line, e.Field, e.Msg, c.line, c.field, c.msg)
		}
	}
}

func TestParseYAML(t *testing.T) {
	in := `rules:
  - name: morning rush
    classes: [primary, secondary]
    factor: 0.6
    days: mon-fri
    hours: "7-9"
  - kmh: 20
    area: {type: Polygon, coordinates: [[[-75.6, 39.7], [-75.5, 39.7], [-75.5, 39.8], [-75.6, 39.8], [-75.6, 39.7]]]}
    days: [sat, sunday]
    hours: "22-2, 12"
`
	d, err := ParseYAML([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Rules) != 2 || d.Format != "yaml" {
		t.Fatalf("got %+v", d)
	}
	r := d.Rules[0]
	if r.Name != "morning rush" || len(r.Classes) != 2 || r.Factor != 0.6 || r.Kmh != 0 || r.Area.Len() != 0 {
		t.Errorf("rule 0: %+v", r)
	}
	var want0 []int
	for day := 0; day < 5; day++ {
		want0 = append(want0, day*24+7, day*24+8)
	}
	checkHours(t, "rule 0", r.Hours, want0)
	r = d.Rules[1]
	if r.Kmh != 20 || r.Area.Len() != 1 || len(r.Classes) != 0 {
		t.Errorf("rule 1: %+v", r)
	}
	var want1 []int
	for _, day := range []int{5, 6} {
		for _, h := range []int{0, 1, 12, 22, 23} {
			want1 = append(want1, day*24+h)
		}
	}
	checkHours(t, "rule 1", r.Hours, want1)
	all, err := ParseYAML([]byte("rules: [{factor: 1.2, hours: '0-24'}]"))
	if err != nil {
		t.Fatal(err)
	}
	for h, on := range all.Rules[0].Hours {
		if !on {
			t.Errorf("0-24: hour %d off", h)
		}
	}
}

func checkHours(t *testing.T, name string, got [Hours]bool, want []int) {
	t.Helper()
	var w [Hours]bool
	for _, h := range want {
		w[h] = true
	}
	for h := range got {
		if got[h] != w[h] {
			t.Errorf("%s: hour %d is %v, want %v", name, h, got[h], w[h])
		}
	}
}

func TestParseYAMLErrors(t *testing.T) {
	for _, c := range []struct {
		in, field, msg string
		line           int
	}{
		{"rules: [{factor: 0.5, kmh: 20}]", "rules[0]", "exactly one of factor and kmh", 1},
		{"rules:\n  - classes: [primary]\n", "rules[0]", "exactly one of factor and kmh", 2},
		{"rules:\n  - factor: 0\n", "rules[0].factor", "out of range", 2},
		{"rules:\n  - kmh: -3\n", "rules[0].kmh", "out of range", 2},
		{"rules:\n  - kmh: 30\n    hours: '7-7'\n", "rules[0].hours", "not an hour range", 3},
		{"rules:\n  - kmh: 30\n    hours: '25'\n", "rules[0].hours", "not an hour range", 3},
		{"rules:\n  - kmh: 30\n    days: funday\n", "rules[0].days", "not a day", 3},
		{"rules:\n  - kmh: 30\n    speed: 3\n", "rules[0].speed", "not a member of a rule", 3},
		{"rules:\n  - kmh: 30\n    area: {type: Point, coordinates: [1, 2]}\n", "rules[0].area", "Polygon", 3},
		{"rules: []", "rules", "at least one rule", 1},
		{"segments: 3", "segments", "not a member", 1},
		{"rules: [", "file", "not YAML", 0},
	} {
		_, err := ParseYAML([]byte(c.in))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: got %v, want an *Error", c.in, err)
			continue
		}
		if e.Field != c.field || !strings.Contains(e.Msg, c.msg) || e.Line != c.line {
			t.Errorf("%q: got line %d field %q msg %q; want line %d field %q containing %q", c.in, e.Line, e.Field, e.Msg, c.line, c.field, c.msg)
		}
	}
}

func TestParseByName(t *testing.T) {
	if d, err := Parse("x.YML", []byte("rules: [{factor: 2}]")); err != nil || d.Format != "yaml" {
		t.Errorf("yaml: %v %v", d, err)
	}
	if d, err := Parse("x.csv", []byte("1,2,3")); err != nil || d.Format != "csv" {
		t.Errorf("csv: %v %v", d, err)
	}
}

// FuzzParseCSV: any input parses or fails with an *Error, never panics;
// a parsed row is in range.
func FuzzParseCSV(f *testing.F) {
	for _, s := range []string{"1,2,50\n", "1,2,50,1,167\n2,1,3", "from_osm_node,to_osm_node\n1,2,3,,0", "1,2,0", "#\n\n9,8,7.5,,", "1,2,3\n1,2,3"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseCSV(b)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Line <= 0 {
				t.Fatalf("error %v is not an *Error with a line", err)
			}
			return
		}
		for _, s := range d.Segments {
			if s.From <= 0 || s.To <= 0 || s.From == s.To || !(s.Kmh > 0 && s.Kmh <= MaxKmh) || s.Hour < AllHours || s.Hour >= Hours || s.Rate < 0 {
				t.Fatalf("bad segment %+v", s)
			}
		}
	})
}

// FuzzParseYAML: any input parses or fails with an *Error; a parsed
// rule has exactly one of factor and kmh.
func FuzzParseYAML(f *testing.F) {
	for _, s := range []string{"rules: [{factor: 0.6, classes: [primary], days: mon-fri, hours: '7-9'}]", "rules: [{kmh: 20, hours: [22-2, 5]}]", "rules:\n - kmh: 1\n   days: [sat]\n", "x: 1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseYAML(b)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		for _, r := range d.Rules {
			if (r.Kmh > 0) == (r.Factor > 0) {
				t.Fatalf("rule %+v", r)
			}
		}
	})
}
