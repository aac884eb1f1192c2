package zip4

import (
	"reflect"
	"testing"
)

func TestParseTigerZips(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"19901", []string{"19901"}},
		{" 19901 ", []string{"19901"}},
		{"19703:19802", []string{"19703", "19802"}},
		{"19803:19809:19810", []string{"19803", "19809", "19810"}},
		{"19901;19904", []string{"19901", "19904"}},
		{"19901; 19904,19905", []string{"19901", "19904", "19905"}},
		{"19701-19703", []string{"19701", "19703"}},
		{"19901-1234", []string{"19901"}},
		{"19901:19901", []string{"19901"}},
		{"MD 367", nil},
		{"1990", nil},
		{"199011", nil},
		{"", nil},
	} {
		if got := ParseTigerZips(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseTigerZips(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestValidZip9(t *testing.T) {
	for in, want := range map[string]bool{
		"199010001": true, "000000000": true, "19901000": false, "1990100011": false,
		"19901-0001": false, "19901000a": false, "": false, "１99010001": false,
	} {
		if got := ValidZip9(in); got != want {
			t.Errorf("ValidZip9(%q) = %v, want %v", in, got, want)
		}
	}
}
