// For people who build the Kotlin SDK in Android Studio or with Gradle:
// a plain Kotlin/JVM library module over the same sources, which an
// Android app module uses with implementation(project(":geosvc")).
// Not built in this repository (no Gradle download here): build.sh, with
// Debian's kotlinc, is the build that `make test` runs.
plugins {
    kotlin("jvm") version "1.9.24"
    `java-library`
}

group = "io.github.geosvc"

kotlin {
    jvmToolchain(8)
    sourceSets {
        main { kotlin.srcDir("src") }
    }
}
