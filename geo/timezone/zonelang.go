package timezone

import (
	"time"

	"github.com/geosvc/geosvc/geo/cldrnames"
	"github.com/geosvc/geosvc/geo/timezone/internal/tzdb"
)

// In returns a copy of z whose Standard and DST names are CLDR's in the
// first of langs CLDR names the zone in (each tag tried whole, then
// without its last subtags), z itself where none does. Abbreviations
// stay as they are (CLDR gives most languages none).
func (z *Zone) In(langs []string) *Zone {
	if z == nil || len(langs) == 0 {
		return z
	}
	std := time.Date(z.Year, time.January, 1, 0, 0, 0, 0, time.UTC)
	if z.HasDST && !z.DSTStart.IsZero() {
		std = z.DSTStart.Add(-time.Hour)
	}
	stdMZ := metazoneAt(z.Name, std.Unix())
	var dstMZ string
	if z.HasDST && !z.DSTStart.IsZero() {
		dstMZ = metazoneAt(z.Name, z.DSTStart.Add(time.Hour).Unix())
	}
	for _, lang := range langs {
		for tag := lang; tag != ""; tag = parentTag(tag) {
			sn, ok := cldrnames.Zone(tag, z.Name, stdMZ, false)
			if !ok {
				continue
			}
			c := *z
			c.Standard.Name = sn
			if z.HasDST {
				if dn, ok := cldrnames.Zone(tag, z.Name, dstMZ, true); ok {
					c.DST.Name = dn
				}
			}
			return &c
		}
	}
	return z
}

// parentTag is tag without its last subtag, "" for a bare language.
func parentTag(tag string) string {
	for i := len(tag) - 1; i >= 0; i-- {
		if tag[i] == '-' {
			return tag[:i]
		}
	}
	return ""
}

// metazoneAt returns the CLDR metazone zone uses at Unix time sec, ""
// for none.
func metazoneAt(zone string, sec int64) string {
	for _, u := range tzdb.MetazoneUses[zone] {
		if (u.From == 0 || sec >= u.From) && (u.To == 0 || sec < u.To) {
			return u.Metazone
		}
	}
	return ""
}
