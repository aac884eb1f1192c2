package api

import (
	"net"
	"testing"
)

func TestListenerURL(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"[::]:8080", "http://localhost:8080"},
		{"0.0.0.0:8080", "http://localhost:8080"},
		{"127.0.0.1:9000", "http://127.0.0.1:9000"},
		{"[::1]:9090", "http://[::1]:9090"},
	}
	for _, tt := range tests {
		a, err := net.ResolveTCPAddr("tcp", tt.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := ListenerURL(a); got != tt.want {
			t.Errorf("ListenerURL(%s) = %s, want %s", tt.addr, got, tt.want)
		}
	}
}
