package ismcts

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ninjas"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chain is what handsRight counts over seat 0's searched decisions: how many
// inferred, how many of those from a held belief, and the other hand's cards that
// the samples placed right, of the cards it held.
type chain struct {
	decisions, inferring, believing int
	kept                            int // samples that were kept replays, of 100 a decision
	right, cards                    float64
	keptRight, keptCards            float64 // of the kept replays alone
	truePasts, trueKept             int     // the true past state replayed, and kept
}

func (c chain) String() string {
	return strconv.Itoa(c.decisions) + " decisions, " + strconv.Itoa(c.inferring) + " inferring, " +
		strconv.Itoa(c.believing) + " from a belief; samples replayed " +
		strconv.FormatFloat(float64(c.kept)/float64(100*c.decisions), 'f', 3, 64) + "; other hand placed right " +
		strconv.FormatFloat(c.right/c.cards, 'f', 3, 64) + " (replays " + strconv.FormatFloat(c.keptRight/c.keptCards, 'f', 3, 64) +
		"); the true past kept " + strconv.Itoa(c.trueKept) + " of " + strconv.Itoa(c.truePasts)
}

// handsRight plays games two-player Ninjas games (seeds from 1), both seats the
// heuristic bot, so that every settings string sees the same decisions; at each of
// seat 0's with a choice, a search with settings draws 100 samples as it would
// (its belief gathered from them) and counts the other hand's cards they place
// right.
func handsRight(tb testing.TB, settings string, games int) chain {
	cfg, err := ParseSettings(settings)
	require.NoError(tb, err)
	s, err := NewSearch("ninjas", nil, 3, cfg)
	require.NoError(tb, err)
	s.self = 0
	h := heuristic.New()
	var c chain
	for seed := uint64(1); seed <= uint64(games); seed++ {
		g, err := engine.New("ninjas", seed, 2)
		require.NoError(tb, err)
		s.past = past{}
		var truth engine.Game
		for !g.Terminal() {
			seat, opts := g.ToMove(), g.Options()
			if seat == 0 && len(opts) > 1 {
				view, events := g.View(0), engine.EventsFor(nil, g.Log(), 0, 0)
				if s.players == 0 {
					s.resolve(2)
				}
				s.inferring = s.inference(view, events)
				s.belief.turn(view, s.inferring)
				if s.inferring && truth != nil {
					c.truePasts++
					if s.replayed(truth.Clone()) {
						c.trueKept++
					}
				}
				c.count(s, g, view, events)
				s.past.remember(view, events)
				truth = g.Clone()
			}
			require.NoError(tb, g.Apply(h.Choose(g.View(seat), nil, opts)))
		}
	}
	return c
}

// count adds a decision of s, g the true game, to c.
func (c *chain) count(s *Search, g engine.Game, view engine.View, events []engine.Event) {
	c.decisions++
	if s.inferring {
		c.inferring++
		if len(s.belief.held) > 0 {
			c.believing++
		}
	}
	held := 0.0
	for _, n := range g.View(1).(*ninjas.View).Hand {
		held += float64(n)
	}
	for k := 0; k < 100; k++ {
		before := s.kept
		x, err := s.sampleInferred(view, events)
		if err != nil {
			panic(err)
		}
		c.right += handsMatch(g, x)
		if s.kept > before {
			c.keptRight += handsMatch(g, x)
			c.keptCards += held
		}
	}
	c.kept += s.kept
	c.cards += 100 * held
}

// TestCarryKeepsTheBelief: carry=yes holds a belief at more of the decisions that
// infer than belief alone, and its samples place more of the other hand right.
func TestCarryKeepsTheBelief(t *testing.T) {
	alone := handsRight(t, "iterations=200,belief=64", 12)
	carried := handsRight(t, "iterations=200,belief=64,carry=yes", 12)
	t.Logf("belief=64: %v", alone)
	t.Logf("belief=64,carry=yes: %v", carried)
	assert.Greater(t, float64(carried.believing)/float64(carried.decisions), float64(alone.believing)/float64(alone.decisions)+0.1)
	assert.Greater(t, carried.right/carried.cards, alone.right/alone.cards)
}

// TestTrustSharpensTheReplays: the table's heuristic is a function of its view, so
// the true past always replays to the present, however little random share the
// replays' model allows (trust=0.001); and a smaller share keeps fewer replays than
// a uniform model (trust=1, every legal move as likely) on the same decisions.
func TestTrustSharpensTheReplays(t *testing.T) {
	uniform := handsRight(t, "iterations=200,trust=1", 12)
	sharp := handsRight(t, "iterations=200,trust=0.001", 12)
	t.Logf("trust=1: %v", uniform)
	t.Logf("trust=0.001: %v", sharp)
	require.Positive(t, sharp.truePasts)
	assert.Equal(t, sharp.truePasts, sharp.trueKept, "a true past dropped")
	assert.Less(t, float64(sharp.kept), 0.95*float64(uniform.kept))
}

// TestHandsRight is opt-in: ISMCTS_HANDS="GAMES SETTINGS..." logs handsRight's
// counts for each settings string, for tuning.
func TestHandsRight(t *testing.T) {
	spec := strings.Fields(os.Getenv("ISMCTS_HANDS"))
	if len(spec) < 2 {
		t.Skip("set ISMCTS_HANDS=\"GAMES SETTINGS...\"")
	}
	games, err := strconv.Atoi(spec[0])
	require.NoError(t, err)
	for _, settings := range spec[1:] {
		t.Logf("%s: %v", settings, handsRight(t, settings, games))
	}
}

// TestCarryAndTrustAreOffByDefault: no table carries a belief through its breaks or
// trusts the heuristic beyond the play-outs' share unless asked; bad values are
// refused.
func TestCarryAndTrustAreOffByDefault(t *testing.T) {
	for _, n := range []int{2, 3, 4, 5, 6} {
		cfg := Config{}.withTable("ninjas", n)
		assert.Zero(t, cfg.Carry, "%d players", n)
		assert.Zero(t, cfg.Trust, "%d players", n)
	}
	cfg, err := ParseSettings("belief=64,carry=yes,trust=0.01")
	require.NoError(t, err)
	assert.Equal(t, 1, cfg.Carry)
	assert.Equal(t, 0.01, cfg.Trust)
	cfg, err = ParseSettings("carry=no")
	require.NoError(t, err)
	assert.Negative(t, cfg.Carry)
	for _, bad := range []string{"carry=maybe", "trust=0", "trust=1.5", "trust=x"} {
		_, err := ParseSettings(bad)
		assert.Error(t, err, bad)
	}
}

// TestCarryPlaysThroughTheWire: with belief=8,carry=yes,trust=0.01 in every Ninjas
// player count, a whole game with views and events as a bot process decodes them:
// every decision is searched to its budget and legal.
func TestCarryPlaysThroughTheWire(t *testing.T) {
	for n := 2; n <= 6; n++ {
		playThroughTheWire(t, "ninjas", n, Config{Iterations: 50, Infer: 4, Drawn: 1, Belief: 8, Carry: 1, Trust: 0.01})
	}
}
