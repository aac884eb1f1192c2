package soap

import (
	"strings"

	"github.com/geosvc/geosvc/routing"
)

// rampPhrase is how a RouteLanguage says a step onto a ramp or link:
// take says "take the ramp", exit "take exit %s" when the ramp has an
// exit number, toward adds its destination (" toward %s").
type rampPhrase struct{ take, exit, toward string }

// rampPhrases are the Dir texts of ramp steps per RouteLanguage; "XML"
// gives "ramp", "ramp toward DEST".
var rampPhrases = map[string]rampPhrase{
	"English": {"Take the ramp", "Take exit %s", " toward %s"},
	"Dutch":   {"Neem de verbindingsweg", "Neem afrit %s", " richting %s"},
	"French":  {"Prenez la bretelle", "Prenez la sortie %s", " en direction de %s"},
	"Spanish": {"Tome el ramal", "Tome la salida %s", " hacia %s"},
	"Italian": {"Prendi la rampa", "Prendi l'uscita %s", " in direzione %s"},
	"German":  {"Rampe nehmen", "Ausfahrt %s nehmen", " Richtung %s"},
	"XML":     {"ramp", "exit %s", " toward %s"},
}

// stepDir is the Dir text of a step in a language: the maneuver's phrase,
// or for a ramp "Take the ramp" (or "Take exit 7A") with " toward DEST"
// when its signs say where it leads.
func stepDir(st routing.Step, lang string) string {
	if st.Ramp {
		p, ok := rampPhrases[lang]
		if !ok {
			p = rampPhrases["English"]
		}
		dir := p.take
		if st.Exit != "" {
			dir = strings.Replace(p.exit, "%s", st.Exit, 1)
		}
		if st.Toward != "" {
			dir += strings.Replace(p.toward, "%s", st.Toward, 1)
		}
		return dir
	}
	if p, ok := maneuverPhrases[lang]; ok {
		return p[st.Maneuver]
	}
	return st.Maneuver.String()
}
