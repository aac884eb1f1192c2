package soap

import (
	"context"
	"encoding/base64"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/testenv"
	"github.com/geosvc/geosvc/routing"
)

// wsdlSchema writes the WSDL's own XML schema (its wsdl:types) to a file
// xmllint reads, with the namespace prefixes the WSDL root declares.
func wsdlSchema(t *testing.T) string {
	t.Helper()
	start := strings.Index(wsdlText, "<s:schema ")
	end := strings.Index(wsdlText, "</s:schema>")
	if start < 0 || end < 0 {
		t.Fatal("no s:schema in location.wsdl")
	}
	schema := wsdlText[start : end+len("</s:schema>")]
	schema = strings.Replace(schema, "<s:schema ", `<s:schema xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="http://geosvc.org/LocationService/" `, 1)
	path := filepath.Join(t.TempDir(), "location.xsd")
	if err := os.WriteFile(path, []byte(`<?xml version="1.0" encoding="UTF-8"?>`+"\n"+schema), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// validate checks the body element of a SOAP response against the
// schema with xmllint.
func validate(t *testing.T, xmllint, schema, name string, envelope []byte) {
	t.Helper()
	var env struct {
		Body struct {
			Inner []byte `xml:",innerxml"`
		} `xml:"Body"`
	}
	if err := xml.Unmarshal(envelope, &env); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if strings.Contains(string(env.Body.Inner), "Fault>") {
		t.Fatalf("%s: a fault: %s", name, env.Body.Inner)
	}
	path := filepath.Join(t.TempDir(), "response.xml")
	if err := os.WriteFile(path, env.Body.Inner, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(xmllint, "--noout", "--schema", schema, path).CombinedOutput()
	if err != nil {
		t.Errorf("%s does not validate against the WSDL's schema: %v\n%s\n%s", name, err, out, env.Body.Inner)
	}
}

// TestMapResponsesValidate: every response of the map operations, with
// legends (empty borders and texts as xsi:nil), image maps, routes and
// each image type, validates against location.wsdl's own schema.
func TestMapResponsesValidate(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		testenv.Skip(t, "xmllint not installed (Debian: libxml2-utils)")
		return
	}
	schema := wsdlSchema(t)
	f := newFixture(t, false)
	g := tinyGraph(t)
	f.setGraph(g)
	r, err := g.Route(context.Background(), routing.Fastest, g.Snap(routing.Fastest, orb.Point{-75.4999, 39.0}, 0), g.Snap(routing.Fastest, orb.Point{-75.4982, 39.0}, 0))
	if err != nil {
		t.Fatal(err)
	}
	rd := base64.StdEncoding.EncodeToString([]byte(encodePolyline(r.Geometry)))
	locs := `<Locations><LocationInput fid="home"><Name>Home</Name><X>-75.4995</X><Y>39.0004</Y><Encoding>EPGS4326</Encoding></LocationInput>` +
		`<LocationInput fid="work"><Name>Work &amp; Co</Name><X>-75.4995</X><Y>39.0004</Y><Encoding>EPGS4326</Encoding></LocationInput></Locations>`
	legend := `<Legend><BackgroundLegend><BackgroundLegendItem><Name>Land</Name><Inner Color="#EEEEEE"/><Border xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/></BackgroundLegendItem></BackgroundLegend>` +
		`<LabelLegend><LabelLegendItem><Name>City1K</Name><Text Color="#000000" BackgroundColor="#FFFF00"/></LabelLegendItem></LabelLegend></Legend>`
	cases := []struct {
		name, body string
	}{
		{"MapSimple Png with legend", mapBody("MapSimple", f.key, nil, "")},
		{"MapSimple Wbmp", mapBody("MapSimple", f.key, map[string]string{"ImageType": "Wbmp", "Metrics": "Miles"}, "")},
		{"MapSimple Gif without legend", mapBody("MapSimple", f.key, map[string]string{"ImageType": "Gif", "WantLegend": "false"}, "")},
		{"MapSimple nothing wanted", mapBody("MapSimple", f.key, map[string]string{"WantImageData": "false", "WantLegend": "false"}, "")},
		{"Map route, locations, legend, file", mapBody("Map", f.key, map[string]string{"RouteData": rd, "ImageMapUrl": "https://app.test/{fid}"}, locs+legend+"<LegendFile>default</LegendFile>")},
		{"Map zoomed out", mapBody("Map", f.key, map[string]string{"AreaX": "200000", "LevelOfDetail": "3"}, "")},
		{"MapDisplaceLocations", mapBody("MapDisplaceLocations", f.key, map[string]string{"IconWidth": "16", "IconHeight": "16"}, locs)},
		{"MapGetLocation hit", mapBody("MapGetLocation", f.key, map[string]string{"ViewX": "80", "ViewY": "43"}, locs)},
		{"MapGetLocation miss", mapBody("MapGetLocation", f.key, map[string]string{"ViewX": "5", "ViewY": "5"}, locs)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, env := range []string{envelope11(tc.body), envelope12(tc.body)} {
				ct := "text/xml"
				if strings.Contains(env, "soap-envelope") {
					ct = "application/soap+xml"
				}
				rec := f.post(ct, env)
				validate(t, xmllint, schema, tc.name, rec.Body.Bytes())
			}
		})
	}
	// The nil elements are there, as xsi:nil.
	rec := f.post("text/xml", envelope11(cases[0].body))
	if !strings.Contains(rec.Body.String(), `nil="true"`) {
		t.Errorf("no xsi:nil in a legend whose Land has no Border: %s", rec.Body)
	}
}
