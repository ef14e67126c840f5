package store

import (
	"context"
	"time"
)

// Sessions keeps the logins of authors in a browser. A session is known by the
// SHA-256 of a random ID (the browser's cookie holds the ID), so that a copy of the
// database lets nobody in, and it names its author until it expires, is ended, or the
// author's token is rotated or revoked.
type Sessions interface {
	// StartSession keeps a session of author, known by idHash, until expires. Sessions
	// of any author that have expired are removed on the way.
	StartSession(ctx context.Context, idHash string, author int64, expires time.Time) error
	// SessionAuthor finds the author of an unexpired session whose token is not
	// revoked; an error wrapping ErrNotFound when there is none.
	SessionAuthor(ctx context.Context, idHash string) (Author, error)
	// EndSession ends one session; ending one that is gone already is no error.
	EndSession(ctx context.Context, idHash string) error
	// RotateToken gives the named author, whose token is not revoked, a new token
	// (its SHA-256) and ends all their sessions, at once: from then on the old token
	// and the sessions it opened let nobody in. An error wrapping ErrNotFound when no
	// such author has a valid token.
	RotateToken(ctx context.Context, name, tokenHash string) (Author, error)
}
