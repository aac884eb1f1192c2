package roadref

import (
	"reflect"
	"testing"
)

func TestNumbers(t *testing.T) {
	for _, tc := range []struct {
		ref  string
		want []string
	}{
		{"I 95", []string{"I-95"}},
		{"I 95;US 13", []string{"I-95", "US-13"}},
		{" DE  1 ", []string{"DE-1"}},
		{"CG-1", []string{"CG-1"}},
		{"CG3i4", []string{"CG3i4"}},
		{"(221)", nil},
		{"221", nil},
		{"US 13 Alt", []string{"US-13 Alt"}},
		{";", nil},
	} {
		if got := Numbers(tc.ref); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Numbers(%q) = %q, want %q", tc.ref, got, tc.want)
		}
	}
}
