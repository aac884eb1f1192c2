package api

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/geosvc/geosvc/routing"
)

// vehicleWant describes the vehicle object for error messages.
func vehicleWant() string {
	return "an object of " + strings.Join(routing.VehicleFieldNames(), ", ") + " (hazmat a boolean, the others numbers)"
}

// parseProfileVehicle sets on spec the vehicle of tdmv1's "profile" (a
// truck for "truck"; parseOrderProfile reports a bad profile, here it
// only skips the vehicle) and reads "vehicle" (profile truck only;
// missing fields take the truck profile's defaults).
func parseProfileVehicle(rawProfile, rawVehicle json.RawMessage, spec *routing.Metric, errs []fieldError) []fieldError {
	var s string
	if !isNull(rawProfile) && json.Unmarshal(rawProfile, &s) != nil {
		return errs
	}
	rp, bad := parseProfile(s)
	if bad != "" {
		return errs
	}
	prof := rp.vehicle
	spec.SetProfile(prof)
	if isNull(rawVehicle) {
		return errs
	}
	if prof != routing.ProfileTruck {
		return append(errs, fieldError{"vehicle", `is only for "profile": "truck"`})
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(rawVehicle, &fields); err != nil || fields == nil {
		return append(errs, fieldError{"vehicle", "must be " + vehicleWant()})
	}
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		raw := fields[n]
		var text string
		var b bool
		var num json.Number
		switch {
		case n == "hazmat":
			if err := json.Unmarshal(raw, &b); err != nil {
				errs = append(errs, fieldError{"vehicle.hazmat", "must be true or false"})
				continue
			}
			text = fmt.Sprint(b)
		case json.Unmarshal(raw, &num) == nil && !strings.HasPrefix(string(raw), `"`):
			text = num.String()
		default:
			text = string(raw)
			if known(n) {
				errs = append(errs, fieldError{"vehicle." + n, "must be a number"})
				continue
			}
		}
		if err := spec.Vehicle.Set(n, text); err != nil {
			errs = append(errs, specFieldError(err, "vehicle."+n))
		}
	}
	return errs
}

// known reports whether n names a vehicle field.
func known(n string) bool {
	for _, f := range routing.VehicleFieldNames() {
		if f == n {
			return true
		}
	}
	return false
}

// routeProfileOf reads routev1's profile and vehicle parameters
// ("height_m:4.5,weight_t:40,hazmat:true", the syntax of speeds) into
// spec; it returns a message naming the bad parameter.
func routeProfileOf(q url.Values, spec *routing.Metric) string {
	rp, msg := parseProfile(q.Get("profile"))
	if msg != "" {
		return "profile: " + msg
	}
	p := rp.vehicle
	spec.SetProfile(p)
	v := strings.TrimSpace(q.Get("vehicle"))
	if v == "" && !q.Has("vehicle") {
		return ""
	}
	if p != routing.ProfileTruck {
		return "vehicle is only for profile=truck"
	}
	if strings.Contains(v, ";") {
		return "vehicle: fields are separated by ',', not ';' (e.g. vehicle=height_m:4.5,weight_t:40,hazmat:true)"
	}
	seen := map[string]bool{}
	for _, kv := range strings.Split(v, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(kv), ":")
		if !ok {
			return fmt.Sprintf("vehicle: %s is not field:value (e.g. vehicle=height_m:4.5,weight_t:40,hazmat:true)", quoteEcho(kv))
		}
		name = strings.TrimSpace(name)
		if seen[name] {
			return fmt.Sprintf("vehicle.%s: given twice", name)
		}
		seen[name] = true
		if err := spec.Vehicle.Set(name, val); err != nil {
			return err.Error()
		}
	}
	return ""
}

// vehicleJSON is a truck's vehicle as routev1 answers it.
type vehicleJSON struct {
	HeightM     float64 `json:"height_m"`
	WidthM      float64 `json:"width_m"`
	LengthM     float64 `json:"length_m"`
	WeightT     float64 `json:"weight_t"`
	AxleLoadT   float64 `json:"axle_load_t"`
	Hazmat      bool    `json:"hazmat"`
	MaxSpeedKmh float64 `json:"max_speed_kmh"`
}

// vehicleOf returns a truck metric's vehicle, nil for a car.
func vehicleOf(m routing.Metric) *vehicleJSON {
	if m.Profile != routing.ProfileTruck {
		return nil
	}
	v := m.Vehicle
	return &vehicleJSON{v.HeightM, v.WidthM, v.LengthM, v.WeightT, v.AxleLoadT, v.Hazmat, v.MaxSpeedKmh}
}
