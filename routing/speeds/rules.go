package speeds

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/geosvc/geosvc/routing/area"
)

// MaxRules is the most rules a YAML speed file holds.
const MaxRules = 1000

// dayNames are the days of the week in hour-of-week order.
var dayNames = [...]string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}

// ParseYAML reads the rule form:
//
//	rules:
//	  - name: morning rush           # optional
//	    classes: [primary, secondary] # OSM highway values; none: every road
//	    area: {type: Polygon, coordinates: [[[lon, lat], ...]]} # optional
//	    factor: 0.6                  # or kmh: 40 (exactly one)
//	    days: mon-fri                # or [mon, wed]; none: every day
//	    hours: "7-9"                 # 07:00-08:59; "22-6" wraps; none: all day
//
// Errors are *Error naming the line and the field (rules[i].member).
func ParseYAML(b []byte) (*Data, error) {
	if len(b) > MaxBytes {
		return nil, &Error{Field: "file", Msg: fmt.Sprintf("is %d bytes, more than the %d accepted", len(b), MaxBytes)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, &Error{Field: "file", Msg: "is not YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, &Error{Line: doc.Line, Field: "file", Msg: "must be a mapping with a rules list"}
	}
	top := doc.Content[0]
	var rules *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		k := top.Content[i]
		if k.Value != "rules" {
			return nil, &Error{Line: k.Line, Field: k.Value, Msg: "is not a member of a speed file (want rules)"}
		}
		rules = top.Content[i+1]
	}
	if rules == nil || rules.Kind != yaml.SequenceNode || len(rules.Content) == 0 {
		return nil, &Error{Line: top.Line, Field: "rules", Msg: "is required: a list of at least one rule"}
	}
	if len(rules.Content) > MaxRules {
		return nil, &Error{Line: rules.Line, Field: "rules", Msg: fmt.Sprintf("has %d rules, more than %d", len(rules.Content), MaxRules)}
	}
	d := &Data{Version: versionOf(b), Format: "yaml"}
	for i, n := range rules.Content {
		r, err := parseRule(n, fmt.Sprintf("rules[%d]", i))
		if err != nil {
			return nil, err
		}
		d.Rules = append(d.Rules, r)
	}
	return d, nil
}

// parseRule reads one rule mapping.
func parseRule(n *yaml.Node, path string) (Rule, error) {
	if n.Kind != yaml.MappingNode {
		return Rule{}, &Error{Line: n.Line, Field: path, Msg: "must be a mapping"}
	}
	r := Rule{}
	days, hours := allDays(), allHoursOfDay()
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		field := path + "." + k.Value
		bad := func(format string, args ...any) error {
			return &Error{Line: v.Line, Field: field, Msg: fmt.Sprintf(format, args...)}
		}
		switch k.Value {
		case "name":
			if v.Kind != yaml.ScalarNode {
				return Rule{}, bad("must be a string")
			}
			r.Name = v.Value
		case "classes":
			var cs []string
			if v.Kind == yaml.ScalarNode {
				cs = []string{v.Value}
			} else if err := v.Decode(&cs); err != nil || v.Kind != yaml.SequenceNode {
				return Rule{}, bad("must be a list of OSM highway values")
			}
			for _, c := range cs {
				c = strings.TrimSpace(c)
				if c == "" {
					return Rule{}, bad("holds an empty class")
				}
				r.Classes = append(r.Classes, c)
			}
		case "area":
			var obj any
			if err := v.Decode(&obj); err != nil {
				return Rule{}, bad("must be a GeoJSON Polygon or MultiPolygon")
			}
			js, err := json.Marshal(obj)
			if err != nil {
				return Rule{}, bad("must be a GeoJSON Polygon or MultiPolygon")
			}
			s, err := area.ParseGeoJSON(js)
			if err != nil {
				return Rule{}, bad("%v", err)
			}
			r.Area = s
		case "factor", "kmh":
			x, err := strconv.ParseFloat(v.Value, 64)
			if v.Kind != yaml.ScalarNode || err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return Rule{}, bad("%q is not a number", v.Value)
			}
			if k.Value == "factor" {
				if x <= 0 || x > 10 {
					return Rule{}, bad("%v is out of range (want > 0 and <= 10; 0.6 is 60 %% of the speed)", x)
				}
				r.Factor = x
			} else {
				if x <= 0 || x > MaxKmh {
					return Rule{}, bad("%v km/h is out of range (want > 0 and <= %d)", x, MaxKmh)
				}
				r.Kmh = x
			}
		case "days":
			ds, err := parseDays(v)
			if err != nil {
				return Rule{}, bad("%v", err)
			}
			days = ds
		case "hours":
			hs, err := parseHours(v)
			if err != nil {
				return Rule{}, bad("%v", err)
			}
			hours = hs
		default:
			return Rule{}, &Error{Line: k.Line, Field: field, Msg: "is not a member of a rule (want name, classes, area, factor, kmh, days, hours)"}
		}
	}
	if (r.Kmh > 0) == (r.Factor > 0) {
		return Rule{}, &Error{Line: n.Line, Field: path, Msg: "needs exactly one of factor and kmh"}
	}
	for day := 0; day < 7; day++ {
		for h := 0; h < 24; h++ {
			r.Hours[day*24+h] = days[day] && hours[h]
		}
	}
	return r, nil
}

func allDays() (d [7]bool) {
	for i := range d {
		d[i] = true
	}
	return d
}

func allHoursOfDay() (h [24]bool) {
	for i := range h {
		h[i] = true
	}
	return h
}

// parseDays reads "mon-fri", "sat", or a list of such.
func parseDays(v *yaml.Node) ([7]bool, error) {
	var items []string
	switch v.Kind {
	case yaml.ScalarNode:
		items = strings.Split(v.Value, ",")
	case yaml.SequenceNode:
		if err := v.Decode(&items); err != nil {
			return [7]bool{}, fmt.Errorf("must be days such as mon-fri or [sat, sun]")
		}
	default:
		return [7]bool{}, fmt.Errorf("must be days such as mon-fri or [sat, sun]")
	}
	var out [7]bool
	for _, it := range items {
		lo, hi, isRange := strings.Cut(strings.ToLower(strings.TrimSpace(it)), "-")
		a, b := dayIndex(lo), dayIndex(hi)
		if !isRange {
			b = a
		}
		if a < 0 || b < 0 {
			return [7]bool{}, fmt.Errorf("%q is not a day or a range of days (mon, tue, wed, thu, fri, sat, sun)", it)
		}
		for d := a; ; d = (d + 1) % 7 {
			out[d] = true
			if d == b {
				break
			}
		}
	}
	return out, nil
}

func dayIndex(s string) int {
	s = strings.TrimSpace(s)
	for i, n := range dayNames {
		if len(s) >= 3 && strings.HasPrefix(n, s[:3]) && strings.HasPrefix(fullDay(i), s) {
			return i
		}
	}
	return -1
}

func fullDay(i int) string {
	return [...]string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}[i]
}

// parseHours reads "7-9" (07:00 to 08:59), "22-6" (wrapping midnight),
// "17" (17:00-17:59), or a list of such.
func parseHours(v *yaml.Node) ([24]bool, error) {
	var items []string
	switch v.Kind {
	case yaml.ScalarNode:
		items = strings.Split(v.Value, ",")
	case yaml.SequenceNode:
		if err := v.Decode(&items); err != nil {
			return [24]bool{}, fmt.Errorf(`must be hour ranges such as "7-9" (07:00-08:59)`)
		}
	default:
		return [24]bool{}, fmt.Errorf(`must be hour ranges such as "7-9" (07:00-08:59)`)
	}
	var out [24]bool
	for _, it := range items {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(it), "-")
		a, errA := strconv.Atoi(strings.TrimSpace(lo))
		b, errB := a+1, error(nil)
		if isRange {
			b, errB = strconv.Atoi(strings.TrimSpace(hi))
		}
		if errA != nil || errB != nil || a < 0 || a > 23 || b < 0 || b > 24 || a == b {
			return [24]bool{}, fmt.Errorf(`%q is not an hour range such as "7-9" (from 0..23 to 1..24, end excluded; "22-6" wraps)`, it)
		}
		for h := a; ; h = (h + 1) % 24 {
			out[h] = true
			if (h+1)%24 == b%24 {
				break
			}
		}
	}
	return out, nil
}
