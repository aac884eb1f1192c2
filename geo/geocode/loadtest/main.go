// Command loadtest writes the seeded geocoder queries that run.sh feeds
// to wrk: one line per query, "ENCODED -", where ENCODED is the query
// escaped for a URL (spaces as +, commas kept) and "-" fills the second
// column that scripts/load/points.lua expects.
//
//	go run ./geo/geocode/loadtest -data data -n 10000 > queries.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/geosvc/geosvc/geo/geocode"
)

func main() {
	data := flag.String("data", "data", "bundle directory holding geocode.bin")
	n := flag.Int("n", 10000, "number of queries")
	seed := flag.Uint64("seed", 10000, "random seed")
	flag.Parse()
	ix, err := geocode.Load(*data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	written := 0
	for _, q := range ix.SampleQueries(*n, *seed) {
		e := strings.ReplaceAll(url.QueryEscape(q), "%2C", ",")
		if e == "" {
			continue
		}
		fmt.Fprintf(w, "%s -\n", e)
		written++
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "loadtest: %d queries\n", written)
}
