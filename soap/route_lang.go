package soap

import (
	"context"

	"github.com/geosvc/geosvc/geo/geocode"
)

// routeNameLangs are the languages of street names per RouteLanguage
// (OSM name:xx keys): a route description in German names its streets
// by their name:de where the data has one. "XML" names no language: the
// HTTP request's Accept-Language header chooses (routeNameLanguages).
var routeNameLangs = map[string][]string{
	"English": {"en"},
	"Dutch":   {"nl"},
	"French":  {"fr"},
	"Spanish": {"es"},
	"Italian": {"it"},
	"German":  {"de"},
}

// acceptLanguageContext carries the HTTP request's Accept-Language
// header to the operations.
type acceptLanguageContext struct{}

// answerMeta is what an operation tells the HTTP answer besides its
// body: the language its names are in (Content-Language), and whether
// the Accept-Language header chose them (Vary).
type answerMeta struct {
	lang         string
	varyLanguage bool
}

// answerMetaContext carries the request's *answerMeta.
type answerMetaContext struct{}

// routeNameLanguages returns the languages a route's street names are
// given in: those of the RouteLanguage lang, or for "XML" those of the
// request's Accept-Language header (by its q values; none, or a
// malformed header: the default names).
func routeNameLanguages(ctx context.Context, lang string) []string {
	if l, ok := routeNameLangs[lang]; ok {
		return l
	}
	if m, ok := ctx.Value(answerMetaContext{}).(*answerMeta); ok {
		m.varyLanguage = true
	}
	h, _ := ctx.Value(acceptLanguageContext{}).(string)
	if h == "" {
		return nil
	}
	return geocode.AcceptLanguages(h)
}

// setAnswerLang states the language of the answer's names (the HTTP
// answer's Content-Language).
func setAnswerLang(ctx context.Context, lang string) {
	if m, ok := ctx.Value(answerMetaContext{}).(*answerMeta); ok && lang != "" {
		m.lang = lang
	}
}
