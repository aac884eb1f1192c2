package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/geosvc/geosvc/routing"
)

// bundleLayout is the version of the bundle directory layout (which files,
// the manifest); bump it when a layer is added or changes.
const bundleLayout = 1

// bundleVersion is the version of the bundles this binary writes and reads:
// the directory layout, the routing graph file format, and the data layers
// with their own format versions ("1.2+boundary/1,zip4/1"), so that a
// binary with another set of layers, or a layer of another format, sees an
// older bundle as stale and `make run` rebuilds it.
func bundleVersion() string {
	v := fmt.Sprintf("%d.%d", bundleLayout, routing.FormatVersion())
	var parts []string
	for _, l := range sortedLayers() {
		parts = append(parts, fmt.Sprintf("%s/%d", l.name, l.version))
	}
	if len(parts) > 0 {
		v += "+" + strings.Join(parts, ",")
	}
	return v
}

func runVersion(args []string) error {
	fs := newFlagSet("version", "version [--bundle]", "Print the program version, or with --bundle only the bundle version\n(what `make run` compares with data/manifest.json).")
	onlyBundle := fs.Bool("bundle", false, "print only the bundle version")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *onlyBundle {
		fmt.Fprintln(os.Stdout, bundleVersion())
		return nil
	}
	fmt.Fprintf(os.Stdout, "geosvc %s (bundle %s, %s)\n", version, bundleVersion(), runtime.Version())
	return nil
}
