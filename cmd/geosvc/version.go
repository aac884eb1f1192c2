package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/geosvc/geosvc/routing"
)

// bundleLayout is the version of the bundle directory layout (which files,
// the manifest); bump it when a layer is added or changes.
const bundleLayout = 1

// bundleVersion is the version of the bundles this binary writes and reads:
// the directory layout and the routing graph file format.
func bundleVersion() string {
	return fmt.Sprintf("%d.%d", bundleLayout, routing.FormatVersion())
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
