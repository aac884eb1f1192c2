package api

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/keys"
)

// keyedServer returns a server whose protected group takes the key it
// also returns (one created for owner in a key store on the test Redis),
// with the handlers left for the test to register.
func keyedServer(t testing.TB, owner string) (*Server, string) {
	t.Helper()
	rd := redistest.New(t)
	store := keys.NewStore(rd.Client, keys.Options{Prefix: rd.Prefix})
	_, key, err := store.Create(context.Background(), keys.CreateOptions{Owner: owner})
	if err != nil {
		t.Fatal(err)
	}
	return New(Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Redis: rd.Client, Gate: keys.NewGate(store, keys.GateOptions{})}), key
}
