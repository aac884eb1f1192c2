package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestAdminLang: adminv1's name in the request's language, from the
// boundary relation's name:xx tags. Delaware's state relation (r162110)
// has name:ru=Делавэр and name:ja=デラウェア州, no name:de or name:fr.
func TestAdminLang(t *testing.T) {
	f := newBndFixture(t, true)
	const dover = "/adminv1/xy2admininfo?x=-75.5244&y=39.1582&type=admin1"
	// country_name: the world base layer's country has no name:xx, so
	// CLDR's name of the United States in the first language CLDR has
	// (main/ru.xml, ja.xml, de.xml, fr.xml read by hand).
	for _, tc := range []struct {
		name, query, acceptLanguage string
		want, country               string
	}{
		{"default", "", "", "Delaware", "United States"},
		{"ru", "&lang=ru", "", "Делавэр", "Соединенные Штаты"},
		{"ja", "&lang=ja", "", "デラウェア州", "アメリカ合衆国"},
		{"a region's base language", "&lang=ru-RU", "", "Делавэр", "Соединенные Штаты"},
		{"the first language the data has", "&lang=de,ja", "", "デラウェア州", "Vereinigte Staaten"},
		{"a language the data lacks", "&lang=de", "", "Delaware", "Vereinigte Staaten"},
		{"Accept-Language", "", "fr;q=0.9, ru;q=0.8", "Делавэр", "États-Unis"},
		{"lang over Accept-Language", "&lang=ja", "ru", "デラウェア州", "アメリカ合衆国"},
		{"an empty lang is as if absent", "&lang=", "fr;q=0.9, ru;q=0.8", "Делавэр", "États-Unis"},
		{"an empty lang, no Accept-Language", "&lang=", "", "Delaware", "United States"},
		{"a language neither has", "&lang=xx", "", "Delaware", "United States"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var h http.Header
			if tc.acceptLanguage != "" {
				h = http.Header{"Accept-Language": {tc.acceptLanguage}}
			}
			rec := f.getWith(t, dover+tc.query, h)
			var r struct {
				Features []struct {
					Properties struct {
						Name        string `json:"name"`
						CountryName string `json:"country_name"`
					} `json:"properties"`
				} `json:"features"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || rec.Code != 200 || len(r.Features) != 1 {
				t.Fatalf("%d %v: %.300s", rec.Code, err, rec.Body)
			}
			if p := r.Features[0].Properties; p.Name != tc.want || p.CountryName != tc.country {
				t.Errorf("name %q, country %q; want %q, %q", p.Name, p.CountryName, tc.want, tc.country)
			}
		})
	}
	code, body := f.get(t, dover+"&lang=r")
	if code != 400 || !strings.Contains(string(body), "lang must be BCP 47") {
		t.Errorf("lang=r: %d %s", code, body)
	}
}

// TestAdminHierarchyLang: xy2hierarchy names each level in the request's
// language as xy2admininfo does: Delaware's state as Делавэр with
// lang=ru, its default name without; a bad tag is a 400.
func TestAdminHierarchyLang(t *testing.T) {
	f := newBndFixture(t, true)
	const dover = "/adminv1/xy2hierarchy?x=-75.5244&y=39.1582"
	for _, tc := range []struct{ query, want string }{{"", "Delaware"}, {"&lang=ru", "Делавэр"}, {"&lang=de", "Delaware"}} {
		rec := f.getWith(t, dover+tc.query, nil)
		var r struct {
			Features []struct {
				Properties struct {
					Name         string `json:"name"`
					CategoryCode string `json:"category_code"`
				} `json:"properties"`
			} `json:"features"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || rec.Code != 200 {
			t.Fatalf("%s: %d %v", tc.query, rec.Code, err)
		}
		found := false
		for _, ft := range r.Features {
			if ft.Properties.Name == tc.want {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no level named %q in %+v", tc.query, tc.want, r.Features)
		}
	}
	if code, body := f.get(t, dover+"&lang=r"); code != 400 || !strings.Contains(string(body), "lang must be BCP 47") {
		t.Errorf("lang=r: %d %s", code, body)
	}
}
