// Command gen writes geo/timezone/internal/tzdb/tables.go: the zone ->
// countries table from IANA's zone1970.tab and zone.tab (Debian's tzdata
// package) and the zone -> metazone history and English zone names from
// Unicode CLDR (Debian's unicode-cldr-core package). Run it with
// `go generate ./geo/timezone`; a fresh checkout needs neither package,
// because the generated file is committed.
//
// Zone names are matched across IANA renames (Asia/Calcutta and
// Asia/Kolkata, Europe/Kiev and Europe/Kyiv) through the IANA links in
// tzdata.zi and the alias lists of CLDR's bcp47/timezone.xml.
package main

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/biter777/countries"
)

func main() {
	zoneinfo := flag.String("zoneinfo", "/usr/share/zoneinfo", "directory with zone1970.tab, zone.tab and tzdata.zi (Debian package tzdata)")
	cldr := flag.String("cldr", "/usr/share/unicode/cldr/common", "CLDR common directory (Debian package unicode-cldr-core)")
	out := flag.String("out", "internal/tzdb/tables.go", "Go file to write")
	flag.Parse()

	tz, err := readTZ(*zoneinfo)
	if err != nil {
		log.Fatal(err)
	}
	cl, err := readCLDR(*cldr)
	if err != nil {
		log.Fatal(err)
	}
	src, err := render(tz, cl)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wrote %s: %d zones, tzdata %s, CLDR %s\n", *out, len(tz.zones), tz.version, cl.version)
}

// tzSource is what the generator reads from the IANA files.
type tzSource struct {
	version string
	// zones is every Zone and Link name of tzdata.zi.
	zones []string
	// links maps a link name to its target.
	links map[string]string
	// countries maps a zone to the ISO 3166-1 alpha-2 codes of zone1970.tab
	// and zone.tab (union, in file order).
	countries map[string][]string
}

func readTZ(dir string) (*tzSource, error) {
	t := &tzSource{links: map[string]string{}, countries: map[string][]string{}}
	zi, err := os.ReadFile(filepath.Join(dir, "tzdata.zi"))
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(zi))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 3 && f[0] == "#" && f[1] == "version":
			t.version = f[2]
		case len(f) >= 2 && f[0] == "Z":
			t.zones = append(t.zones, f[1])
		case len(f) >= 3 && f[0] == "L":
			t.zones = append(t.zones, f[2])
			t.links[f[2]] = f[1]
		}
	}
	if t.version == "" {
		return nil, fmt.Errorf("%s: no version line", filepath.Join(dir, "tzdata.zi"))
	}
	for _, tab := range []string{"zone1970.tab", "zone.tab"} {
		b, err := os.ReadFile(filepath.Join(dir, tab))
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(b), "\n") {
			if line == "" || line[0] == '#' {
				continue
			}
			f := strings.Split(line, "\t")
			if len(f) < 3 {
				return nil, fmt.Errorf("%s: bad line %q", tab, line)
			}
			for _, cc := range strings.Split(f[0], ",") {
				if !contains(t.countries[f[2]], cc) {
					t.countries[f[2]] = append(t.countries[f[2]], cc)
				}
			}
		}
	}
	sort.Strings(t.zones)
	return t, nil
}

// cldrSource is what the generator reads from CLDR.
type cldrSource struct {
	version string
	// aliases lists CLDR's alias groups (bcp47/timezone.xml).
	aliases [][]string
	// uses maps a CLDR zone id to its metazone periods.
	uses map[string][]use
	// metazones and zones hold the English names.
	metazones, zones map[string]names
}

type use struct {
	from, to int64 // Unix seconds; 0 = open
	mz       string
}

type names struct {
	LongStandard, LongDaylight, ShortStandard, ShortDaylight string
}

type metaZonesXML struct {
	Zones []struct {
		Type string `xml:"type,attr"`
		Uses []struct {
			From  string `xml:"from,attr"`
			To    string `xml:"to,attr"`
			Mzone string `xml:"mzone,attr"`
		} `xml:"usesMetazone"`
	} `xml:"metaZones>metazoneInfo>timezone"`
}

type nameXML struct {
	Type string `xml:"type,attr"`
	Long struct {
		Standard string `xml:"standard"`
		Daylight string `xml:"daylight"`
	} `xml:"long"`
	Short struct {
		Standard string `xml:"standard"`
		Daylight string `xml:"daylight"`
	} `xml:"short"`
}

type ldmlXML struct {
	Zones     []nameXML `xml:"dates>timeZoneNames>zone"`
	Metazones []nameXML `xml:"dates>timeZoneNames>metazone"`
}

type bcp47XML struct {
	Types []struct {
		Alias string `xml:"alias,attr"`
	} `xml:"keyword>key>type"`
}

func readCLDR(dir string) (*cldrSource, error) {
	c := &cldrSource{uses: map[string][]use{}, metazones: map[string]names{}, zones: map[string]names{}}
	c.version = cldrVersion()

	var mz metaZonesXML
	if err := decodeXML(filepath.Join(dir, "supplemental", "metaZones.xml"), &mz); err != nil {
		return nil, err
	}
	for _, z := range mz.Zones {
		for _, u := range z.Uses {
			from, err := cldrTime(u.From)
			if err != nil {
				return nil, err
			}
			to, err := cldrTime(u.To)
			if err != nil {
				return nil, err
			}
			c.uses[z.Type] = append(c.uses[z.Type], use{from, to, u.Mzone})
		}
	}
	if len(c.uses) == 0 {
		return nil, fmt.Errorf("metaZones.xml: no zones read")
	}

	var en ldmlXML
	if err := decodeXML(filepath.Join(dir, "main", "en.xml"), &en); err != nil {
		return nil, err
	}
	conv := func(n nameXML) names {
		return names{n.Long.Standard, n.Long.Daylight, n.Short.Standard, n.Short.Daylight}
	}
	for _, m := range en.Metazones {
		c.metazones[m.Type] = conv(m)
	}
	for _, z := range en.Zones {
		if n := conv(z); n != (names{}) {
			c.zones[z.Type] = n
		}
	}
	if len(c.metazones) == 0 {
		return nil, fmt.Errorf("en.xml: no metazone names read")
	}

	var b bcp47XML
	if err := decodeXML(filepath.Join(dir, "bcp47", "timezone.xml"), &b); err != nil {
		return nil, err
	}
	for _, t := range b.Types {
		if a := strings.Fields(t.Alias); len(a) > 0 {
			c.aliases = append(c.aliases, a)
		}
	}
	return c, nil
}

// cldrVersion is the version of the installed unicode-cldr-core package
// (Debian numbers it after the CLDR release: 41-0.1 is CLDR 41).
func cldrVersion() string {
	out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", "unicode-cldr-core").Output()
	if err != nil || len(out) == 0 {
		return "unknown"
	}
	v := string(out)
	if i := strings.IndexByte(v, '-'); i > 0 {
		v = v[:i]
	}
	return v
}

func decodeXML(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	d := xml.NewDecoder(f)
	d.Strict = false // the files declare a DTD the decoder does not fetch
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// cldrTime parses metaZones.xml's "1983-10-30 12:00" (UTC); "" is 0.
func cldrTime(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		return 0, fmt.Errorf("metaZones.xml: %w", err)
	}
	return t.Unix(), nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// classes groups zone names that name the same zone: an IANA link and its
// target, and the members of one CLDR alias list. find returns a name's
// group (the name alone when it has no other).
type classes struct{ parent map[string]string }

func (c *classes) find(x string) string {
	for {
		p, ok := c.parent[x]
		if !ok || p == x {
			return x
		}
		x = p
	}
}

func (c *classes) union(a, b string) {
	ra, rb := c.find(a), c.find(b)
	if ra != rb {
		c.parent[ra] = rb
	}
}

func render(tz *tzSource, cl *cldrSource) ([]byte, error) {
	cs := &classes{parent: map[string]string{}}
	for l, t := range tz.links {
		cs.union(l, t)
	}
	for _, a := range cl.aliases {
		for _, n := range a[1:] {
			cs.union(a[0], n)
		}
	}
	members := map[string][]string{}
	for _, n := range tz.zones {
		members[cs.find(n)] = append(members[cs.find(n)], n)
	}
	for _, a := range cl.aliases {
		for _, n := range a {
			r := cs.find(n)
			if !contains(members[r], n) {
				members[r] = append(members[r], n)
			}
		}
	}
	for id := range cl.uses {
		if r := cs.find(id); !contains(members[r], id) {
			members[r] = append(members[r], id)
		}
	}
	// cldrID returns the name CLDR keys a zone's data by: the name itself
	// when CLDR knows it, else another name of its group that CLDR knows.
	cldrID := func(zone string, has func(string) bool) string {
		if has(zone) {
			return zone
		}
		ms := append([]string(nil), members[cs.find(zone)]...)
		sort.Strings(ms)
		for _, m := range ms {
			if has(m) {
				return m
			}
		}
		return ""
	}

	var buf bytes.Buffer
	fmt.Fprintf(&buf, `// Code generated by geo/timezone/internal/gen; DO NOT EDIT.
//
// Sources:
//   - IANA time zone database %s (public domain), from Debian's tzdata
//     package: zone1970.tab and zone.tab (zone -> countries), tzdata.zi
//     (zone and link names).
//   - Unicode CLDR %s (Unicode licence), from Debian's unicode-cldr-core
//     package: supplemental/metaZones.xml (zone -> metazone over time),
//     main/en.xml (English metazone and zone names), bcp47/timezone.xml
//     (zone aliases).
//   - ISO 3166-1 alpha-2 -> alpha-3 from github.com/biter777/countries.

// Package tzdb holds the tables geo/timezone derives its zone data from:
// countries per zone and English zone names from CLDR.
package tzdb

// TZDataVersion is the IANA tz release the tables were generated from.
const TZDataVersion = %q

// CLDRVersion is the CLDR release the names were generated from.
const CLDRVersion = %q

// Names are a zone's or a metazone's English names; empty when CLDR has
// none.
type Names struct {
	// LongStandard and LongDaylight are the long names ("Eastern Standard
	// Time", "Eastern Daylight Time").
	LongStandard, LongDaylight string
	// ShortStandard and ShortDaylight are the abbreviations CLDR gives
	// English ("EST", "EDT"), for a few zones only.
	ShortStandard, ShortDaylight string
}

// MetazoneUse says that a zone used a metazone from From to To (Unix
// seconds, UTC; 0 means open-ended).
type MetazoneUse struct {
	From, To int64
	Metazone string
}

`, tz.version, cl.version, tz.version, cl.version)

	// Countries.
	buf.WriteString("// Countries maps every IANA zone and link name to the ISO 3166-1 alpha-3\n// codes of the countries in it (zone1970.tab and zone.tab; a link not in\n// them takes its target's).\nvar Countries = map[string][]string{\n")
	for _, z := range tz.zones {
		cc := tz.countries[z]
		if len(cc) == 0 {
			cc = tz.countries[tz.links[z]]
		}
		if len(cc) == 0 {
			continue
		}
		var a3 []string
		for _, c := range cc {
			code := countries.ByName(c)
			if code == countries.Unknown || code.Alpha3() == "" {
				return nil, fmt.Errorf("zone %s: country %q unknown to biter777/countries", z, c)
			}
			a3 = append(a3, code.Alpha3())
		}
		fmt.Fprintf(&buf, "\t%q: {%s},\n", z, quoteList(a3))
	}
	buf.WriteString("}\n\n")

	// Metazone uses.
	buf.WriteString("// MetazoneUses maps every IANA zone and link name CLDR has metazones for\n// to its metazone periods.\nvar MetazoneUses = map[string][]MetazoneUse{\n")
	missing := 0
	for _, z := range tz.zones {
		id := cldrID(z, func(n string) bool { return len(cl.uses[n]) > 0 })
		if id == "" {
			missing++
			continue
		}
		fmt.Fprintf(&buf, "\t%q: {", z)
		for i, u := range cl.uses[id] {
			if i > 0 {
				buf.WriteString(", ")
			}
			fmt.Fprintf(&buf, "{%d, %d, %q}", u.from, u.to, u.mz)
		}
		buf.WriteString("},\n")
	}
	buf.WriteString("}\n\n")

	// Names.
	buf.WriteString("// MetazoneNames maps a CLDR metazone to its English names.\nvar MetazoneNames = map[string]Names{\n")
	mzs := make([]string, 0, len(cl.metazones))
	for m := range cl.metazones {
		mzs = append(mzs, m)
	}
	sort.Strings(mzs)
	for _, m := range mzs {
		fmt.Fprintf(&buf, "\t%q: %s,\n", m, namesLit(cl.metazones[m]))
	}
	buf.WriteString("}\n\n")

	buf.WriteString("// ZoneNames maps IANA zone and link names to the English names CLDR\n// gives that zone itself (they take precedence over its metazone's).\nvar ZoneNames = map[string]Names{\n")
	for _, z := range tz.zones {
		id := cldrID(z, func(n string) bool { _, ok := cl.zones[n]; return ok })
		if id == "" {
			continue
		}
		fmt.Fprintf(&buf, "\t%q: %s,\n", z, namesLit(cl.zones[id]))
	}
	buf.WriteString("}\n")

	fmt.Fprintf(os.Stderr, "%d of %d zone names have no CLDR metazone (Etc/GMT+N and the like)\n", missing, len(tz.zones))
	return format.Source(buf.Bytes())
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

func namesLit(n names) string {
	return fmt.Sprintf("{%q, %q, %q, %q}", n.LongStandard, n.LongDaylight, n.ShortStandard, n.ShortDaylight)
}
