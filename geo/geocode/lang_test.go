package geocode

import (
	"strings"
	"testing"
)

func TestParseLangs(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"de", "de", true},
		{"ZH-hant-tw", "zh-Hant-TW,zh-Hant,zh", true},
		{" de-CH , fr ", "de-CH,de,fr", true},
		{"be-tarask", "be-tarask,be", true},
		{"a,b,c,d,e,f,g,h,i,j,k", "", false},                                        // one-letter languages
		{"aa,bb,cc,dd,ee,ff,gg,hh,ii,jj,kk", "aa,bb,cc,dd,ee,ff,gg,hh,ii,jj", true}, // the eleventh is not read
		{"", "", false}, {"*", "", false}, {"de_DE", "", false}, {"de,", "", false}, {"12", "", false},
	} {
		got, err := ParseLangs(tc.in)
		if (err == nil) != tc.ok || strings.Join(got, ",") != tc.want {
			t.Errorf("ParseLangs(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	if got := strings.Join(AcceptLanguages("fr-CA;q=0.8, es, *;q=0.1"), ","); got != "es,fr-CA,fr" {
		t.Errorf("AcceptLanguages: %q", got)
	}
	if got := AcceptLanguages(";;q=x"); got != nil {
		t.Errorf("malformed Accept-Language: %q", got)
	}
}

func FuzzParseLangs(f *testing.F) {
	for _, s := range []string{"de", "zh-Hant-TW", "de-CH, fr", "", "*", "x-private", "en-US-u-ca-buddhist"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		keys, err := ParseLangs(s)
		if err != nil {
			return
		}
		if len(keys) == 0 {
			t.Errorf("ParseLangs(%q): no language and no error", s)
		}
		for _, k := range keys {
			if k == "" || strings.ContainsAny(k, ", ") {
				t.Errorf("ParseLangs(%q): key %q", s, k)
			}
		}
		_ = AcceptLanguages(s)
	})
}
