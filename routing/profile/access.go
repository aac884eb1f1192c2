package profile

import "strings"

// Tags gives the value of an OSM tag, "" when absent. osm.Tags satisfies it.
type Tags interface {
	Find(key string) string
}

// MapTags is a Tags backed by a map, for tests and callers without osm.Tags.
type MapTags map[string]string

// Find returns the value of key, "" when absent.
func (m MapTags) Find(key string) string { return m[key] }

// Access is the outcome of an access decision.
type Access int8

// Access values.
const (
	// AccessUnset: no access tag of the hierarchy is present.
	AccessUnset Access = iota
	// AccessAllowed: the most specific access tag present allows cars.
	AccessAllowed
	// AccessDenied: the most specific access tag present excludes cars.
	AccessDenied
)

// String returns "unset", "allowed" or "denied".
func (a Access) String() string {
	switch a {
	case AccessAllowed:
		return "allowed"
	case AccessDenied:
		return "denied"
	}
	return "unset"
}

// AccessValue returns the value of the most specific tag of hierarchy that
// is present (motorcar before motor_vehicle before vehicle before access),
// lower-cased and cut to its first ";" part, and "" when none is.
func AccessValue(t Tags, hierarchy []string) string {
	for _, k := range hierarchy {
		v := t.Find(k)
		if i := strings.IndexByte(v, ';'); i >= 0 {
			v = v[:i]
		}
		if v = strings.ToLower(strings.TrimSpace(v)); v != "" {
			return v
		}
	}
	return ""
}

// DecideAccess decides car access from the tags: the most specific tag of
// hierarchy that is present wins; its value closes the element when it is
// in denied, and allows it otherwise (destination, yes, designated and
// unknown values allow).
func DecideAccess(t Tags, hierarchy []string, denied map[string]bool) Access {
	v := AccessValue(t, hierarchy)
	switch {
	case v == "":
		return AccessUnset
	case denied[v]:
		return AccessDenied
	}
	return AccessAllowed
}

// WayAccess decides car access on a way with the profile's hierarchy and
// denied values.
func (p *Profile) WayAccess(t Tags) Access {
	return DecideAccess(t, p.Access.Hierarchy, p.denied)
}
