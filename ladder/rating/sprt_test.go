package rating

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Vectors published with fishtest's pentanomial tests.
func TestSPRTPentanomialVectors(t *testing.T) {
	cases := []struct {
		counts       Pentanomial
		nelo0, nelo1 float64
		llr          string
		decision     Decision
	}{
		// -2.9419 is just above the lower bound -2.9444: the test goes on.
		{Pentanomial{50, 1682, 3371, 1471, 34}, 0, 2, "-2.94", Continue},
		{Pentanomial{6, 3111, 8717, 3387, 7}, 0, 2, "2.95", AcceptH1},
		{Pentanomial{3, 3455, 10850, 3758, 1}, 0.5, 2.5, "2.95", AcceptH1},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v with nElo bounds [%v,%v] gives LLR %s", c.counts, c.nelo0, c.nelo1, c.llr), func(t *testing.T) {
			s := SPRT{NElo0: c.nelo0, NElo1: c.nelo1, Alpha: 0.05, Beta: 0.05}
			llr, d, err := s.Decide(c.counts)
			require.NoError(t, err)
			assert.Equal(t, c.llr, fmt.Sprintf("%.2f", llr))
			assert.Equal(t, c.decision, d)
		})
	}
}

func TestSPRTDecisions(t *testing.T) {
	s := SPRT{NElo0: 0, NElo1: 2, Alpha: 0.05, Beta: 0.05}
	lo, hi := s.Bounds()
	assert.Equal(t, "-2.94", fmt.Sprintf("%.2f", lo))
	assert.Equal(t, "2.94", fmt.Sprintf("%.2f", hi))
	t.Run("no pairs: LLR 0, continue", func(t *testing.T) {
		llr, d, err := s.Decide(Pentanomial{})
		require.NoError(t, err)
		assert.Equal(t, 0.0, llr)
		assert.Equal(t, Continue, d)
	})
	t.Run("an even sample of moderate size continues", func(t *testing.T) {
		llr, d, err := s.Decide(Pentanomial{10, 100, 300, 100, 10})
		require.NoError(t, err)
		assert.Less(t, llr, 0.0, "an even score leans to H0")
		assert.Greater(t, llr, lo)
		assert.Equal(t, Continue, d)
	})
	t.Run("a clearly better sample accepts H1", func(t *testing.T) {
		_, d, err := s.Decide(Pentanomial{20, 400, 1200, 800, 80})
		require.NoError(t, err)
		assert.Equal(t, AcceptH1, d)
	})
	t.Run("a clearly worse sample accepts H0", func(t *testing.T) {
		_, d, err := s.Decide(Pentanomial{80, 800, 1200, 400, 20})
		require.NoError(t, err)
		assert.Equal(t, AcceptH0, d)
	})
	t.Run("bad parameters are errors", func(t *testing.T) {
		for _, bad := range []SPRT{{0, 2, 0, 0.05}, {0, 2, 0.05, 1}, {2, 2, 0.05, 0.05}, {3, 1, 0.05, 0.05}} {
			_, _, err := bad.Decide(Pentanomial{1, 1, 1, 1, 1})
			assert.Error(t, err, "%+v", bad)
		}
	})
}

func TestBlockLLRAgreesWithPentanomial(t *testing.T) {
	p := Pentanomial{50, 1682, 3371, 1471, 34}
	var scores []float64
	for i, c := range p {
		for range c {
			scores = append(scores, float64(i)/4)
		}
	}
	s := SPRT{NElo0: 0, NElo1: 2, Alpha: 0.05, Beta: 0.05}
	want, err := s.LLR(p)
	require.NoError(t, err)
	got, err := s.BlockLLR(scores, 2)
	require.NoError(t, err)
	assert.InDelta(t, want, got, 1e-6)
	_, err = s.BlockLLR([]float64{0.5, 1.5}, 2)
	assert.Error(t, err)
}

func TestPentanomialSummaryVector(t *testing.T) {
	s := Pentanomial{31, 5598, 13579, 5754, 38}.Summary()
	assert.Equal(t, "1.18 +- 1.47", fmt.Sprintf("%.2f +- %.2f", s.Elo, s.Elo95))
	assert.Equal(t, "94.3%", fmt.Sprintf("%.1f%%", 100*s.LOS))
	assert.Equal(t, "2.45 +- 3.0", fmt.Sprintf("%.2f +- %.1f", s.NElo, s.NElo95))
}

func TestPentanomialAdd(t *testing.T) {
	var p Pentanomial
	require.NoError(t, p.Add(1, 0))
	require.NoError(t, p.Add(0.5, 1))
	require.NoError(t, p.Add(0, 0))
	assert.Equal(t, Pentanomial{1, 0, 1, 1, 0}, p)
	assert.Error(t, p.Add(1, 0.25))
	assert.Equal(t, 3, p.Pairs())
}
