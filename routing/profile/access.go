package profile

import "strings"

// Tags gives the value of an OSM tag, "" when absent. osm.Tags satisfies it.
type Tags interface {
	Find(key string) string
}

// accessDecision is the outcome of an access decision.
type accessDecision int8

// The access decisions.
const (
	// accessUnset: no access tag of the hierarchy is present.
	accessUnset accessDecision = iota
	// accessAllowed: the most specific access tag present allows cars.
	accessAllowed
	// accessDenied: the most specific access tag present excludes cars.
	accessDenied
)

// String returns "unset", "allowed" or "denied".
func (a accessDecision) String() string {
	switch a {
	case accessAllowed:
		return "allowed"
	case accessDenied:
		return "denied"
	}
	return "unset"
}

// accessValue returns the value of the most specific tag of hierarchy that
// is present (motorcar before motor_vehicle before vehicle before access),
// lower-cased and cut to its first ";" part, and "" when none is.
func accessValue(t Tags, hierarchy []string) string {
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

// decideAccess decides car access from the tags: the most specific tag of
// hierarchy that is present wins; its value closes the element when it is
// in denied, and allows it otherwise (destination, yes, designated and
// unknown values allow).
func decideAccess(t Tags, hierarchy []string, denied map[string]bool) accessDecision {
	v := accessValue(t, hierarchy)
	switch {
	case v == "":
		return accessUnset
	case denied[v]:
		return accessDenied
	}
	return accessAllowed
}

// wayAccess decides car access on a way with the profile's hierarchy and
// denied values.
func (p *Profile) wayAccess(t Tags) accessDecision {
	return decideAccess(t, p.Access.Hierarchy, p.denied)
}
