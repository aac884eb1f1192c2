package api

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
	"golang.org/x/text/language"
)

// maxLangTags bounds the tags of a lang parameter.
const maxLangTags = 10

// parseLang reads the languages answers are named in: the lang parameter
// (BCP 47 tags, comma-separated, preferred first), else the
// Accept-Language header (by its q values; a malformed header is
// ignored, as browsers' are never wrong on purpose). It returns OSM
// name:xx keys, each tag followed by its shorter forms ("zh-Hant-TW",
// "zh-Hant", "zh"), and a message naming lang when it is malformed.
func parseLang(lang string, present bool, acceptLanguage string) ([]string, string) {
	var tags []language.Tag
	if present {
		parts := strings.Split(lang, ",")
		if len(parts) > maxLangTags {
			return nil, fmt.Sprintf("lang has %d tags, at most %d", len(parts), maxLangTags)
		}
		for _, p := range parts {
			p = strings.TrimSpace(p)
			t, err := language.Parse(p)
			if p == "" || err != nil || p == "*" {
				return nil, fmt.Sprintf("lang must be BCP 47 language tags separated by commas (de, fr-CA, zh-Hant), got %s", quoteEcho(lang))
			}
			tags = append(tags, t)
		}
	} else if acceptLanguage != "" {
		ts, _, err := language.ParseAcceptLanguage(acceptLanguage)
		if err != nil {
			return nil, ""
		}
		tags = ts
	}
	var keys []string
	seen := map[string]bool{}
	for _, t := range tags {
		if t == language.Und || t.String() == "mul" { // "*" of Accept-Language
			continue
		}
		for s := t.String(); s != ""; {
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
