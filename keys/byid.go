package keys

import (
	"context"
	"errors"
)

// AuthenticateID returns the active key with the given id, as Authenticate
// does for a key's value (and cached alike): ErrUnknown when no key has
// that id, ErrRevoked when it is not active, another error when Redis
// failed; ErrPending and ErrExpired as Authenticate. It checks the key a
// signed token names (the tile tokens).
func (s *Store) AuthenticateID(ctx context.Context, id string) (Key, error) {
	k, err := s.cachedByID(ctx, id)
	if err == nil && k.ExpiredAt(s.now()) {
		return k, ErrExpired
	}
	return k, err
}

func (s *Store) cachedByID(ctx context.Context, id string) (Key, error) {
	ck := "id:" + id
	if s.cache != nil {
		if e, ok := s.cache.get(ck); ok {
			return e.key, e.err
		}
	}
	k, err := s.Get(ctx, id)
	switch {
	case errors.Is(err, ErrNotFound):
		err = ErrUnknown
	case err != nil:
		return Key{}, err // Redis: not cached
	case k.Status == Pending:
		err = ErrPending
	case k.Status != Active:
		err = ErrRevoked
	}
	if s.cache != nil {
		s.cache.put(ck, k, err)
	}
	return k, err
}
