package api

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/labstack/echo/v4"
	"golang.org/x/text/language"
)

// maxLangTags bounds the tags of a lang parameter that are read.
const maxLangTags = 10

// langPattern is what lang accepts (openapi.yaml's pattern): tags of
// BCP 47's syntax, a language of 2 to 8 letters and subtags of 1 to 8
// letters or digits, separated by commas.
var langPattern = regexp.MustCompile(`^ *[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*( *, *[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*)* *$`)

// parseLang reads the languages answers are named in: the lang parameter
// (BCP 47 tags, comma-separated, preferred first), else the
// Accept-Language header (by its q values; a malformed header is
// ignored, as browsers' are never wrong on purpose). It returns OSM
// name:xx keys, each tag followed by its shorter forms ("zh-Hant-TW",
// "zh-Hant", "zh"), and a message naming lang when it is malformed.
func parseLang(lang string, present bool, acceptLanguage string) ([]string, string) {
	var tags []string
	if present {
		if !langPattern.MatchString(lang) {
			return nil, fmt.Sprintf("lang must be BCP 47 language tags separated by commas (de, fr-CA, zh-Hant), got %s", quoteEcho(lang))
		}
		for i, p := range strings.Split(lang, ",") {
			if i == maxLangTags {
				break
			}
			p = strings.TrimSpace(p)
			// A registered tag in its canonical form (ZH-hant is
			// zh-Hant); a well-formed one x/text does not know as given.
			if t, err := language.Parse(p); err == nil {
				p = t.String()
			}
			tags = append(tags, p)
		}
	} else if acceptLanguage != "" {
		ts, _, err := language.ParseAcceptLanguage(acceptLanguage)
		if err != nil {
			return nil, ""
		}
		for _, t := range ts {
			if t != language.Und && t.String() != "mul" { // "*"
				tags = append(tags, t.String())
			}
		}
	}
	var keys []string
	seen := map[string]bool{}
	for _, t := range tags {
		for s := t; s != ""; {
			if !seen[s] {
				seen[s] = true
				keys = append(keys, s)
			}
			i := strings.LastIndexByte(s, '-')
			if i < 0 {
				break
			}
			s = s[:i]
		}
	}
	return keys, ""
}

// requestLang is parseLang on a request's lang parameter and
// Accept-Language header.
func requestLang(c echo.Context, q url.Values) ([]string, string) {
	l, present := q["lang"]
	s := ""
	if present {
		s = l[0]
	}
	return parseLang(s, present, c.Request().Header.Get("Accept-Language"))
}
