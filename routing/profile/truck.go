package profile

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/geosvc/geosvc/configs"
)

var (
	defaultTruckOnce sync.Once
	defaultTruck     *Truck
)

// DefaultTruck returns the embedded truck profile (configs/truck.yaml),
// parsed once. It panics if the embedded file is invalid (a build
// error: its tests parse it).
func DefaultTruck() *Truck {
	defaultTruckOnce.Do(func() {
		p, err := ParseTruck(configs.TruckProfile())
		if err != nil {
			panic("profile: embedded " + configs.TruckProfileFile + ": " + err.Error())
		}
		defaultTruck = p
	})
	return defaultTruck
}

// HGVAccess is what a way's access tags say of heavy goods vehicles in
// one direction.
type HGVAccess uint8

// HGVAccess values.
const (
	// HGVUnset: no tag of the truck hierarchy is present: open.
	HGVUnset HGVAccess = iota
	// HGVYes: open (yes, permissive and any value not listed).
	HGVYes
	// HGVDesignated: hgv=designated, a truck route.
	HGVDesignated
	// HGVDestination: open to reach or leave a place only (the truck
	// profile's access.destination values: destination, delivery,
	// customers).
	HGVDestination
	// HGVNo: closed to trucks (access.denied: no, private, ...).
	HGVNo
)

var hgvAccessNames = [...]string{"unset", "yes", "designated", "destination", "no"}

// String returns unset, yes, designated, destination or no.
func (a HGVAccess) String() string {
	if int(a) < len(hgvAccessNames) {
		return hgvAccessNames[a]
	}
	return "unset"
}

// TruckTags is what a car way's tags say to trucks: access per
// direction, the dimension limits (0 = none; BelowDefault values are
// stored as 1, which every vehicle exceeds) and hazmat bans.
type TruckTags struct {
	Fwd, Bwd                    HGVAccess
	HeightCm, WidthCm, LengthCm uint32
	WeightKg, AxleLoadKg        uint32
	HazmatNo, HazmatWaterNo     bool
	// Unparsed counts the limit tags present whose value is garbage
	// (ignored).
	Unparsed int
}

// HasLimit reports whether any dimension limit is set.
func (t TruckTags) HasLimit() bool {
	return t.HeightCm|t.WidthCm|t.LengthCm|t.WeightKg|t.AxleLoadKg != 0
}

// Truck is the truck profile (configs/truck.yaml): the rules that read
// the truck tags of car ways at build time (Tags) and the speeds, the
// destination penalty and the default vehicle that customize a truck
// metric on the car graph. It is read-only after ParseTruck.
type Truck struct {
	// Name names the profile ("truck").
	Name string `yaml:"name"`
	// HighwaySpeedsKmh caps the speed per highway class.
	HighwaySpeedsKmh map[string]float64 `yaml:"highway_speeds_kmh"`
	// Access says which hgv access values close a way or make it
	// destination-only.
	Access TruckAccess `yaml:"access"`
	// Tags lists the keys read for each limit, every one present
	// counting (the lowest limit wins).
	Tags TruckTagKeys `yaml:"tags"`
	// DestinationPenaltyS is added to a turn from an edge that is not
	// destination-only onto one that is.
	DestinationPenaltyS float64 `yaml:"destination_penalty_s"`
	// Vehicle is the default vehicle: a request's missing fields.
	Vehicle TruckVehicle `yaml:"vehicle"`
	// Bounds are the largest values a request may give.
	Bounds TruckVehicle `yaml:"bounds"`

	denied, destination set
}

// TruckAccess are the hgv access rules.
type TruckAccess struct {
	// Hierarchy lists access tags from most to least specific.
	Hierarchy []string `yaml:"hierarchy"`
	// Denied lists the values that close a way to trucks.
	Denied []string `yaml:"denied"`
	// Destination lists the values that open a way to trucks only to
	// reach or leave a place on it.
	Destination []string `yaml:"destination"`
}

// TruckTagKeys are the keys read for each limit.
type TruckTagKeys struct {
	Height   []string `yaml:"height"`
	Width    []string `yaml:"width"`
	Length   []string `yaml:"length"`
	Weight   []string `yaml:"weight"`
	AxleLoad []string `yaml:"axle_load"`
	// Hazmat lists the keys whose "no" bans hazardous loads; HazmatWater
	// the keys whose "no" bans water-polluting loads.
	Hazmat      []string `yaml:"hazmat"`
	HazmatWater []string `yaml:"hazmat_water"`
}

// TruckVehicle is a vehicle's dimensions, in the units of the API.
type TruckVehicle struct {
	HeightM     float64 `yaml:"height_m"`
	WidthM      float64 `yaml:"width_m"`
	LengthM     float64 `yaml:"length_m"`
	WeightT     float64 `yaml:"weight_t"`
	AxleLoadT   float64 `yaml:"axle_load_t"`
	Hazmat      bool    `yaml:"hazmat"`
	MaxSpeedKmh float64 `yaml:"max_speed_kmh"`
}

// ParseTruck parses and validates a truck profile. Unknown keys are
// errors.
func ParseTruck(yamlBytes []byte) (*Truck, error) {
	dec := yaml.NewDecoder(bytes.NewReader(yamlBytes))
	dec.KnownFields(true)
	p := &Truck{}
	if err := dec.Decode(p); err != nil {
		return nil, fmt.Errorf("truck profile: %w", err)
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if p.Name == "" {
		bad("name is missing")
	}
	if len(p.HighwaySpeedsKmh) == 0 {
		bad("highway_speeds_kmh is empty")
	}
	for _, k := range sortedKeys(p.HighwaySpeedsKmh) {
		if v := p.HighwaySpeedsKmh[k]; !(v > 0) || math.IsInf(v, 0) {
			bad("highway_speeds_kmh.%s must be a positive number, got %v", k, v)
		}
	}
	if len(p.Access.Hierarchy) == 0 {
		bad("access.hierarchy is empty")
	}
	if p.DestinationPenaltyS < 0 {
		bad("destination_penalty_s must be >= 0, got %v", p.DestinationPenaltyS)
	}
	v, b := p.Vehicle, p.Bounds
	for _, f := range []struct {
		name     string
		val, max float64
	}{
		{"height_m", v.HeightM, b.HeightM}, {"width_m", v.WidthM, b.WidthM}, {"length_m", v.LengthM, b.LengthM},
		{"weight_t", v.WeightT, b.WeightT}, {"axle_load_t", v.AxleLoadT, b.AxleLoadT}, {"max_speed_kmh", v.MaxSpeedKmh, b.MaxSpeedKmh},
	} {
		if !(f.max > 0) || math.IsInf(f.max, 0) {
			bad("bounds.%s must be a positive number, got %v", f.name, f.max)
		}
		if !(f.val > 0) || f.val > f.max {
			bad("vehicle.%s must be in (0, %v], got %v", f.name, f.max, f.val)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("truck profile %q: %w", p.Name, errors.Join(errs...))
	}
	p.denied = toSet(p.Access.Denied)
	p.destination = toSet(p.Access.Destination)
	return p, nil
}

// TruckTags reads what a car way's tags say to trucks: access per
// direction (key:forward and key:backward before key, for each key of
// the hierarchy in order; the first present decides), the lowest limit
// of each dimension's keys, and the hazmat bans.
func (p *Truck) TruckTags(t Tags) TruckTags {
	var tt TruckTags
	tt.Fwd = p.hgvAccess(t, ":forward")
	tt.Bwd = p.hgvAccess(t, ":backward")
	tt.HeightCm = lowest(t, p.Tags.Height, ParseLength, &tt.Unparsed)
	tt.WidthCm = lowest(t, p.Tags.Width, ParseLength, &tt.Unparsed)
	tt.LengthCm = lowest(t, p.Tags.Length, ParseLength, &tt.Unparsed)
	tt.WeightKg = lowest(t, p.Tags.Weight, ParseWeight, &tt.Unparsed)
	tt.AxleLoadKg = lowest(t, p.Tags.AxleLoad, ParseWeight, &tt.Unparsed)
	tt.HazmatNo = anyNo(t, p.Tags.Hazmat)
	tt.HazmatWaterNo = anyNo(t, p.Tags.HazmatWater)
	return tt
}

// hgvAccess decides truck access in one direction (suffix ":forward" or
// ":backward").
func (p *Truck) hgvAccess(t Tags, suffix string) HGVAccess {
	for _, k := range p.Access.Hierarchy {
		v := firstValue(t.Find(k + suffix))
		if v == "" {
			v = firstValue(t.Find(k))
		}
		switch {
		case v == "":
			continue
		case p.denied[v]:
			return HGVNo
		case p.destination[v]:
			return HGVDestination
		case v == "designated":
			return HGVDesignated
		}
		return HGVYes
	}
	return HGVUnset
}

// lowest returns the lowest limit the keys give (0: none); below_default
// is 1. It counts the values present but unparsable in bad.
func lowest(t Tags, keys []string, parse func(string) (Limit, bool), bad *int) uint32 {
	var out uint32
	for _, k := range keys {
		raw := t.Find(k)
		l, ok := parse(raw)
		if !ok {
			if raw != "" {
				*bad++
			}
			continue
		}
		v := l.Value
		if l.BelowDefault {
			v = 1
		}
		if v > 0 && (out == 0 || v < out) {
			out = v
		}
	}
	return out
}

// anyNo reports whether one of the keys is "no".
func anyNo(t Tags, keys []string) bool {
	for _, k := range keys {
		if firstValue(t.Find(k)) == "no" {
			return true
		}
	}
	return false
}
