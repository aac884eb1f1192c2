package profile

// RoadType is the SOAP RoadType category of a road edge (SPEC.md,
// enumeration RoadType). The zero value is Defaultspeed.
type RoadType uint8

// RoadType values, in the order of the SOAP enumeration.
const (
	Defaultspeed RoadType = iota
	Motorway
	DualCarriageWay
	DualCarriageWayCity
	FederalHighway
	FederalHighwayCity
	RegionalRoad
	RegionalRoadCity
	LocalRoad
	LocalRoadCity
	OtherRoad
	OtherRoadCity
	FerryCar
	FerryCargo
	FerryTrain
)

var roadTypeNames = [...]string{
	"Defaultspeed", "Motorway", "DualCarriageWay", "DualCarriageWayCity",
	"FederalHighway", "FederalHighwayCity", "RegionalRoad", "RegionalRoadCity",
	"LocalRoad", "LocalRoadCity", "OtherRoad", "OtherRoadCity",
	"FerryCar", "FerryCargo", "FerryTrain",
}

// String returns the SOAP enumeration name of the road type.
func (r RoadType) String() string {
	if int(r) < len(roadTypeNames) {
		return roadTypeNames[r]
	}
	return "Defaultspeed"
}

// ParseRoadType returns the road type with the given SOAP name.
func ParseRoadType(s string) (RoadType, bool) {
	for i, n := range roadTypeNames {
		if n == s {
			return RoadType(i), true
		}
	}
	return Defaultspeed, false
}
