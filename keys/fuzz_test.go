package keys

import (
	"strings"
	"testing"
)

// FuzzValidate checks that Validate accepts exactly the keys of 30..128
// printable ASCII characters other than a space, whatever the input.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{"", "gs_abc", strings.Repeat("a", 30), strings.Repeat("é", 20), strings.Repeat("a", 128) + "b", "a\x00" + strings.Repeat("b", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		err := Validate(key)
		clean := !strings.ContainsFunc(key, func(r rune) bool { return r <= ' ' || r >= 0x7f })
		want := len(key) >= MinLen && len(key) <= MaxLen && clean
		if (err == nil) != want {
			t.Fatalf("Validate(%q) = %v, want ok=%v", key, err, want)
		}
		if err == nil && Hash(key) == Hash(key+"x") {
			t.Fatalf("hash collision on %q", key)
		}
	})
}
