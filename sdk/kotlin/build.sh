#!/bin/sh
# Builds the Kotlin SDK with Debian's kotlinc and the JDK only (no Gradle,
# no downloads): the library and its tests in one kotlinc invocation (the
# compiler is slow to start) into build/classes, then the library alone
# into build/geosvc-kotlin.jar, the jar an app adds (with the Kotlin
# standard library it already has).
#
#   sh build.sh            build
#   sh build.sh test [RE]  build, then run the tests (those whose name
#                          matches the regexp RE); the live ones need
#                          GEOSVC_TEST_URL and GEOSVC_TEST_KEY (sdk/go's
#                          TestKotlinSDK starts a server and sets them)
set -eu
cd "$(dirname "$0")"
KOTLINC=${KOTLINC:-kotlinc}
STDLIB=${KOTLIN_STDLIB:-/usr/share/java/kotlin-stdlib.jar}

rm -rf build/classes
mkdir -p build/classes
# -jvm-target 1.6 (kotlinc 1.3's default): bytecode every Android D8 reads.
"$KOTLINC" -nowarn -module-name geosvc -jvm-target 1.6 -no-reflect -d build/classes src test 2>&1 |
	grep -v -e 'Options -Xverify:none and -noverify were deprecated' >&2 || true
[ -f build/classes/io/github/geosvc/GeosvcClient.class ] || { echo "build.sh: kotlinc failed" >&2; exit 1; }
[ -f build/classes/io/github/geosvc/tests/HarnessKt.class ] || { echo "build.sh: kotlinc failed (tests)" >&2; exit 1; }
# The Java checks of the SDK's Java face (test/**/*.java: kotlinc resolved them above).
javac -nowarn --release 8 -cp "build/classes:$STDLIB" -d build/classes test/io/github/geosvc/tests/*.java 2>&1 |
	grep -v -e 'bootstrap classpath' -e 'source value 8 is obsolete' -e 'target value 8 is obsolete' -e 'To suppress warnings about obsolete' -e '^[0-9]* warning' >&2 || true
[ -f build/classes/io/github/geosvc/tests/JavaUse.class ] || { echo "build.sh: javac failed" >&2; exit 1; }
(cd build/classes && jar cf ../geosvc-kotlin.jar META-INF io/github/geosvc/*.class)
echo "build.sh: build/geosvc-kotlin.jar"

if [ "${1:-}" = test ]; then
	shift
	exec java -cp "build/classes:$STDLIB" io.github.geosvc.tests.HarnessKt "$@"
fi
