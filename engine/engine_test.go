package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRandIsDeterministicAndCopiesByValue(t *testing.T) {
	a, b := NewRand(42), NewRand(42)
	for i := 0; i < 100; i++ {
		require.Equal(t, a.Uint64(), b.Uint64())
	}
	c := a // a copy continues exactly like the original: what Clone relies on
	assert.Equal(t, a.Intn(1000), c.Intn(1000))
	d := NewRand(43)
	e := NewRand(42)
	assert.NotEqual(t, e.Uint64(), d.Uint64())
}

func TestRandIntnIsUniform(t *testing.T) {
	r := NewRand(7)
	const n, draws = 6, 60000
	var count [n]int
	for i := 0; i < draws; i++ {
		v := r.Intn(n)
		require.True(t, v >= 0 && v < n)
		count[v]++
	}
	for v, c := range count {
		// 10,000 expected; 5 standard deviations is about 456.
		assert.InDelta(t, draws/n, c, 460, "value %d", v)
	}
	assert.Equal(t, 0, r.Intn(1))
	assert.Equal(t, 0, r.Intn(0))
}

func TestShuffleKeepsTheMultiset(t *testing.T) {
	r := NewRand(1)
	s := []uint8{1, 2, 2, 3, 4, 5, 5, 5}
	r.ShuffleBytes(s)
	var sum int
	for _, x := range s {
		sum += int(x)
	}
	assert.Equal(t, 27, sum)
	assert.Len(t, s, 8)
}

func TestPlacesByScoreSharesTies(t *testing.T) {
	assert.Equal(t, []int{2, 0, 0, 3}, PlacesByScore([]int{3, 5, 5, 1}, NoSeat))
	// A game winner comes first whatever the score.
	assert.Equal(t, []int{0, 1, 1, 3}, PlacesByScore([]int{3, 5, 5, 1}, 0))
	assert.Equal(t, []int{0, 2}, Result{Place: []int{0, 1, 0}}.Winners())
}

func TestAudience(t *testing.T) {
	a := Only(0, 3)
	assert.True(t, a.Sees(0))
	assert.True(t, a.Sees(3))
	assert.False(t, a.Sees(1))
	assert.False(t, a.Sees(-1))
	assert.True(t, Everyone.Sees(5))
	log := []Event{{Kind: 1, Audience: Everyone}, {Kind: 2, Audience: Only(1)}, {Kind: 3, Audience: Only(0)}}
	assert.Len(t, EventsFor(nil, log, 0, 0), 2)
	assert.Len(t, EventsFor(nil, log, 1, 1), 1)
}

func TestRegistryRejectsUnknownGamesAndPlayerCounts(t *testing.T) {
	Register(Spec{Name: "test-dummy", MinPlayers: 2, MaxPlayers: 3, New: func(uint64, int) (Game, error) { return nil, nil }})
	_, err := New("no-such-game", 1, 2)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown game "no-such-game"`)
	assert.Contains(t, err.Error(), "test-dummy")
	_, err = New("test-dummy", 1, 4)
	require.Error(t, err)
	assert.Equal(t, "test-dummy is played by 2 to 3 players, not 4", err.Error())
	_, err = New("test-dummy", 1, 2)
	assert.NoError(t, err)
	assert.True(t, errors.Is(IllegalIndex(5, 3), ErrIllegal))
}

func TestHasherSeparatesFields(t *testing.T) {
	h1, h2 := NewHasher(), NewHasher()
	h1.Bytes([]uint8{1, 2})
	h1.Bytes([]uint8{3})
	h2.Bytes([]uint8{1})
	h2.Bytes([]uint8{2, 3})
	assert.NotEqual(t, h1.Sum(), h2.Sum())
}

func TestCounts(t *testing.T) {
	name := func(k int) string { return []string{"a", "b", "c"}[k] }
	assert.Equal(t, "a, 3×c", Counts([]uint8{1, 0, 3}, name))
	assert.Equal(t, "(none)", Counts([]uint8{0, 0, 0}, name))
}
