package timezone

import (
	"archive/zip"
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"sync"
	"time"
)

// zoneinfoZip is the tz database this package answers from, whatever the
// host has: a copy of Go 1.26.8's lib/time/zoneinfo.zip, IANA tzdata
// 2025c (public domain). time.LoadLocation would read the host's
// /usr/share/zoneinfo first, so the same binary could answer differently
// on two hosts; loading every zone from this file makes the answers
// depend on the binary alone. To update: copy a newer Go's
// $GOROOT/lib/time/zoneinfo.zip here and change TZRulesVersion.
//
//go:embed zoneinfo.zip
var zoneinfoZip []byte

// TZRulesVersion is the IANA tzdata version of the embedded zone rules.
const TZRulesVersion = "2025c"

var (
	zoneFilesOnce sync.Once
	zoneFiles     map[string]*zip.File
	zoneFilesErr  error
)

// LoadLocation returns the zone of that IANA name from the embedded tz
// database. "UTC" and "" are time.UTC.
func LoadLocation(name string) (*time.Location, error) {
	if name == "" || name == "UTC" {
		return time.UTC, nil
	}
	zoneFilesOnce.Do(func() {
		r, err := zip.NewReader(bytes.NewReader(zoneinfoZip), int64(len(zoneinfoZip)))
		if err != nil {
			zoneFilesErr = fmt.Errorf("timezone: embedded zoneinfo.zip: %w", err)
			return
		}
		zoneFiles = make(map[string]*zip.File, len(r.File))
		for _, f := range r.File {
			zoneFiles[f.Name] = f
		}
	})
	if zoneFilesErr != nil {
		return nil, zoneFilesErr
	}
	f, ok := zoneFiles[name]
	if !ok {
		return nil, fmt.Errorf("timezone: unknown time zone %s", name)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("timezone: %s: %w", name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return nil, fmt.Errorf("timezone: %s: %w", name, err)
	}
	return time.LoadLocationFromTZData(name, data)
}
