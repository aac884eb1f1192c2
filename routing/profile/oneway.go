package profile

import "strings"

// onewayDir is the direction a car may drive a way, relative to the order of
// its nodes.
type onewayDir int8

// The one-way directions.
const (
	// onewayNo: both directions.
	onewayNo onewayDir = iota
	// onewayForward: only in way direction (oneway=yes).
	onewayForward
	// onewayBackward: only against way direction (oneway=-1).
	onewayBackward
	// onewayClosed: no direction (oneway=reversible, alternating).
	onewayClosed
)

// String returns "no", "forward", "backward" or "closed".
func (o onewayDir) String() string {
	switch o {
	case onewayForward:
		return "forward"
	case onewayBackward:
		return "backward"
	case onewayClosed:
		return "closed"
	}
	return "no"
}

// Forward reports whether a car may drive in way direction.
func (o onewayDir) Forward() bool { return o == onewayNo || o == onewayForward }

// Backward reports whether a car may drive against way direction.
func (o onewayDir) Backward() bool { return o == onewayNo || o == onewayBackward }

// parseOneway parses a oneway value. implied says whether the way is
// one-way without a tag (a motorway, a roundabout). "yes", "1", "true" give
// OnewayForward; "-1", "reverse" OnewayBackward; "no", "false", "0"
// OnewayNo even where implied (an explicit tag wins); "reversible" and
// "alternating" OnewayClosed. An empty or unknown value gives the implied
// direction: OnewayForward if implied, else OnewayNo. Case and surrounding
// space are ignored.
func parseOneway(v string, implied bool) onewayDir {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "yes", "1", "true":
		return onewayForward
	case "-1", "reverse":
		return onewayBackward
	case "no", "false", "0":
		return onewayNo
	case "reversible", "alternating":
		return onewayClosed
	}
	if implied {
		return onewayForward
	}
	return onewayNo
}
