// Package bundle describes a data bundle directory written by `geosvc
// build`: its manifest.json (bundle version, source file and checksum, OSM
// date, build time, layers) and the staleness rule `make run` relies on.
package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ManifestFile is the manifest's file name inside a bundle directory.
const ManifestFile = "manifest.json"

// Manifest describes a built bundle.
type Manifest struct {
	// BundleVersion is the bundle format the binary wrote.
	BundleVersion string `json:"bundle_version"`
	// Source is the OSM file the bundle was built from.
	Source Source `json:"source"`
	// OSMTimestamp is the data date of the OSM extract, zero if unknown.
	OSMTimestamp time.Time `json:"osm_timestamp"`
	// BuiltAt is when the bundle was written.
	BuiltAt time.Time `json:"built_at"`
	// Inputs are the other files the build read besides the extract (the
	// routing profile, --boundaries and --zip4 files), so that a rebuild
	// with --if-stale notices when one of them changed.
	Inputs []Input `json:"inputs,omitempty"`
	// Layers lists the files of the bundle.
	Layers []Layer `json:"layers"`
	// Nodes and Edges count the routing graph, so that a process that does
	// not route (geosvc api) can report them without loading it.
	Nodes int `json:"nodes,omitempty"`
	Edges int `json:"edges,omitempty"`
	// Profiles are the routing profiles built besides the car's, each a
	// graph of its own in a directory of its name ("bicycle", "foot");
	// empty for a bundle of the car only (and every older bundle).
	Profiles []string `json:"profiles,omitempty"`
}

// Source identifies an input file by name, size and SHA-256.
type Source struct {
	// File is the base name of the file.
	File string `json:"file"`
	// SHA256 is the hex SHA-256 of its contents.
	SHA256 string `json:"sha256"`
	// Size is its size in bytes.
	Size int64 `json:"size"`
}

// Layer is one file of the bundle.
type Layer struct {
	// Name is the layer's name ("routing").
	Name string `json:"name"`
	// File is the file name inside the bundle directory.
	File string `json:"file"`
	// Size is its size in bytes.
	Size int64 `json:"size"`
}

// Name returns the data set's name: the source file name without its
// extensions ("delaware-latest" for delaware-latest.osm.pbf).
func (m Manifest) Name() string {
	name := m.Source.File
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	return name
}

// LayerNames returns the names of the layers, in build order. A layer
// written as several files ("routing", "routing.snap", "routing.cch",
// ...) is named once.
func (m Manifest) LayerNames() []string {
	out := make([]string, 0, len(m.Layers))
	for _, l := range m.Layers {
		name, _, _ := strings.Cut(l.Name, ".")
		if len(out) > 0 && out[len(out)-1] == name {
			continue
		}
		out = append(out, name)
	}
	return out
}

// Input is a file a build read besides the OSM extract.
type Input struct {
	// Role says what it was: "profile", or the name of the layer that
	// read it ("boundaries", "zip4").
	Role string `json:"role"`
	Source
}

// HashBytes returns the Source of in-memory contents (an embedded
// default file) under the given name.
func HashBytes(name string, b []byte) Source {
	sum := sha256.Sum256(b)
	return Source{File: name, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(b))}
}

// HashFile returns the Source describing the file at path.
func HashFile(path string) (Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return Source{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return Source{}, fmt.Errorf("hash %s: %w", path, err)
	}
	return Source{File: filepath.Base(path), SHA256: hex.EncodeToString(h.Sum(nil)), Size: n}, nil
}

// Read reads dir/manifest.json.
func Read(dir string) (Manifest, error) {
	m, _, err := readWithID(dir)
	return m, err
}

// readWithID reads dir/manifest.json and returns it with the bundle's id:
// the first 12 hex digits of the manifest's SHA-256, which differs for
// every build (the manifest holds its build time and the checksums of its
// inputs).
func readWithID(dir string) (Manifest, string, error) {
	var m Manifest
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return m, "", err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, "", fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	sum := sha256.Sum256(b)
	return m, hex.EncodeToString(sum[:6]), nil
}

// Write writes m to dir/manifest.json atomically (temporary file, rename).
func Write(dir string, m Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ManifestFile+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	// CreateTemp makes the file 0600; the manifest is as readable as the
	// bundle's other files.
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, ManifestFile))
}

// Stale reports whether a bundle with manifest m must be rebuilt for a
// binary writing version from the source src and the other inputs, and
// why: the bundle version differs, the source file's name, size or
// checksum changed, an input was added, dropped or changed, or a layer
// file is missing or has another size.
func Stale(dir string, m Manifest, version string, src Source, inputs []Input) (bool, string) {
	switch {
	case m.BundleVersion != version:
		return true, fmt.Sprintf("bundle version %q, this binary writes %q", m.BundleVersion, version)
	case m.Source.File != src.File:
		return true, fmt.Sprintf("built from %s, not %s", m.Source.File, src.File)
	case m.Source.Size != src.Size || m.Source.SHA256 != src.SHA256:
		return true, fmt.Sprintf("source %s changed", src.File)
	case len(m.Layers) == 0:
		return true, "no layers"
	}
	if why, changed := inputsChanged(m.Inputs, inputs); changed {
		return true, why
	}
	for _, l := range m.Layers {
		fi, err := os.Stat(filepath.Join(dir, l.File))
		if err != nil || fi.Size() != l.Size {
			return true, fmt.Sprintf("layer %s missing or changed", l.File)
		}
	}
	return false, "up to date"
}

// inputsChanged compares the inputs a bundle was built with to the ones
// of a new build, in order, and says what differs.
func inputsChanged(was, now []Input) (string, bool) {
	for i := 0; i < len(was) || i < len(now); i++ {
		switch {
		case i >= len(now):
			return fmt.Sprintf("built with %s %s, not given now", was[i].Role, was[i].File), true
		case i >= len(was):
			return fmt.Sprintf("%s %s not used in the last build", now[i].Role, now[i].File), true
		case was[i].Role != now[i].Role || was[i].File != now[i].File:
			return fmt.Sprintf("built with %s %s, now %s %s", was[i].Role, was[i].File, now[i].Role, now[i].File), true
		case was[i].SHA256 != now[i].SHA256 || was[i].Size != now[i].Size:
			return fmt.Sprintf("%s %s changed", now[i].Role, now[i].File), true
		}
	}
	return "", false
}

// noBundleError says that dir holds no bundle, and what to serve
// instead: the bundles in dir's subdirectories (`make data` writes
// data/<the extract's name>, data/delaware-latest by default, while the
// server's default directory is ./data), else how to build one.
func noBundleError(dir string) error {
	var found []string
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			sub := filepath.Join(dir, e.Name())
			if _, err := os.Stat(filepath.Join(sub, ManifestFile)); err == nil {
				found = append(found, sub)
			}
		}
	}
	switch len(found) {
	case 0:
		return fmt.Errorf("no data bundle in %s: `make run` builds and serves one (data/delaware-latest); or `make data`, then serve --data data/delaware-latest; or `geosvc build --osm FILE.osm.pbf --out %s`", dir, dir)
	case 1:
		return fmt.Errorf("no data bundle in %s, but one in %s: serve it with --data %s (or GEOSVC_DATA=%s)", dir, found[0], found[0], found[0])
	}
	return fmt.Errorf("no data bundle in %s, but %d in its directories (%s): choose one with --data (or GEOSVC_DATA)", dir, len(found), strings.Join(found, ", "))
}
