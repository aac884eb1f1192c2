// Package testenv decides what a test does when something it needs is not
// on the machine: a data file, a server, a client program. On a developer's
// machine the test is skipped with the reason; under CI=true (as .ci/run
// and most CI systems set it) it fails, so that CI never reports a green
// run whose real-data or real-service tests silently did not run.
package testenv

import (
	"fmt"
	"os"
	"testing"
)

// Required reports whether missing test prerequisites are failures: true
// when the environment variable CI is "true" (or "1").
func Required() bool {
	v := os.Getenv("CI")
	return v == "true" || v == "1"
}

// Skip skips tb with the formatted reason, or fails it with that reason
// when Required is true.
func Skip(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if Required() {
		tb.Fatalf("%s (CI=true: this prerequisite is required, not skipped)", msg)
		return
	}
	tb.Skip(msg)
}
