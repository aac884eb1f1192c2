package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/geosvc/geosvc/bundle"
)

func runVersion(args []string) error {
	fs := newFlagSet("version", "version [--bundle]", "Print the program version, or with --bundle only the bundle version\n(what `make run` compares with data/manifest.json).")
	onlyBundle := fs.Bool("bundle", false, "print only the bundle version")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *onlyBundle {
		fmt.Fprintln(os.Stdout, bundle.Version())
		return nil
	}
	fmt.Fprintf(os.Stdout, "geosvc %s (bundle %s, %s)\n", version, bundle.Version(), runtime.Version())
	return nil
}
