package routing

import (
	"fmt"
	"strings"
)

// Profile is the vehicle a metric routes for. Every profile listed here
// is parsed by ParseProfile, the one place the API's "profile" values are
// read: a new profile is a new constant and name.
type Profile uint8

const (
	// ProfileCar routes a car on the car graph (the default).
	ProfileCar Profile = iota
	// ProfileTruck routes a heavy goods vehicle of given dimensions: a
	// metric customized on the car graph's CCH (configs/truck.yaml).
	ProfileTruck
)

var profileNames = [...]string{"car", "truck"}

// String returns the profile's name: car or truck.
func (p Profile) String() string {
	if int(p) < len(profileNames) {
		return profileNames[p]
	}
	return "car"
}

// ProfileNames returns the names ParseProfile accepts, in order.
func ProfileNames() []string { return append([]string(nil), profileNames[:]...) }

// ParseProfile reads a profile name (any case; "" is car). An unknown
// name is a *SpecError of the field "profile" listing the names.
func ParseProfile(s string) (Profile, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	if v == "" {
		return ProfileCar, nil
	}
	for i, n := range profileNames {
		if v == n {
			return Profile(i), nil
		}
	}
	return ProfileCar, &SpecError{Field: "profile", Msg: fmt.Sprintf("%q is not a profile (want %s)", s, strings.Join(profileNames[:], " or "))}
}
