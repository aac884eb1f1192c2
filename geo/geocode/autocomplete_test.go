package geocode

import (
	"strings"
	"testing"

	"github.com/paulmach/orb"
)

// TestAutocompleteTable types the beginnings of real names of the
// Delaware and Andorra extracts. The expectations come from the OSM data
// (the place nodes and their place=* and population tags, the named
// highways and points of interest, read with the osm scanner), not from
// the geocoder: a prefix of a town's name finds the town first (a place
// outranks the streets and points of interest named after it), a prefix
// of a street's whole name finds that street, and with a focus the
// nearest of several points of interest of one name comes first (the
// distances computed from the nodes' coordinates).
func TestAutocompleteTable(t *testing.T) {
	de := testIndex(t, delaware)
	ad := testIndex(t, andorra)
	dover, lewes, newark := orb.Point{-75.52437, 39.15817}, orb.Point{-75.13935, 38.77456}, orb.Point{-75.75083, 39.68522}
	for _, tc := range []struct {
		ix    *Index
		text  string
		focus *orb.Point
		want  string // a name (first component) or a place id ("en123")
		first bool   // want is the first result, not only in the top 3
	}{
		// Delaware's towns and cities (place nodes), by a prefix.
		{de, "Rehob", nil, "Rehoboth Beach", true},
		{de, "Wilm", nil, "Wilmington", true},
		{de, "Wilmingt", nil, "Wilmington", true},
		{de, "Georget", nil, "Georgetown", true},
		{de, "Middlet", nil, "Middletown", true},
		{de, "Lewe", nil, "Lewes", true},
		{de, "Bethany B", nil, "Bethany Beach", true},
		{de, "Newar", nil, "Newark", true},
		{de, "Milfo", nil, "Milford", true},
		{de, "Odes", nil, "Odessa", true},
		{de, "Chesw", nil, "Cheswold", true},
		{de, "Seafo", nil, "Seaford", true},
		{de, "Smyr", nil, "Smyrna", false},
		{de, "Frankf", nil, "Frankford", true},
		{de, "Selbyv", nil, "Selbyville", true},
		{de, "Harringt", nil, "Harrington", true},
		{de, "Hockess", nil, "Hockessin", false},
		{de, "Dove", nil, "Dover", true},
		{de, "Delaware Cit", nil, "Delaware City", true},
		// Streets by the beginning of their whole name.
		{de, "Concord Pi", nil, "Concord Pike", true},
		{de, "Kirkwood Hi", nil, "Kirkwood Highway", true},
		{de, "Kirkwood Highw", nil, "Kirkwood Highway", true},
		{de, "Dupont Bl", nil, "Dupont Boulevard", true},
		{de, "Dupont Park", nil, "Dupont Parkway", true},
		{de, "Lancaster Pi", nil, "Lancaster Pike", true},
		{de, "Coastal Hi", nil, "Coastal Highway", true},
		{de, "Pennsylvania Av", nil, "Pennsylvania Avenue", true},
		{de, "Naamans R", nil, "Naamans Road", true},
		{de, "Philadelphia Pi", nil, "Philadelphia Pike", true},
		{de, "Limestone R", nil, "Limestone Road", true},
		{de, "Governor Printz B", nil, "Governor Printz Boulevard", true},
		{de, "Middletown Warw", nil, "Middletown Warwick Road", true},
		{de, "Loockerm", nil, "Loockerman Plaza", false},
		{de, "East Loockerm", nil, "East Loockerman Street", true},
		{de, "Loockerman St", nil, "East Loockerman Street", false},
		{de, "Loockerman St", nil, "West Loockerman Street", false},
		{de, "Delaware Memorial B", nil, "Delaware Memorial Bridge", true},
		// Points of interest by the beginning of their name.
		{de, "Christiana Ma", nil, "Christiana Mall", true},
		{de, "Sussex County Court", nil, "Sussex County Courthouse", true},
		{de, "Lewes Public Lib", nil, "Lewes Public Library", true},
		{de, "Dover Down", nil, "Dover Downs Hotel & Casino", true},
		// The nearest of several of one name to the focus (28 nodes
		// and ways named Wawa, 10 McDonald's).
		{de, "Waw", &dover, "en2091657479", true},
		{de, "Waw", &dover, "ew350690914", false},
		{de, "Wawa", &lewes, "en3700365864", false},
		{de, "Wawa", &lewes, "en3700365863", false},
		{de, "Wawa", &lewes, "ew386735182", false},
		{de, "McDonal", &newark, "ew230525197", false}, // after the service road "McDonalds Entrance" there
		// Andorra: parish towns and villages, avenues.
		{ad, "Encam", nil, "Encamp", true},
		{ad, "Ordi", nil, "Ordino", true},
		{ad, "Canil", nil, "Canillo", true},
		{ad, "Sant Juli", nil, "Sant Julià de Lòria", true},
		{ad, "sant julia de l", nil, "Sant Julià de Lòria", true},
		{ad, "La Massa", nil, "La Massana", true},
		{ad, "Arins", nil, "Arinsal", true},
		{ad, "Solde", nil, "Soldeu", true},
		{ad, "Pas de la C", nil, "Pas de la Casa", true},
		{ad, "Avinguda Meritx", nil, "Avinguda Meritxell", true},
		{ad, "Avinguda Carlem", nil, "Avinguda Carlemany", true},
		{ad, "Avinguda del Fen", nil, "Avinguda del Fener", true},
		{ad, "Carrer de la Un", nil, "Carrer de la Unió", true},
	} {
		t.Run(tc.text, func(t *testing.T) {
			cs := tc.ix.Autocomplete(Query{Text: tc.text, Focus: tc.focus, Limit: 10})
			var got []string
			for i, c := range cs[:min(3, len(cs))] {
				got = append(got, candName(&c))
				if candName(&c) == tc.want || c.PlaceID == tc.want {
					if tc.first && i > 0 {
						t.Errorf("%q is result %d, want it first: %q", tc.want, i+1, got)
					}
					return
				}
			}
			t.Errorf("%q not in the top 3: %q", tc.want, got)
		})
	}
}

// candName is the name of a candidate: its first component's.
func candName(c *Candidate) string {
	if len(c.Components) == 0 {
		return c.FormattedAddress
	}
	return c.Components[0].LongName
}

// TestAutocompleteOptions checks limit, layers and strict bounds against
// the Delaware extract's place nodes and highways.
func TestAutocompleteOptions(t *testing.T) {
	de := testIndex(t, delaware)
	// Wilmington's place node and 66+10+9 highways named Wilmington
	// Bypass, Road, Avenue: far more than 20 completions.
	if cs := de.Autocomplete(Query{Text: "Wilm", Limit: 50}); len(cs) != MaxAutocompleteLimit {
		t.Errorf("limit 50: %d results, want %d", len(cs), MaxAutocompleteLimit)
	}
	for _, c := range de.Autocomplete(Query{Text: "Wilm", Limit: 20, Layers: []Kind{KindStreet}}) {
		if c.Kind != KindStreet || !strings.HasPrefix(candName(&c), "Wilm") {
			t.Errorf("layers=street: %v %q", c.Kind, c.FormattedAddress)
		}
	}
	cs := de.Autocomplete(Query{Text: "Wilm", Layers: []Kind{KindPlace}})
	if len(cs) == 0 || candName(&cs[0]) != "Wilmington" {
		t.Errorf("layers=place: %v", cs)
	}
	// A box around Lewes (the town node at -75.139,38.775): Wawa's two
	// nodes there, not the eight elsewhere.
	box := orb.Bound{Min: orb.Point{-75.2, 38.7}, Max: orb.Point{-75.1, 38.8}}
	cs = de.Autocomplete(Query{Text: "Wawa", Limit: 20, Bounds: &box, BoundsRestrict: true})
	if len(cs) == 0 {
		t.Fatal("no Wawa in the box around Lewes")
	}
	for _, c := range cs {
		if !box.Contains(c.Location) {
			t.Errorf("bounds restrict: %q at %v outside", c.FormattedAddress, c.Location)
		}
	}
	// The same box on the geocoder: a bias keeps Wilmington (the city,
	// 100 km north), restrict keeps only what lies in the box.
	for _, c := range de.Forward(Query{Text: "Wilmington", Bounds: &box, BoundsRestrict: true}) {
		if !box.Contains(c.Location) {
			t.Errorf("geocoder, bounds restrict: %q at %v outside", c.FormattedAddress, c.Location)
		}
	}
	if cs := de.Forward(Query{Text: "Wilmington", Bounds: &box}); len(cs) == 0 || box.Contains(cs[len(cs)-1].Location) && box.Contains(cs[0].Location) {
		t.Errorf("geocoder, bounds bias around Lewes: nothing outside the box")
	}
}
