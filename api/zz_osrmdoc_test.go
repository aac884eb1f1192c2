package api

import (
	"os"
	"testing"

	"github.com/geosvc/geosvc/routing/routingtest"
)

func TestZZOSRMDoc(t *testing.T) {
	g := routingtest.Extract(t, "delaware")
	s := newOSRMServer(t, g, OSRMLimits{})
	out := ""
	for _, p := range []string{
		"/osrm/route/v1/driving/-75.75,39.68;-75.55,39.74?exclude=toll&overview=false",
		"/osrm/route/v1/driving/-75.75,39.68;-75.55,39.74?avoid=toll&overview=false",
		"/osrm/route/v1/driving/-75.75,39.68;-75.55,39.74?exclude=motorway&overview=false",
		"/osrm/route/v1/driving/-75.75,39.68;-75.55,39.74?routing=shortest&overview=false",
		"/osrm/route/v1/driving/-75.75,39.68;-75.55,39.74?alternatives=2&overview=false",
	} {
		code, body := s.get(t, p)
		out += p + "\n" + string(rune('0'+code/100)) + "\n" + body + "\n\n"
	}
	os.WriteFile("/tmp/osrmdoc.txt", []byte(out), 0o644)
}
