package profile

import "strings"

// Oneway is the direction a car may drive a way, relative to the order of
// its nodes.
type Oneway int8

// Oneway values.
const (
	// OnewayNo: both directions.
	OnewayNo Oneway = iota
	// OnewayForward: only in way direction (oneway=yes).
	OnewayForward
	// OnewayBackward: only against way direction (oneway=-1).
	OnewayBackward
	// OnewayClosed: no direction (oneway=reversible, alternating).
	OnewayClosed
)

// String returns "no", "forward", "backward" or "closed".
func (o Oneway) String() string {
	switch o {
	case OnewayForward:
		return "forward"
	case OnewayBackward:
		return "backward"
	case OnewayClosed:
		return "closed"
	}
	return "no"
}

// Forward reports whether a car may drive in way direction.
func (o Oneway) Forward() bool { return o == OnewayNo || o == OnewayForward }

// Backward reports whether a car may drive against way direction.
func (o Oneway) Backward() bool { return o == OnewayNo || o == OnewayBackward }

// ParseOneway parses a oneway value. implied says whether the way is
// one-way without a tag (a motorway, a roundabout). "yes", "1", "true" give
// OnewayForward; "-1", "reverse" OnewayBackward; "no", "false", "0"
// OnewayNo even where implied (an explicit tag wins); "reversible" and
// "alternating" OnewayClosed. An empty or unknown value gives the implied
// direction: OnewayForward if implied, else OnewayNo. Case and surrounding
// space are ignored.
func ParseOneway(v string, implied bool) Oneway {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "yes", "1", "true":
		return OnewayForward
	case "-1", "reverse":
		return OnewayBackward
	case "no", "false", "0":
		return OnewayNo
	case "reversible", "alternating":
		return OnewayClosed
	}
	if implied {
		return OnewayForward
	}
	return OnewayNo
}
