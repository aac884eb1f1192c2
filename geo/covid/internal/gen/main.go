// Command gen writes geo/covid/covid.bin, the committed snapshot of the
// health layer: the COVID-19 data set of configs/health.yaml built from
// the JHU CSSE and NYC DOHMH files (by default shared/data/covid beside
// the repository, or $GEOSVC_SHARED_DATA/covid). It refuses to write a
// snapshot holding data of a source that is not redistributable (NYT).
// Run it with `go generate ./geo/covid`.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/geosvc/geosvc/geo/covid"
	"github.com/geosvc/geosvc/internal/shareddata"
)

func main() {
	data := flag.String("data", shareddata.Path("covid"), "directory holding jhu/ and nyc/ (shared/data/covid)")
	config := flag.String("config", "", "health.yaml to use (default: the embedded configs/health.yaml)")
	out := flag.String("out", covid.SnapshotFile, "file to write")
	flag.Parse()

	opts := covid.BuildOptions{DataDir: *data}
	if *config != "" {
		b, err := os.ReadFile(*config)
		if err != nil {
			log.Fatal(err)
		}
		opts.ConfigYAML = b
	}
	start := time.Now()
	l, rep, err := covid.Build(opts)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range l.Sources() {
		if !s.Redistributable {
			log.Fatalf("source %s (%s) may not be shipped in the snapshot", s.Name, s.Licence)
		}
	}
	if err := l.Save(*out); err != nil {
		log.Fatal(err)
	}
	fi, err := os.Stat(*out)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(rep)
	fmt.Printf("wrote %s: %d bytes in %v\n", *out, fi.Size(), time.Since(start).Round(time.Millisecond))
}
