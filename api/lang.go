package api

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/geo/geocode"
)

// parseLang reads the languages answers are named in: the lang parameter
// (BCP 47 tags, comma-separated, preferred first), else the
// Accept-Language header (by its q values; a malformed header is
// ignored). It returns OSM name:xx keys (geocode.ParseLangs), and a
// message naming lang when it is malformed.
func parseLang(lang string, present bool, acceptLanguage string) ([]string, string) {
	if present {
		keys, err := geocode.ParseLangs(lang)
		if err != nil {
			return nil, fmt.Sprintf("lang must be BCP 47 language tags separated by commas (de, fr-CA, zh-Hant), got %s", quoteEcho(lang))
		}
		return keys, ""
	}
	if acceptLanguage != "" {
		return geocode.AcceptLanguages(acceptLanguage), ""
	}
	return nil, ""
}

// langParam returns the query's lang and whether it is given: an empty
// (or blank) lang= is as if absent, so the Accept-Language header, then
// the default names, apply, as for an empty Accept-Language header.
func langParam(q url.Values) (string, bool) {
	l, present := q["lang"]
	if !present || strings.TrimSpace(l[0]) == "" {
		return "", false
	}
	return l[0], true
}

// requestLang is parseLang on a request's lang parameter (langParam) and
// Accept-Language header. When the header decides (no lang), the answer
// varies with it: Vary names Accept-Language.
func requestLang(c echo.Context, q url.Values) ([]string, string) {
	s, given := langParam(q)
	if !given {
		varyAcceptLanguage(c.Response().Header())
	}
	return parseLang(s, given, c.Request().Header.Get("Accept-Language"))
}

// varyAcceptLanguage adds Accept-Language to an answer's Vary header,
// beside the values already there (CORS's Origin, Accept-Encoding), so
// that a cache keeps the answers to different Accept-Language headers
// apart.
func varyAcceptLanguage(h http.Header) {
	for _, v := range h.Values(echo.HeaderVary) {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), "Accept-Language") {
				return
			}
		}
	}
	h.Add(echo.HeaderVary, "Accept-Language")
}

// setContentLanguage states the language an answer's names are in (the
// Content-Language header), when it is not the default names'.
func setContentLanguage(c echo.Context, lang string) {
	if lang != "" {
		c.Response().Header().Set("Content-Language", lang)
	}
}
