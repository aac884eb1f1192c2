// Command gen writes geo/cldrnames' table of localized names from the
// Unicode CLDR (Debian's unicode-cldr-core package): for each language of
// the list, the territory names (countries by ISO 3166-1 alpha-2 code)
// and the long standard and daylight names of the metazones and of the
// zones that have names of their own. Run it with `go generate
// ./geo/cldrnames` after installing unicode-cldr-core.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// languages are the locales written: the base languages of CLDR's
// modern coverage that OSM's name:xx tags use most.
var languages = []string{"ar", "bg", "ca", "cs", "da", "de", "el", "es", "et", "fi", "fr", "he", "hi", "hr", "hu", "id", "it", "ja", "ko", "lt", "lv", "nb", "nl", "pl", "pt", "ro", "ru", "sk", "sl", "sr", "sv", "th", "tr", "uk", "vi", "zh", "zh_Hant"}

type nameXML struct {
	Type string `xml:"type,attr"`
	Long struct {
		Standard string `xml:"standard"`
		Daylight string `xml:"daylight"`
	} `xml:"long"`
}

type ldml struct {
	Territories []struct {
		Type  string `xml:"type,attr"`
		Alt   string `xml:"alt,attr"`
		Value string `xml:",chardata"`
	} `xml:"localeDisplayNames>territories>territory"`
	Zones     []nameXML `xml:"dates>timeZoneNames>zone"`
	Metazones []nameXML `xml:"dates>timeZoneNames>metazone"`
}

func main() {
	dir := flag.String("cldr", "/usr/share/unicode/cldr/common", "CLDR common directory (Debian package unicode-cldr-core)")
	out := flag.String("out", "names.tsv.gz", "output file")
	flag.Parse()
	var lines []string
	for _, lang := range languages {
		b, err := os.ReadFile(filepath.Join(*dir, "main", lang+".xml"))
		if err != nil {
			log.Fatal(err)
		}
		var l ldml
		if err := xml.Unmarshal(b, &l); err != nil {
			log.Fatalf("%s: %v", lang, err)
		}
		tag := strings.ReplaceAll(lang, "_", "-")
		for _, t := range l.Territories {
			if t.Alt == "" && len(t.Type) == 2 {
				lines = append(lines, tag+"\tT\t"+t.Type+"\t"+clean(t.Value))
			}
		}
		for kind, list := range map[string][]nameXML{"M": l.Metazones, "Z": l.Zones} {
			for _, n := range list {
				if n.Long.Standard != "" {
					lines = append(lines, tag+"\t"+kind+"S\t"+n.Type+"\t"+clean(n.Long.Standard))
				}
				if n.Long.Daylight != "" {
					lines = append(lines, tag+"\t"+kind+"D\t"+n.Type+"\t"+clean(n.Long.Daylight))
				}
			}
		}
	}
	sort.Strings(lines)
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	fmt.Fprintf(zw, "# CLDR %s (unicode-cldr-core), Unicode License; written by geo/cldrnames/internal/gen\n", version())
	for _, l := range lines {
		fmt.Fprintln(zw, l)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wrote %s: %d names in %d languages, %d bytes\n", *out, len(lines), len(languages), buf.Len())
}

func clean(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// version is the installed unicode-cldr-core package's version (41-0.1
// is CLDR 41).
func version() string {
	out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", "unicode-cldr-core").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}
