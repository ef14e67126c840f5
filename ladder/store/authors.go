package store

import (
	"context"
	"time"
)

// Author is someone who submits bots to a ladder served over HTTP. Only the SHA-256 of
// the author's token is kept, so a copy of the database does not let anyone in.
type Author struct {
	ID      int64
	Name    string
	Created time.Time
	// Revoked is zero while the token is good.
	Revoked time.Time
}

// Authors keeps authors, their sessions, which bot names they own, and when they
// submitted. A store that serves a ladder to authors implements it beside Store.
type Authors interface {
	Sessions
	// AddAuthor adds an author with the SHA-256 (hex) of their token; a name already
	// taken is refused with an error wrapping ErrDuplicate.
	AddAuthor(ctx context.Context, name, tokenHash string) (Author, error)
	// RevokeAuthor revokes the author's token; their bots keep playing.
	RevokeAuthor(ctx context.Context, name string) (Author, error)
	// AuthorByToken finds the author whose unrevoked token hashes to tokenHash; an
	// error wrapping ErrNotFound when none does.
	AuthorByToken(ctx context.Context, tokenHash string) (Author, error)
	// Owner is the author owning a bot name, with ok false for a name nobody owns
	// (a bot the operator added).
	Owner(ctx context.Context, botName string) (author int64, ok bool, err error)
	// Claim makes author the owner of a bot name nobody owns yet; it fails wrapping
	// ErrDuplicate when another author owns the name, or it is a bot the operator added.
	Claim(ctx context.Context, author int64, botName string) error
	// Unclaim gives up author's claim on a bot name of which no version was added
	// (its first submission failed), so that the name counts no more among theirs.
	// A name with versions, or another author's, is left as it is.
	Unclaim(ctx context.Context, author int64, botName string) error
	// CountSubmission counts one submission of the author, now.
	CountSubmission(ctx context.Context, author int64) error
	// Owned lists the bot names an author owns.
	Owned(ctx context.Context, author int64) ([]string, error)
	// Owners maps every owned bot name to its author's name (a revoked author's
	// too: their bots keep playing).
	Owners(ctx context.Context) (map[string]string, error)
	// Submissions counts the author's submissions since a moment.
	Submissions(ctx context.Context, author int64, since time.Time) (int, error)
}
