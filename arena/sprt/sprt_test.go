package sprt

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/ladder/rating"
)

func TestParseRefusesABadSpec(t *testing.T) {
	for _, bad := range []struct{ spec, want string }{
		{"0", "want elo0,elo1"},
		{"0,x", "is not a number"},
		{"5,0", "elo0 5 must be below elo1 0"},
		{"0,5,0.9,0.9", "alpha 0.9 + beta 0.9 must be below 1"},
		{"0,5,0,0.05", "strictly between 0 and 1"},
		{"0,5,0.05,1", "strictly between 0 and 1"},
		{"-inf,inf", "not a finite number"},
		{"nan,5", "not a finite number"},
	} {
		_, err := Parse(bad.spec)
		require.Error(t, err, bad.spec)
		assert.Contains(t, err.Error(), bad.want)
		assert.Contains(t, err.Error(), `"`+bad.spec+`"`, "the error quotes the spec")
	}
	r, err := Parse("0, 5")
	require.NoError(t, err)
	j := r.JSON()
	assert.Equal(t, [4]float64{0, 5, 0.05, 0.05}, [4]float64{j.Elo0, j.Elo1, j.Alpha, j.Beta}, "alpha and beta default to 0.05")
}

// A bot that wins every deal pair is found stronger: the test stops the run with H1,
// and its report says so without Elo estimates (no spread to estimate from).
func TestAWinnerEveryDealAcceptsH1(t *testing.T) {
	r, err := Parse("0,5")
	require.NoError(t, err)
	deals := 0
	for !r.Stop(arena.DealBlock{Points: []float64{1, 0}}) {
		deals++
		require.Less(t, deals, 1000, "the test decides")
	}
	require.NoError(t, r.Err())
	assert.Equal(t, rating.AcceptH1.String(), r.JSON().Verdict)
	var out bytes.Buffer
	require.NoError(t, r.Write(&out, "heuristic"))
	assert.Contains(t, out.String(), "SPRT of heuristic, nElo [0, 5]")
	assert.Contains(t, out.String(), "no spread to estimate Elo from")
	var none *Run
	assert.Nil(t, none.JSON(), "no test, no JSON")
}
