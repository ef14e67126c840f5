package service

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
)

// A spent budget comes back at its rate, one address's apart from another's.
func TestBucketsRefill(t *testing.T) {
	const period = 400 * time.Millisecond // 2 tokens: one back every 200 ms
	b := newBuckets(2, period)
	start := time.Now()
	require.Zero(t, b.take("a"))
	require.Zero(t, b.wait("a"), "waiting takes nothing")
	require.Zero(t, b.take("a"))
	wait := b.take("a")
	assert.Positive(t, wait)
	assert.LessOrEqual(t, wait, period/2)
	assert.LessOrEqual(t, b.wait("a"), wait, "a refused take takes nothing")
	assert.Zero(t, b.take("b"), "another address")
	require.True(t, poll.Within(time.Minute, func() bool { return b.take("a") == 0 }))
	assert.GreaterOrEqual(t, time.Since(start), period/2, "a token came back before its time")
}

// Failures spent past the check, as concurrent ones are, count as a debt of at most
// a bucketful.
func TestBucketsSpendIntoDebt(t *testing.T) {
	const period = time.Hour
	b := newBuckets(2, period)
	for range 10 {
		b.spend("a")
	}
	assert.InDelta(t, 3*period/2, b.wait("a"), float64(time.Second), "two tokens owed and one to have: 1.5 periods")
}

// Budgets of addresses not seen for a period are dropped, so the map does not grow
// with every address that ever asked.
func TestBucketsForgetIdleAddresses(t *testing.T) {
	const period = 100 * time.Millisecond
	b := newBuckets(1, period)
	b.take("old")
	require.True(t, poll.Within(time.Minute, func() bool {
		b.take("new")
		b.mu.Lock()
		defer b.mu.Unlock()
		_, kept := b.m["old"]
		return !kept
	}))
}
