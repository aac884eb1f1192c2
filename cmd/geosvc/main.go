// Command geosvc is the geosvc location platform: the REST API, the matrix
// workers, the data bundle builder and the key administration, as
// subcommands of one binary. Run `geosvc help` for the list and
// `geosvc COMMAND --help` for each command's flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// version is the program version, set at link time
// (-ldflags "-X main.version=...").
var version = "dev"

// command is one subcommand.
type command struct {
	summary string
	run     func(args []string) error
}

var commands = map[string]command{
	"serve":   {"API and workers in one process (embedded Redis without REDIS_URL)", runServe},
	"api":     {"the REST API only (needs REDIS_URL); pair with `geosvc worker`", runAPI},
	"worker":  {"matrix chunk workers only (needs REDIS_URL)", runWorker},
	"build":   {"build a data bundle from an OSM extract: build --osm FILE --out DIR", runBuild},
	"keys":    {"manage API keys: keys create|list|plans|set-plan|revoke|usage|statement", runKeys},
	"bench":   {"end-to-end matrix benchmark", runBench},
	"version": {"print the program and bundle versions", runVersion},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run dispatches args to a subcommand and returns the exit code.
func run(args []string, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "geosvc: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	err := cmd.run(args[1:])
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	}
	fmt.Fprintf(stderr, "geosvc %s: %v\n", args[0], err)
	return 1
}

// errUsage is returned after a usage message was printed for bad arguments.
var errUsage = errors.New("usage")

func usage(w io.Writer) {
	fmt.Fprintf(w, "geosvc %s: self-hostable location platform\n\nUsage: geosvc COMMAND [flags]\n\nCommands:\n", version)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "\nRun `geosvc COMMAND --help` for the flags of a command.\n")
}

// newFlagSet returns a FlagSet for a subcommand whose --help prints the
// synopsis, the description and the flags.
func newFlagSet(name, synopsis, description string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "Usage: geosvc %s\n\n%s\n", synopsis, description)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintf(out, "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parse parses args into fs, mapping bad arguments to errUsage. Flags may
// follow positional arguments ("keys usage ID --days 3"); the positional
// arguments are left in fs.Args().
func parse(fs *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return errUsage
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	// Leave the positional arguments where fs.Args sees them.
	return fs.Parse(append([]string{"--"}, positional...))
}
