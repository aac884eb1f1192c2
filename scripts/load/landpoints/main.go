// Command landpoints writes seeded random points on land world-wide, one
// "lon lat" line each, for scripts/load/run.sh's POINTS:
//
//	go run ./scripts/load/landpoints -n 10000 > /tmp/land.txt
//	POINTS=/tmp/land.txt make load LOAD='/adminv1/xy2admininfo?x={x}&y={y}&type=admin0'
//
// The points are those of geo/world's BenchmarkLookup (seed 1): uniform
// in longitude and latitude, kept when a country of the world base layer
// contains them.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"strconv"

	"github.com/geosvc/geosvc/geo/world"
)

func main() {
	n := flag.Int("n", 10000, "number of points")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *n < 1 || flag.NArg() > 0 {
		log.Fatalf("landpoints: -n must be 1 or more, got %d (usage: landpoints [-n N] [-seed S])", *n)
	}
	ix, err := world.Lookup()
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriter(os.Stdout)
	for _, p := range ix.LandPoints(*n, *seed) {
		fmt.Fprintf(w, "%s %s\n", strconv.FormatFloat(p[0], 'f', 6, 64), strconv.FormatFloat(p[1], 'f', 6, 64))
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
}
