package soap

import (
	"encoding/xml"
	"testing"

	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/routingtest"
)

// TestRampDescriptions: routing/testdata/ramp.osm, from the motorway
// (Delaware Turnpike) by the exit ramp 3B, signed "US 13 South" and
// "Dover;Smyrna", onto Main Street, in every RouteLanguage; with
// WantDataSet, and RoadDataName naming the data's date.
func TestRampDescriptions(t *testing.T) {
	g := routingtest.Graph(t, "ramp.osm")
	f := newFixture(t, false)
	f.setGraph(g)
	f.setName("ramp")
	const toward = "US-13 South: Dover, Smyrna"
	for _, tc := range []struct {
		lang, ramp, bearLeft string
	}{
		{"English", "Take exit 3B toward " + toward, "Bear left"},
		{"Dutch", "Neem afrit 3B richting " + toward, "Houd links aan"},
		{"French", "Prenez la sortie 3B en direction de " + toward, "Serrez à gauche"},
		{"Spanish", "Tome la salida 3B hacia " + toward, "Manténgase a la izquierda"},
		{"Italian", "Prendi l'uscita 3B in direzione " + toward, "Tieni la sinistra"},
		{"German", "Ausfahrt 3B nehmen Richtung " + toward, "Links halten"},
		{"XML", "exit 3B toward " + toward, "slight left"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			body := routeRequest(f.key, map[string]string{"DepartureX": "10.001", "DepartureY": "0", "ArrivalX": "10.005", "ArrivalY": "-0.002", "Language": tc.lang, "WantDataSet": "true"})
			rec := f.post("text/xml", envelope11(body))
			var env struct {
				R routeResult `xml:"Body>RoutePlannerSimpleResponse>RoutePlannerSimpleResult"`
			}
			if err := xml.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.R.Description == nil {
				t.Fatalf("%v: %s", err, rec.Body)
			}
			// The bundle's name and the date of its data (the fixture's
			// newest timestamp); WantDataSet is accepted and ignored.
			if env.R.RoadDataName != "ramp (OSM 2024-05-01)" {
				t.Errorf("RoadDataName %q, want ramp (OSM 2024-05-01)", env.R.RoadDataName)
			}
			items := env.R.Description.Items
			want := []struct{ dir, street string }{{"", "Delaware Turnpike"}, {tc.ramp, ""}, {tc.bearLeft, "Main Street"}, {"", "Main Street"}}
			if len(items) != len(want) {
				t.Fatalf("%d steps, want %d: %+v", len(items), len(want), items)
			}
			for i, w := range want {
				if w.dir != "" && items[i].Dir != w.dir || items[i].Street != w.street {
					t.Errorf("step %d: %q %q, want %q %q", i+1, items[i].Dir, items[i].Street, w.dir, w.street)
				}
			}
		})
	}
}

// TestStepDir: a ramp without an exit number, without signs, and a plain
// turn.
func TestStepDir(t *testing.T) {
	for _, tc := range []struct {
		st   routing.Step
		lang string
		want string
	}{
		{routing.Step{Ramp: true, Toward: "I-95 North: Wilmington"}, "English", "Take the ramp toward I-95 North: Wilmington"},
		{routing.Step{Ramp: true, Toward: "I-95 North: Wilmington"}, "French", "Prenez la bretelle en direction de I-95 North: Wilmington"},
		{routing.Step{Ramp: true}, "Dutch", "Neem de verbindingsweg"},
		{routing.Step{Ramp: true}, "Spanish", "Tome el ramal"},
		{routing.Step{Ramp: true}, "Italian", "Prendi la rampa"},
		{routing.Step{Ramp: true, Exit: "7"}, "German", "Ausfahrt 7 nehmen"},
		{routing.Step{Ramp: true}, "XML", "ramp"},
		{routing.Step{Maneuver: routing.Left}, "English", "Turn left"},
		{routing.Step{Maneuver: routing.Left}, "XML", "left"},
	} {
		if got := stepDir(tc.st, tc.lang); got != tc.want {
			t.Errorf("stepDir(%+v, %s) = %q, want %q", tc.st, tc.lang, got, tc.want)
		}
	}
}
