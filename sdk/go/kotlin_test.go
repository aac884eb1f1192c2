package geosvc_test

import (
	"os"
	"os/exec"
	"testing"
)

// kotlinDir is the Kotlin (Android and JVM) SDK, tested here against this
// package's server.
const kotlinDir = "../kotlin"

// TestKotlinSDK builds the Kotlin SDK and its tests with Debian's kotlinc
// (sdk/kotlin/build.sh: one compiler run, build/geosvc-kotlin.jar; javac
// for the checks of its Java face) and
// runs them on java against the package's geosvc server, with
// GEOSVC_TEST_URL and GEOSVC_TEST_KEY: the JSON reader's and the models'
// tests (truncated and mutated answers), the client against a scripted
// server of the JDK (retries, quota, cancellation, callbacks), and every
// call against the live server. No kotlinc or java on the PATH: skipped,
// or failed under CI=true.
func TestKotlinSDK(t *testing.T) {
	for _, tool := range []string{"kotlinc", "java", "javac", "jar"} {
		if _, err := exec.LookPath(tool); err != nil {
			need(t, "%s is not installed (Debian: apt-get install kotlin openjdk-17-jdk-headless) to build and test the Kotlin SDK", tool)
		}
	}
	if _, err := os.Stat("/usr/share/java/kotlin-stdlib.jar"); err != nil && os.Getenv("KOTLIN_STDLIB") == "" {
		need(t, "no Kotlin standard library at /usr/share/java/kotlin-stdlib.jar (Debian's kotlin) and no KOTLIN_STDLIB")
	}
	t.Parallel()
	// Compile (a minute or two on a loaded machine) while the server loads its bundle.
	build := exec.Command("sh", "build.sh")
	build.Dir = kotlinDir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("sh build.sh: %v\n%s", err, out)
	}
	base := testServer(t)
	run := exec.Command("java", "-cp", "build/classes:"+stdlib(), "io.github.geosvc.tests.HarnessKt")
	run.Dir = kotlinDir
	run.Env = append(os.Environ(), "GEOSVC_TEST_URL="+base, "GEOSVC_TEST_KEY="+demoKey)
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("Kotlin SDK tests: %v\n%s", err, out)
	}
	t.Logf("Kotlin SDK tests:\n%s", out)
}

func stdlib() string {
	if p := os.Getenv("KOTLIN_STDLIB"); p != "" {
		return p
	}
	return "/usr/share/java/kotlin-stdlib.jar"
}
