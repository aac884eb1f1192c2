package routing

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/routing/osmroad"
)

// namesGraph builds routing/testdata/NAME with the car profile and
// returns its network too (its report).
func namesGraph(t *testing.T, name string) (*Graph, *osmroad.Network) {
	t.Helper()
	prof := carProfile(t)
	net, err := osmroad.Read(filepath.Join("testdata", name), prof)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := Build(net, prof)
	if err != nil {
		t.Fatal(err)
	}
	return g, net
}

// stepStreets routes from -> to on g and returns its steps' streets in
// langs and the language LocalizeRoute reports.
func stepStreets(t *testing.T, g *Graph, from, to orb.Point, langs []string) ([]string, string) {
	t.Helper()
	a, b := g.Snap(Fastest, from, DefaultSnapRadiusM), g.Snap(Fastest, to, DefaultSnapRadiusM)
	if !a.OK || !b.OK {
		t.Fatalf("no road near %v or %v", from, to)
	}
	r, err := g.Route(context.Background(), Fastest, a, b)
	if err != nil {
		t.Fatal(err)
	}
	lang := g.LocalizeRoute(g.NameLangs(langs), r)
	var streets []string
	for _, s := range r.Steps() {
		if len(streets) == 0 || streets[len(streets)-1] != s.Street {
			streets = append(streets, s.Street)
		}
	}
	return streets, lang
}

// TestLocalNamesFixture: street_names.osm's name:xx as worked out in its
// comment: 4 entries in 3 languages, the first way's name:de kept for
// a name two ways disagree on, no entry for an empty value, name:source
// or a way named by its ref; a route A -> E described in each language,
// BCP 47's shorter forms and the next language filling in, a language the
// data lacks keeping the default names.
func TestLocalNamesFixture(t *testing.T) {
	g, net := namesGraph(t, "street_names.osm")
	if got, want := g.NameLanguages(), []string{"de", "de-CH", "fr"}; !slices.Equal(got, want) {
		t.Errorf("languages %v, want %v", got, want)
	}
	if g.LocalNameCount() != 4 || net.Report.LocalNames != 4 || net.Report.LocalNamed != 2 || net.Report.LocalNameConflicts != 1 || net.Report.LocalNameLangs != 3 {
		t.Errorf("%d entries; report %+v", g.LocalNameCount(), net.Report)
	}
	if !strings.Contains(net.Report.String(), "street names  4 in other languages (name:xx) for 2 names, 3 languages") {
		t.Errorf("report: %s", net.Report)
	}
	A, E := orb.Point{10.000, 0.000}, orb.Point{10.004, 0.000}
	for _, tc := range []struct {
		name    string
		langs   []string // as geocode.ParseLangs lists them
		streets []string
		lang    string
	}{
		{"no language", nil, []string{"Market Street", "Church Lane", "Market Street", "DE-9"}, ""},
		{"de", []string{"de"}, []string{"Marktstraße", "Church Lane", "Marktstraße", "DE-9"}, "de"},
		{"de-AT falls back to de", []string{"de-AT", "de"}, []string{"Marktstraße", "Church Lane", "Marktstraße", "DE-9"}, "de"},
		{"de-CH", []string{"de-CH", "de"}, []string{"Marktgasse", "Church Lane", "Marktgasse", "DE-9"}, "de-CH"},
		{"de-ch any case", []string{"DE-ch"}, []string{"Marktgasse", "Church Lane", "Marktgasse", "DE-9"}, "DE-ch"},
		{"fr", []string{"fr"}, []string{"Rue du Marché", "Rue de l'Église", "Rue du Marché", "DE-9"}, "fr"},
		{"de then fr", []string{"de", "fr"}, []string{"Marktstraße", "Rue de l'Église", "Marktstraße", "DE-9"}, "de"},
		{"es: an empty name:es is none", []string{"es"}, []string{"Market Street", "Church Lane", "Market Street", "DE-9"}, ""},
		{"ja then fr", []string{"ja", "fr"}, []string{"Rue du Marché", "Rue de l'Église", "Rue du Marché", "DE-9"}, "fr"},
		{"ja: the data lacks it", []string{"ja"}, []string{"Market Street", "Church Lane", "Market Street", "DE-9"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			streets, lang := stepStreets(t, g, A, E, tc.langs)
			if !slices.Equal(streets, tc.streets) || lang != tc.lang {
				t.Errorf("streets %q (lang %q), want %q (lang %q)", streets, lang, tc.streets, tc.lang)
			}
		})
	}
}

// TestLocalNamesSaved: the table survives the routing file.
func TestLocalNamesSaved(t *testing.T) {
	g := fixtureGraph(t, "street_names.osm")
	dir := t.TempDir()
	if err := g.Save(dir); err != nil {
		t.Fatal(err)
	}
	g2, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g2.Release()
	if err := g2.validate(); err != nil {
		t.Fatal(err)
	}
	streets, lang := stepStreets(t, g2, orb.Point{10.000, 0.000}, orb.Point{10.004, 0.000}, []string{"fr"})
	if want := []string{"Rue du Marché", "Rue de l'Église", "Rue du Marché", "DE-9"}; !slices.Equal(streets, want) || lang != "fr" {
		t.Errorf("after Save and Open: %q (lang %q)", streets, lang)
	}
}

// TestLocalNamesAndorra: Andorra's car ways carry name:ca, name:es and
// name:oc (read with osmium tags-filter on the paulmach/osm module's
// andorra-latest.osm.bz2: way 32845063 and 320968555-7 "Carretera Sant
// Cristofol" (CS-310) name:es "carretera San Cristóbal"; ways 6181487,
// 6584917, 24059857, 24280279 and 32819051 "Carrer Major" name:ca
// "carrer Mayor", name:oc "carrèr Major"; 24914526 and 383735778
// "Avinguda de les Nacions Unides" name:ca "avinguda de les Nacions
// Unides"; 127071194 "Plaça Major" name:ca "plaça Mayor"; 270885818
// "Carrer Pompeu Fabra" name:ca "carrer de Pompeu Fabra"; 399371630
// "Carrer de Can Diumenge" name:es "Calle de Can Diumenge"; name:fr only
// on a path): 7 entries for 6 names in 3 languages. A route along CS-310
// from node 53306607 (on way 320968557) to node 53306693 (on way
// 32845063) is described in Spanish, and in German (none in the data)
// by the default name.
func TestLocalNamesAndorra(t *testing.T) {
	g := testGraph(t, "andorra")
	if got, want := g.NameLanguages(), []string{"ca", "es", "oc"}; !slices.Equal(got, want) {
		t.Errorf("languages %v, want %v", got, want)
	}
	if g.LocalNameCount() != 7 {
		t.Errorf("%d entries, want 7", g.LocalNameCount())
	}
	from, to := orb.Point{1.5229086, 42.5314597}, orb.Point{1.5197239, 42.5338707}
	for _, tc := range []struct {
		langs  []string
		street string
		lang   string
	}{
		{[]string{"es"}, "carretera San Cristóbal", "es"},
		{[]string{"es-AR", "es"}, "carretera San Cristóbal", "es"},
		{[]string{"de"}, "Carretera Sant Cristofol", ""},
		{nil, "Carretera Sant Cristofol", ""},
	} {
		streets, lang := stepStreets(t, g, from, to, tc.langs)
		if !slices.Contains(streets, tc.street) || lang != tc.lang {
			t.Errorf("%v: streets %q (lang %q), want %q among them (lang %q)", tc.langs, streets, lang, tc.street, tc.lang)
		}
	}
}
