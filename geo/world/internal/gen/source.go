package main

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// pkg is an npm package read from the tarball `npm pack` writes or from
// its extracted directory: its package.json and the files asked for.
type pkg struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	License string `json:"license"`
	// files maps a file name (relative to the package root) to its bytes.
	files map[string][]byte
}

// readPackage reads package.json, README.md and the named files of the
// package at p: a .tgz (entries under package/) or a directory holding
// package.json.
func readPackage(p string, names ...string) (*pkg, error) {
	want := map[string]bool{"package.json": true, "README.md": true}
	for _, n := range names {
		want[n] = true
	}
	files := map[string][]byte{}
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		for n := range want {
			b, err := os.ReadFile(filepath.Join(p, n))
			if err != nil {
				return nil, err
			}
			files[n] = b
		}
	} else if files, err = readTarball(p, want); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	for n := range want {
		if files[n] == nil {
			return nil, fmt.Errorf("%s: no %s in the package", p, n)
		}
	}
	pk := &pkg{files: files}
	if err := json.Unmarshal(files["package.json"], pk); err != nil {
		return nil, fmt.Errorf("%s: package.json: %w", p, err)
	}
	return pk, nil
}

// readTarball returns the wanted files of a gzipped npm tarball.
func readTarball(p string, want map[string]bool) (map[string][]byte, error) {
	fh, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	gz, err := gzip.NewReader(fh)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		// npm puts every file under package/.
		name, ok := strings.CutPrefix(path.Clean(h.Name), "package/")
		if !ok || !want[name] || h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		files[name] = b
	}
}
