package routing

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/geosvc/geosvc/routing/profile"
)

// Vehicle is a truck's dimensions and load, as a truck metric uses them:
// the edges whose limits it exceeds, that ban its load or whose hgv
// access is no are closed, and no edge is driven faster than
// MaxSpeedKmh. Values are rounded to hundredths (cm, 10 kg, 0.01 km/h),
// so that Vehicle is comparable and its key canonical.
type Vehicle struct {
	HeightM, WidthM, LengthM float64
	WeightT, AxleLoadT       float64
	Hazmat                   bool
	MaxSpeedKmh              float64
}

// vehicleField is one field of a Vehicle: its API name, its short name
// in a metric's key, and where it is stored.
type vehicleField struct {
	name, short string
	get         func(v *Vehicle) *float64
	bound       func(b profile.TruckVehicle) float64
}

var vehicleFields = []vehicleField{
	{"height_m", "h", func(v *Vehicle) *float64 { return &v.HeightM }, func(b profile.TruckVehicle) float64 { return b.HeightM }},
	{"width_m", "w", func(v *Vehicle) *float64 { return &v.WidthM }, func(b profile.TruckVehicle) float64 { return b.WidthM }},
	{"length_m", "l", func(v *Vehicle) *float64 { return &v.LengthM }, func(b profile.TruckVehicle) float64 { return b.LengthM }},
	{"weight_t", "wt", func(v *Vehicle) *float64 { return &v.WeightT }, func(b profile.TruckVehicle) float64 { return b.WeightT }},
	{"axle_load_t", "ax", func(v *Vehicle) *float64 { return &v.AxleLoadT }, func(b profile.TruckVehicle) float64 { return b.AxleLoadT }},
	{"max_speed_kmh", "ms", func(v *Vehicle) *float64 { return &v.MaxSpeedKmh }, func(b profile.TruckVehicle) float64 { return b.MaxSpeedKmh }},
}

// hazmatField is the API name of Vehicle.Hazmat (key: hz0 or hz1).
const hazmatField = "hazmat"

// VehicleFieldNames returns the API names of the vehicle's fields.
func VehicleFieldNames() []string {
	out := make([]string, 0, len(vehicleFields)+1)
	for _, f := range vehicleFields[:5] {
		out = append(out, f.name)
	}
	return append(out, hazmatField, vehicleFields[5].name)
}

// DefaultVehicle returns the truck profile's default vehicle
// (configs/truck.yaml, vehicle).
func DefaultVehicle() Vehicle {
	d := profile.DefaultTruck().Vehicle
	return Vehicle{HeightM: round2(d.HeightM), WidthM: round2(d.WidthM), LengthM: round2(d.LengthM),
		WeightT: round2(d.WeightT), AxleLoadT: round2(d.AxleLoadT), Hazmat: d.Hazmat, MaxSpeedKmh: round2(d.MaxSpeedKmh)}
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// Set sets the field of API name name ("height_m", "hazmat", ...) from
// its text ("4.5", "true"), checking it: a number is > 0 and at most the
// profile's bound (configs/truck.yaml, bounds: height 6 m, weight 100 t,
// speed 130 km/h, ...); hazmat is true or false. Errors are *SpecError of
// the field "vehicle.<name>".
func (v *Vehicle) Set(name, text string) error {
	field := "vehicle." + name
	text = strings.TrimSpace(text)
	if name == hazmatField {
		switch strings.ToLower(text) {
		case "true", "1", "yes":
			v.Hazmat = true
		case "false", "0", "no":
			v.Hazmat = false
		default:
			return &SpecError{Field: field, Msg: fmt.Sprintf("%q is not true or false", text)}
		}
		return nil
	}
	for _, f := range vehicleFields {
		if f.name != name {
			continue
		}
		x, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return &SpecError{Field: field, Msg: fmt.Sprintf("%q is not a number", text)}
		}
		max := f.bound(profile.DefaultTruck().Bounds)
		if r := round2(x); !(r > 0) || r > max {
			return &SpecError{Field: field, Msg: fmt.Sprintf("%s is out of range (0, %s]", text, strconv.FormatFloat(max, 'g', -1, 64))}
		}
		*f.get(v) = round2(x)
		return nil
	}
	return &SpecError{Field: field, Msg: fmt.Sprintf("unknown vehicle field (want %s)", strings.Join(VehicleFieldNames(), ", "))}
}

// key returns the vehicle's part of a metric's key:
// "h4.11,w2.6,l21.64,wt36.29,ax9.07,hz0,ms100".
func (v Vehicle) key() string {
	var b strings.Builder
	for i, f := range vehicleFields {
		if i == 5 {
			b.WriteString(",hz")
			b.WriteString(map[bool]string{false: "0", true: "1"}[v.Hazmat])
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.short)
		b.WriteString(strconv.FormatFloat(*f.get(&v), 'g', -1, 64))
	}
	return b.String()
}

// parseVehicleKey reads a key's vehicle part (fields not given keep v's
// values).
func parseVehicleKey(v *Vehicle, s string) error {
	for _, kv := range strings.Split(s, ",") {
		if val, ok := strings.CutPrefix(kv, "hz"); ok {
			if err := v.Set(hazmatField, val); err != nil {
				return err
			}
			continue
		}
		found := false
		// Longest short names first: "wt" before "w".
		for _, f := range []vehicleField{vehicleFields[3], vehicleFields[4], vehicleFields[5], vehicleFields[0], vehicleFields[1], vehicleFields[2]} {
			if val, ok := strings.CutPrefix(kv, f.short); ok {
				if err := v.Set(f.name, val); err != nil {
					return err
				}
				found = true
				break
			}
		}
		if !found {
			return &SpecError{Field: "vehicle", Msg: fmt.Sprintf("%q is not a vehicle field of a key", kv)}
		}
	}
	return nil
}
