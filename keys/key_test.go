package keys

import (
	"slices"
	"strings"
	"testing"
)

func TestGenerate(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		k, err := Generate()
		if err != nil {
			t.Fatal(err)
		}
		if len(k) != 43 || !strings.HasPrefix(k, GeneratedPrefix) {
			t.Fatalf("Generate() = %q, want gs_ + 40 chars", k)
		}
		for _, c := range k[3:] {
			if !strings.ContainsRune(base62, c) {
				t.Fatalf("Generate() = %q: %q is not base62", k, c)
			}
		}
		if err := Validate(k); err != nil {
			t.Fatalf("Validate(%q) = %v", k, err)
		}
		if seen[k] {
			t.Fatalf("Generate() repeated %q", k)
		}
		seen[k] = true
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		key  string
		ok   bool
	}{
		{"empty", "", false},
		{"29 chars", strings.Repeat("a", 29), false},
		{"30 chars", strings.Repeat("a", 30), true},
		{"128 chars", strings.Repeat("a", 128), true},
		{"129 chars", strings.Repeat("a", 129), false},
		{"inner space", strings.Repeat("a", 20) + " " + strings.Repeat("a", 20), false},
		{"control char", strings.Repeat("a", 30) + "\x01", false},
		{"punctuation", strings.Repeat("a-_.~", 8), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Validate(tt.key); (err == nil) != tt.ok {
				t.Errorf("Validate(%q) = %v, want ok=%v", tt.key, err, tt.ok)
			}
		})
	}
}

func TestHash(t *testing.T) {
	// sha256("abc") from FIPS 180-2.
	if got, want := Hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"; got != want {
		t.Errorf("Hash(abc) = %s, want %s", got, want)
	}
}

func TestAllows(t *testing.T) {
	tests := []struct {
		ifaces []string
		iface  string
		want   bool
	}{
		{nil, "tdmv1", true},
		{[]string{"geocoderv1"}, "tdmv1", false},
		{[]string{"geocoderv1", "tdmv1"}, "tdmv1", true},
		{[]string{"geocoderv1"}, KeysV1, true},
	}
	for _, tt := range tests {
		if got := (Key{Interfaces: tt.ifaces}).Allows(tt.iface); got != tt.want {
			t.Errorf("Key{%v}.Allows(%s) = %v, want %v", tt.ifaces, tt.iface, got, tt.want)
		}
	}
}

func TestKnownInterfaces(t *testing.T) {
	if !slices.IsSorted(Known()) {
		t.Errorf("Known() = %v, not sorted (IsKnown searches it)", Known())
	}
	tests := []struct {
		name string
		want bool
	}{
		{"tdmv1", true}, {"soap", true}, {"zip4v1", true}, {"adminv1", true},
		{"tdm", false}, {"foo", false}, {"", false}, {"TDMV1", false},
	}
	for _, tt := range tests {
		if got := IsKnown(tt.name); got != tt.want {
			t.Errorf("IsKnown(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
