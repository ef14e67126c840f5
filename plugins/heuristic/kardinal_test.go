package heuristic

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/plugins/random"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kardinalTally is the heuristic's record against random seats.
type kardinalTally struct {
	games, wins    int
	score          float64 // per game: the share of opponents beaten, ties half
	points, oppPts float64
}

func (k *kardinalTally) add(r engine.Result, seat int) {
	n := len(r.Place)
	beaten := 0.0
	opp := 0.0
	for s := 0; s < n; s++ {
		if s == seat {
			continue
		}
		opp += float64(r.Score[s]) / float64(n-1)
		switch {
		case r.Place[s] > r.Place[seat]:
			beaten++
		case r.Place[s] == r.Place[seat]:
			beaten += 0.5
		}
	}
	x := beaten / float64(n-1)
	k.games++
	k.score += x
	if r.Place[seat] == 0 {
		k.wins++
	}
	k.points += float64(r.Score[seat])
	k.oppPts += opp
}

func (k *kardinalTally) rate() float64 { return k.score / float64(k.games) }

// wilson95 is the Wilson 95% interval of the score rate. A per-game score lies in
// [0, 1] and has at most the variance of a coin with the same mean, so the interval is
// conservative; unlike the normal one it stays honest near a rate of 1.
func (k *kardinalTally) wilson95() (lo, hi float64) {
	const z = 1.96
	n := float64(k.games)
	p := k.rate()
	mid := (p + z*z/(2*n)) / (1 + z*z/n)
	half := z / (1 + z*z/n) * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return mid - half, mid + half
}

func (k *kardinalTally) String() string {
	lo, hi := k.wilson95()
	return fmt.Sprintf("%d games: score rate %.4f, 95%% CI [%.4f, %.4f]; wins %.1f%%; mean points %.1f vs %.1f per opponent",
		k.games, k.rate(), lo, hi, 100*float64(k.wins)/float64(k.games), k.points/float64(k.games), k.oppPts/float64(k.games))
}

// playKardinal plays deals × players games: every deal once with the heuristic in each
// seat, the other seats random.
func playKardinal(t testing.TB, players, deals int, seed uint64) *kardinalTally {
	tally := &kardinalTally{}
	h := Kardinal()
	for d := 0; d < deals; d++ {
		for seat := 0; seat < players; seat++ {
			g, err := kardinal.New(seed+uint64(d), players)
			require.NoError(t, err)
			seats := make([]engine.Policy, players)
			for s := range seats {
				seats[s] = random.New(seed*1000 + uint64(d*10+s))
			}
			seats[seat] = h
			require.NoError(t, engine.PlayOut(g, seats))
			require.False(t, g.Result().Adjudicated)
			tally.add(g.Result(), seat)
		}
	}
	return tally
}

func TestKardinalBeatsRandom(t *testing.T) {
	for _, tc := range []struct{ players, deals int }{{3, 40}, {4, 30}, {5, 24}} {
		t.Run(fmt.Sprintf("1 heuristic vs %d random", tc.players-1), func(t *testing.T) {
			tally := playKardinal(t, tc.players, tc.deals, 1)
			t.Log(tally)
			// Against equals the score rate is 0.5 and the win rate 1/players.
			lo, _ := tally.wilson95()
			assert.Greater(t, lo, 0.8, "score rate")
			assert.Greater(t, float64(tally.wins)/float64(tally.games), 0.6, "win rate")
		})
	}
}

// TestKardinalMeasure is the long measurement, run on demand:
//
//	KARDINAL_MEASURE=1000 go test ./plugins/heuristic -run TestKardinalMeasure -v
//
// It plays that many games for each player count (rounded up to whole rotations).
func TestKardinalMeasure(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("KARDINAL_MEASURE"))
	if n <= 0 {
		t.Skip("set KARDINAL_MEASURE=games to measure")
	}
	all := &kardinalTally{}
	for players := 3; players <= 5; players++ {
		deals := (n + players - 1) / players
		tally := playKardinal(t, players, deals, 1_000_003)
		t.Logf("1 heuristic vs %d random: %s", players-1, tally)
		all.games += tally.games
		all.wins += tally.wins
		all.score += tally.score
		all.points += tally.points
		all.oppPts += tally.oppPts
	}
	t.Logf("all: %s", all)
}

func TestKardinalIgnoresForeignViews(t *testing.T) {
	assert.Equal(t, 0, Kardinal().Choose(nil, nil, []engine.Option{{}, {}}))
}

// A hand-made position for the policy: seat 0 of 3 on turn, the default board.
func kardinalView() *kardinal.View {
	v := &kardinal.View{Seat: 0, Players: 3, Board: kardinal.DefaultBoard(), Phase: kardinal.PhaseTurn,
		TurnCountry: kardinal.NoCountry, DrawPile: 20}
	for s := 0; s < 3; s++ {
		v.Monasteries[s], v.Advisors[s] = kardinal.MonasteriesPerPlayer, kardinal.AdvisorsPerPlayer
	}
	return v
}

// space is the 0-based index of a board-file space number.
func space(n int) int { return n - 1 }

func chosen(v *kardinal.View, opts ...engine.Option) engine.Option {
	return opts[Kardinal().Choose(v, nil, opts)]
}

func TestKardinalPolicyPlaysSensibly(t *testing.T) {
	b := kardinal.DefaultBoard()
	t.Run("breaking a tie for first beats padding a safe lead", func(t *testing.T) {
		v := kardinalView()
		// Frankreich: seats 0 and 1 tie at 2; England: seat 0 leads 2 to 1.
		v.Table.PlaceMonastery(b, 1, space(6))
		v.Table.PlaceMonastery(b, 1, space(8))
		v.Table.PlaceMonastery(b, 0, space(10))
		v.Table.PlaceMonastery(b, 0, space(13))
		v.Table.PlaceMonastery(b, 0, space(1))
		v.Table.PlaceMonastery(b, 0, space(5))
		v.Table.PlaceMonastery(b, 1, space(3))
		v.Hand = [kardinal.NumKinds]uint8{kardinal.Purple: 1, kardinal.Orange: 1}
		tie := kardinal.PlaceOption(kardinal.Frankreich, space(11), kardinal.Purple, false)
		pad := kardinal.PlaceOption(kardinal.England, space(2), kardinal.Orange, false)
		assert.Equal(t, tie, chosen(v, pad, tie))
	})
	t.Run("second place behind a big leader pays its count", func(t *testing.T) {
		v := kardinalView()
		for _, n := range []int{14, 15, 16} {
			v.Table.PlaceMonastery(b, 1, space(n))
		}
		v.Table.PlaceMonastery(b, 0, space(1))
		v.Table.PlaceMonastery(b, 0, space(2))
		v.Hand = [kardinal.NumKinds]uint8{kardinal.Red: 1, kardinal.Orange: 1}
		// Second in Aragon scores 3 (twice); a third monastery in England alone adds 1.
		second := kardinal.PlaceOption(kardinal.Aragon, space(18), kardinal.Red, false)
		more := kardinal.PlaceOption(kardinal.England, space(4), kardinal.Orange, false)
		assert.Equal(t, second, chosen(v, more, second))
	})
	t.Run("one card rather than a joker for the same placement", func(t *testing.T) {
		v := kardinalView()
		v.Hand = [kardinal.NumKinds]uint8{kardinal.Purple: 2, kardinal.Red: 1}
		single := kardinal.PlaceOption(kardinal.Franken, space(35), kardinal.Red, false)
		joker := kardinal.PlaceOption(kardinal.Franken, space(35), kardinal.Purple, true)
		assert.Equal(t, single, chosen(v, joker, single))
	})
	t.Run("an advisor that completes an alliance", func(t *testing.T) {
		v := kardinalView()
		v.Phase = kardinal.PhaseSecond
		v.TurnCountry = kardinal.Burgund
		for _, n := range []int{47, 48} {
			v.Table.PlaceMonastery(b, 1, space(n))
		}
		for _, n := range []int{25, 26} {
			v.Table.PlaceMonastery(b, 2, space(n))
		}
		v.Table.PlaceAdvisor(kardinal.Italien, 0)
		v.Table.PlaceAdvisor(kardinal.Italien, 0)
		v.Hand = [kardinal.NumKinds]uint8{kardinal.Green: 1}
		advisor := kardinal.PlaceOption(kardinal.Burgund, kardinal.NoSpace, kardinal.Green, false)
		assert.Equal(t, advisor, chosen(v, kardinal.StopOption(), advisor))
	})
	t.Run("a monastery that extends a chain", func(t *testing.T) {
		v := kardinalView()
		for _, n := range []int{41, 42, 43} {
			v.Table.PlaceMonastery(b, 0, space(n))
		}
		v.Table.PlaceMonastery(b, 1, space(45))
		v.Hand = [kardinal.NumKinds]uint8{kardinal.Green: 1}
		chain := kardinal.PlaceOption(kardinal.Bayern, space(44), kardinal.Green, false) // 43-44: four in a line
		apart := kardinal.PlaceOption(kardinal.Bayern, space(46), kardinal.Green, false)
		assert.Equal(t, chain, chosen(v, apart, chain))
	})
	t.Run("a refill that makes a pair", func(t *testing.T) {
		v := kardinalView()
		v.Phase = kardinal.PhaseRefill
		v.Hand = [kardinal.NumKinds]uint8{kardinal.Yellow: 1}
		v.FaceUp = [kardinal.NumKinds]uint8{kardinal.Yellow: 1, kardinal.Orange: 1}
		pair := kardinal.TakeOption(int(kardinal.Yellow))
		got := chosen(v, kardinal.TakeOption(kardinal.FromPile), kardinal.TakeOption(int(kardinal.Orange)), pair)
		assert.Equal(t, pair, got)
	})
}

func TestKardinalSelfPlayEnds(t *testing.T) {
	for players := 3; players <= 5; players++ {
		for seed := uint64(0); seed < 10; seed++ {
			g, err := kardinal.New(seed, players)
			require.NoError(t, err)
			seats := make([]engine.Policy, players)
			for s := range seats {
				seats[s] = Kardinal()
			}
			require.NoError(t, engine.PlayOut(g, seats))
			r := g.Result()
			require.False(t, r.Adjudicated)
			if seed == 0 {
				t.Logf("%d players: %d decisions, scores %v, places %v", players, g.Decisions(), r.Score, r.Place)
			}
		}
	}
}
