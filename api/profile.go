package api

import (
	"fmt"
	"slices"
	"strings"

	"github.com/geosvc/geosvc/bundle"
)

// profileValues are the routing profiles tdmv1's "profile" and routev1's
// profile= name, as the 400 of an unknown one lists them.
const profileValues = "car, truck, bicycle or foot"

// parseProfile reads a routing profile value: "" (absent) is the car;
// car, bicycle and foot are themselves; truck is not yet available. It
// returns the profile, or the reason the value is not one.
func parseProfile(v string) (string, string) {
	switch p := strings.ToLower(strings.TrimSpace(v)); p {
	case "", bundle.ProfileCar:
		return bundle.ProfileCar, ""
	case bundle.ProfileBicycle, bundle.ProfileFoot:
		return p, ""
	case bundle.ProfileTruck:
		return "", `"truck" is not yet available: use car, bicycle or foot`
	}
	return "", fmt.Sprintf("unknown profile %s: want %s", quoteEcho(v), profileValues)
}

// profileMissing returns why bundle b cannot route profile p (it was not
// built with it: the message names the build flag that adds it), or ""
// when it can.
func profileMissing(b *bundle.Bundle, p string) string {
	have := b.Profiles()
	if slices.Contains(have, p) {
		return ""
	}
	want := []string{}
	for _, q := range []string{bundle.ProfileCar, bundle.ProfileBicycle, bundle.ProfileFoot} {
		if q == p || slices.Contains(have, q) {
			want = append(want, q)
		}
	}
	return fmt.Sprintf("%q is not in this bundle: build it with geosvc build --profiles %s", p, strings.Join(want, ","))
}
