package api

import (
	"fmt"
	"slices"
	"strings"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/routing"
)

// profileValues are the routing profiles tdmv1's "profile" and routev1's
// profile= name, as the 400 of an unknown one lists them.
const profileValues = "car, truck, bicycle or foot"

// requestProfile is what a request's profile routes with: the graph of
// the bundle (car, bicycle or foot) and the vehicle of the metric on it
// (a truck is a metric on the car graph).
type requestProfile struct {
	graph   string
	vehicle routing.Profile
}

// String returns the profile's name as requests give it.
func (p requestProfile) String() string {
	if p.vehicle == routing.ProfileTruck {
		return "truck"
	}
	return p.graph
}

// parseProfile reads a routing profile value, the one parser of both
// interfaces: "" (absent) and car are the car; truck is the truck metric
// on the car graph; bicycle and foot are their own graphs. It returns
// the profile, or the reason the value is not one.
func parseProfile(v string) (requestProfile, string) {
	switch p := strings.ToLower(strings.TrimSpace(v)); p {
	case "", bundle.ProfileCar:
		return requestProfile{graph: bundle.ProfileCar}, ""
	case bundle.ProfileTruck:
		return requestProfile{graph: bundle.ProfileCar, vehicle: routing.ProfileTruck}, ""
	case bundle.ProfileBicycle, bundle.ProfileFoot:
		return requestProfile{graph: p}, ""
	}
	return requestProfile{}, fmt.Sprintf("unknown profile %s: want %s", quoteEcho(v), profileValues)
}

// profileMissing returns why bundle b cannot route the graph of profile
// p (it was not built with it: the message names the build flag that
// adds it), or "" when it can.
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
