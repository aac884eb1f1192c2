package zip4

import "strings"

// ParseTigerZips returns the ZIP5 codes of a tiger:zip_left or
// tiger:zip_right value, in the order written. TIGER's OSM import wrote
// several codes of one side as a list: "19703:19802" in the Delaware
// extract, "19901;19904" elsewhere, so ':', ';' and ',' all separate
// entries. A range "19701-19703" is read as its two ends (the codes in
// between are not known to be on the street). A ZIP+4 written "19901-1234"
// counts as its ZIP5. Entries that are not five digits after trimming
// ("MD 367" in the Delaware extract) are dropped; duplicates are kept once.
func ParseTigerZips(v string) []string {
	var out []string
	add := func(z string) {
		z = strings.TrimSpace(z)
		if !isDigits(z, 5) {
			return
		}
		for _, o := range out {
			if o == z {
				return
			}
		}
		out = append(out, z)
	}
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ';' || r == ',' }) {
		part = strings.TrimSpace(part)
		if a, b, ok := strings.Cut(part, "-"); ok {
			a, b = strings.TrimSpace(a), strings.TrimSpace(b)
			if isDigits(a, 5) && isDigits(b, 4) { // ZIP+4
				add(a)
				continue
			}
			add(a)
			add(b)
			continue
		}
		add(part)
	}
	return out
}

// isDigits reports whether s is exactly n ASCII digits.
func isDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ValidZip9 reports whether s is a ZIP+4 code written as exactly nine
// digits.
func ValidZip9(s string) bool { return isDigits(s, 9) }
