// Package configs holds geosvc's default configuration files and embeds
// them into the binary, so that a geosvc binary runs with no file beside it:
// geosvc.yaml (the service settings, every key documented), car.yaml,
// bicycle.yaml and foot.yaml (the routing profiles read by
// routing/profile), truck.yaml (the truck profile, a metric on the car
// graph), health.yaml (the health
// alert zone data sets read by geo/covid), world.yaml (the rules
// geo/world's generator applies to its sources), plans.yaml (the plans API
// keys belong to, read by package keys) and the other layers' tables.
package configs

import "embed"

// FS holds every YAML file of this folder, by base name.
//
//go:embed *.yaml
var FS embed.FS

// ServiceFile is the base name of the service configuration.
const ServiceFile = "geosvc.yaml"

// ProfileFile is the base name of the car routing profile.
const ProfileFile = "car.yaml"

// TruckProfileFile is the base name of the truck routing profile.
const TruckProfileFile = "truck.yaml"

// WorldFile is the base name of the world base layer's generation rules.
const WorldFile = "world.yaml"

// PlansFile is the base name of the plans of API keys.
const PlansFile = "plans.yaml"

// Plans returns the embedded default plans (plans.yaml).
func Plans() []byte { return mustRead(PlansFile) }

// Service returns the embedded default service configuration (geosvc.yaml).
func Service() []byte { return mustRead(ServiceFile) }

// CarProfile returns the embedded car routing profile (car.yaml), or an
// error when this build carries none.
func CarProfile() ([]byte, error) { return FS.ReadFile(ProfileFile) }

// TruckProfile returns the embedded truck routing profile (truck.yaml).
func TruckProfile() []byte { return mustRead(TruckProfileFile) }

// RoutingProfile returns the embedded routing profile NAME.yaml ("car",
// "bicycle", "foot"), or an error when this build carries none.
func RoutingProfile(name string) ([]byte, error) { return FS.ReadFile(name + ".yaml") }

func mustRead(name string) []byte {
	b, err := FS.ReadFile(name)
	if err != nil {
		panic("configs: embedded " + name + " missing: " + err.Error())
	}
	return b
}

// LegendsFS holds the map legends of the SOAP service (legends/NAME.yaml,
// a Map request's LegendFile).
//
//go:embed legends/*.yaml
var LegendsFS embed.FS
