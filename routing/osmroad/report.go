package osmroad

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
)

// String returns the report as readable lines.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "read      %d nodes, %d ways, %d relations\n", r.NodesRead, r.WaysRead, r.RelationsRead)
	fmt.Fprintf(&b, "car ways  %d (%d ferries)\n", r.CarWays, r.Ferries)
	fmt.Fprintf(&b, "network   %d vertices, %d edges, %d shape points\n", r.Vertices, r.Edges, r.ShapePoints)
	fmt.Fprintf(&b, "nodes     %d traffic signals, %d barriers\n", r.TrafficSignals, r.Barriers)
	fmt.Fprintf(&b, "turn restrictions  %d read: %d applied (%d via way), %d not for this vehicle, %d conditional (ignored), %d skipped\n",
		r.RestrictionsRead, r.RestrictionsApplied, r.RestrictionsViaWay, r.RestrictionsNotCar, r.RestrictionsConditional, r.RestrictionsSkipped)
	if r.RestrictionsTimed > 0 || len(r.CondRestrictionSkipped) > 0 {
		fmt.Fprintf(&b, "conditional turn restrictions  %d applied by time (with departure times)", r.RestrictionsTimed)
		if len(r.CondRestrictionSkipped) > 0 {
			var parts []string
			for _, k := range slices.Sorted(maps.Keys(r.CondRestrictionSkipped)) {
				parts = append(parts, fmt.Sprintf("%d %s", r.CondRestrictionSkipped[k], k))
			}
			fmt.Fprintf(&b, "; conditions that are not times skipped: %s", strings.Join(parts, ", "))
		}
		b.WriteString("\n")
	}
	if r.CondMaxspeedWays > 0 || r.CondMaxspeedSkipped > 0 {
		fmt.Fprintf(&b, "conditional maxspeeds  %d ways (applied by the hour with departure times), %d parts that are not times skipped\n", r.CondMaxspeedWays, r.CondMaxspeedSkipped)
	}
	if r.DrivingSidesIgnored > 0 {
		fmt.Fprintf(&b, "driving side  %d country relations ignored (no ISO 3166-1 code, or not left or right)\n", r.DrivingSidesIgnored)
	}
	fmt.Fprintf(&b, "street names  %d in other languages (name:xx) for %d names, %d languages, %.1f KiB in the routing file; %d ways disagree with the first way of their name (the first kept)\n",
		r.LocalNames, r.LocalNamed, r.LocalNameLangs, float64(r.LocalNameBytes)/1024, r.LocalNameConflicts)
	fmt.Fprintf(&b, "%s\n", r.Truck)
	fmt.Fprintf(&b, "time      %v, peak RSS %s", r.Duration.Round(1e6), mib(r.PeakRSSBytes))
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "\nwarning   %s", w)
	}
	return b.String()
}

func mib(n uint64) string {
	if n == 0 {
		return "unknown"
	}
	return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
}

// peakRSS returns the process's peak resident set size (VmHWM in
// /proc/self/status) in bytes, 0 where unavailable.
func peakRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
