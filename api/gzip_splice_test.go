package api

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestGzipPrefix: a member made of a prefix and a tail is a valid gzip
// stream (checked by compress/gzip, which verifies the CRC-32 and the
// length) of the concatenated text, for empty and long parts and tails
// over one stored block.
func TestGzipPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = "0123456789,.[]-"[rng.IntN(15)]
		}
		return b
	}
	tests := []struct {
		name string
		head [][]byte
		tail []byte
	}{
		{"both empty", nil, nil},
		{"empty tail", [][]byte{[]byte(`{"a":`), random(1000)}, nil},
		{"empty head", nil, []byte(`,"timeStamp":"2026-11-24T08:00:00.000Z"}`)},
		{"polygon-sized head", [][]byte{[]byte(`{"geometry":`), random(300_000)}, []byte(`,"b":1}`)},
		{"tail of two stored blocks", [][]byte{random(10)}, random(70_000)},
		{"tail of exactly one full block", [][]byte{random(10)}, random(0xffff)},
	}
	for _, level := range []int{flate.BestSpeed, flate.BestCompression} {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				p, err := newGzipPrefix(level, tc.head...)
				if err != nil {
					t.Fatal(err)
				}
				body := p.appendTail(bytes.Clone(p.member), tc.tail)
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(zr)
				if err != nil {
					t.Fatalf("read: %v", err)
				}
				want := append(bytes.Join(tc.head, nil), tc.tail...)
				if !bytes.Equal(got, want) {
					t.Errorf("text of %d bytes, want %d", len(got), len(want))
				}
				// The same prefix serves many tails.
				body2 := p.appendTail(bytes.Clone(p.member), []byte("x"))
				zr2, _ := gzip.NewReader(bytes.NewReader(body2))
				got2, err := io.ReadAll(zr2)
				if err != nil || !strings.HasSuffix(string(got2), "x") || len(got2) != len(want)-len(tc.tail)+1 {
					t.Errorf("second tail: %d bytes, %v", len(got2), err)
				}
			})
		}
	}
}
