package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

var _ Authors = (*Postgres)(nil)

// AddAuthor adds an author with the hash of their token; the unique keys refuse a
// name (or a token) taken, even by a racing add.
func (p *Postgres) AddAuthor(ctx context.Context, name, tokenHash string) (Author, error) {
	now := time.Now().Truncate(time.Millisecond)
	a := Author{Name: name, Created: now.UTC()}
	err := p.pool.QueryRow(ctx, `INSERT INTO authors (name, token_hash, created) VALUES ($1, $2, $3) RETURNING id`,
		name, tokenHash, now).Scan(&a.ID)
	if pgCode(err) == uniqueViolation {
		return Author{}, fmt.Errorf("%w: an author named %q exists", ErrDuplicate, name)
	}
	if err != nil {
		return Author{}, err
	}
	return a, nil
}

// RevokeAuthor revokes the author's token.
func (p *Postgres) RevokeAuthor(ctx context.Context, name string) (Author, error) {
	now := time.Now().Truncate(time.Millisecond)
	a := Author{Revoked: now.UTC()}
	err := p.pool.QueryRow(ctx, `UPDATE authors SET revoked = $1 WHERE name = $2 AND revoked IS NULL
		RETURNING id, name, created`, now, name).Scan(&a.ID, &a.Name, &a.Created)
	if errors.Is(err, pgx.ErrNoRows) {
		return Author{}, fmt.Errorf("%w: no author named %q with a valid token", ErrNotFound, name)
	}
	a.Created = a.Created.UTC()
	return a, err
}

// AuthorByToken finds the author of an unrevoked token.
func (p *Postgres) AuthorByToken(ctx context.Context, tokenHash string) (Author, error) {
	var a Author
	err := p.pool.QueryRow(ctx, `SELECT id, name, created FROM authors WHERE token_hash = $1 AND revoked IS NULL`, tokenHash).
		Scan(&a.ID, &a.Name, &a.Created)
	if errors.Is(err, pgx.ErrNoRows) {
		return Author{}, fmt.Errorf("%w: no such token", ErrNotFound)
	}
	a.Created = a.Created.UTC()
	return a, err
}

// Owner is the author owning botName.
func (p *Postgres) Owner(ctx context.Context, botName string) (int64, bool, error) {
	var id int64
	err := p.pool.QueryRow(ctx, `SELECT author_id FROM bot_owners WHERE name = $1`, botName).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	return id, err == nil, err
}

// Claim makes author the owner of a name nobody has. Of racing claims of one name the
// primary key of bot_owners lets one in; the others then see its owner.
func (p *Postgres) Claim(ctx context.Context, author int64, botName string) error {
	owner, ok, err := p.Owner(ctx, botName)
	if err != nil {
		return err
	}
	if !ok {
		var operators bool
		if err := p.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM bots WHERE name = $1)`, botName).Scan(&operators); err != nil {
			return err
		}
		if operators {
			return fmt.Errorf("%w: bot %q was added by the ladder's operator", ErrDuplicate, botName)
		}
		if _, err := p.pool.Exec(ctx, `INSERT INTO bot_owners (name, author_id) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
			botName, author); err != nil {
			return err
		}
		if owner, _, err = p.Owner(ctx, botName); err != nil {
			return err
		}
	}
	if owner != author {
		return fmt.Errorf("%w: bot %q belongs to another author", ErrDuplicate, botName)
	}
	return nil
}

// CountSubmission counts one submission now.
func (p *Postgres) CountSubmission(ctx context.Context, author int64) error {
	_, err := p.pool.Exec(ctx, `INSERT INTO submissions (author_id, at) VALUES ($1, $2)`, author, time.Now().Truncate(time.Millisecond))
	return err
}

// Owned lists the names an author owns.
func (p *Postgres) Owned(ctx context.Context, author int64) ([]string, error) {
	rows, err := p.pool.Query(ctx, `SELECT name FROM bot_owners WHERE author_id = $1 ORDER BY name`, author)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// Owners maps each owned bot name to its author's name.
func (p *Postgres) Owners(ctx context.Context) (map[string]string, error) {
	rows, err := p.pool.Query(ctx, `SELECT o.name, a.name FROM bot_owners o JOIN authors a ON a.id = o.author_id`)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	var bot, author string
	_, err = pgx.ForEachRow(rows, []any{&bot, &author}, func() error {
		out[bot] = author
		return nil
	})
	return out, err
}

// Submissions counts the author's submissions since a moment.
func (p *Postgres) Submissions(ctx context.Context, author int64, since time.Time) (int, error) {
	var n int
	err := p.pool.QueryRow(ctx, `SELECT COUNT(*) FROM submissions WHERE author_id = $1 AND at >= $2`,
		author, since.Truncate(time.Millisecond)).Scan(&n)
	return n, err
}
