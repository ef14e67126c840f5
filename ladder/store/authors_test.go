package store

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAuthorsTokensOwnershipAndReactivation(t *testing.T) {
	s, _ := openTemp(t)
	ann, err := s.AddAuthor(ctx, "ann", "hash-a")
	require.NoError(t, err)
	bob, err := s.AddAuthor(ctx, "bob", "hash-b")
	require.NoError(t, err)
	_, err = s.AddAuthor(ctx, "ann", "hash-c")
	assert.ErrorIs(t, err, ErrDuplicate, "a second author of one name")

	got, err := s.AuthorByToken(ctx, "hash-a")
	require.NoError(t, err)
	assert.Equal(t, ann.ID, got.ID)
	_, err = s.AuthorByToken(ctx, "hash-x")
	assert.ErrorIs(t, err, ErrNotFound)

	// A name is claimed once; the operator's bots belong to nobody and cannot be claimed.
	require.NoError(t, s.Claim(ctx, ann.ID, "annbot"))
	require.NoError(t, s.Claim(ctx, ann.ID, "annbot"), "claiming one's own name again")
	assert.ErrorIs(t, s.Claim(ctx, bob.ID, "annbot"), ErrDuplicate)
	addBots(t, s, "operatorbot")
	assert.ErrorIs(t, s.Claim(ctx, bob.ID, "operatorbot"), ErrDuplicate)
	owner, ok, err := s.Owner(ctx, "annbot")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, ann.ID, owner)
	_, ok, err = s.Owner(ctx, "operatorbot")
	require.NoError(t, err)
	assert.False(t, ok)
	names, err := s.Owned(ctx, ann.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"annbot"}, names)

	start := time.Now().Add(-time.Second)
	require.NoError(t, s.CountSubmission(ctx, ann.ID))
	require.NoError(t, s.CountSubmission(ctx, ann.ID))
	n, err := s.Submissions(ctx, ann.ID, start)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	n, err = s.Submissions(ctx, ann.ID, time.Now().Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, 0, n, "submissions before the moment do not count")

	// Revoked tokens no longer let in.
	_, err = s.RevokeAuthor(ctx, "ann")
	require.NoError(t, err)
	_, err = s.AuthorByToken(ctx, "hash-a")
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = s.RevokeAuthor(ctx, "ann")
	assert.ErrorIs(t, err, ErrNotFound, "revoking twice")

	// A retired bot plays again once reactivated, an active one cannot be.
	_, err = s.ReactivateBot(ctx, "operatorbot")
	assert.Error(t, err, "an active bot is not reactivated")
	_, err = s.RetireBot(ctx, "operatorbot")
	require.NoError(t, err)
	b, err := s.ReactivateBot(ctx, "operatorbot")
	require.NoError(t, err)
	active, err := s.Bots(ctx, false)
	require.NoError(t, err)
	require.Len(t, active, 1)
	assert.Equal(t, b.ID, active[0].ID)
	_, err = s.ReactivateBot(ctx, "nobody")
	assert.ErrorIs(t, err, ErrNotFound)
}
