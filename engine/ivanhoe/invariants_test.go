package ivanhoe

import (
	"fmt"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/require"
)

// checkInvariants is what must hold after every decision of any game.
func checkInvariants(g *Game) error {
	var count [NumCards]int
	for s := 0; s < g.players; s++ {
		n := 0
		for c, k := range g.hands[s] {
			count[c] += int(k)
			n += int(k)
		}
		if n != g.handSize[s] {
			return fmt.Errorf("seat %d hand size %d, holds %d", s, g.handSize[s], n)
		}
		maidens := 0
		for _, c := range g.disp[s].slice() {
			count[c]++
			if c == Maiden {
				maidens++
			}
			if c.IsAction() {
				return fmt.Errorf("seat %d has action card %s in the display", s, c)
			}
		}
		if maidens > 1 {
			return fmt.Errorf("seat %d has %d maidens in the display", s, maidens)
		}
		if g.in[s] && g.entered[s] && g.disp[s].n == 0 && g.phase != PhaseOver {
			return fmt.Errorf("seat %d entered but has an empty display", s)
		}
		if !g.in[s] && g.disp[s].n > 0 && !(g.phase == PhaseGiveBack && g.toMove == s) {
			return fmt.Errorf("seat %d withdrew but has a display", s)
		}
	}
	for _, c := range g.draw[:g.drawN] {
		count[c]++
	}
	discards := 0
	for c, k := range g.discard {
		count[c] += int(k)
		discards += int(k)
	}
	if discards != g.discardN {
		return fmt.Errorf("discard count %d, pile holds %d", g.discardN, discards)
	}
	if g.shield >= 0 {
		count[Shield]++
	}
	if g.stunned >= 0 {
		count[Stunned]++
	}
	if g.pending != NoCard {
		count[g.pending]++
	}
	for c := Card(0); c < NumCards; c++ {
		if count[c] != c.Count() {
			return fmt.Errorf("%d copies of %s somewhere, the deck has %d", count[c], c, c.Count())
		}
	}
	tokens := 0
	for col := Colour(0); col < NumColours; col++ {
		held := 0
		for s := 0; s < g.players; s++ {
			if g.tokens[s][col] {
				held++
			}
		}
		if held+g.pool[col] != 5 {
			return fmt.Errorf("%d %s tokens held and %d in the pool", held, col, g.pool[col])
		}
		tokens += held + g.pool[col]
	}
	if tokens != NumTokens {
		return fmt.Errorf("%d tokens", tokens)
	}
	if g.phase != PhaseOver {
		if n := len(g.Options()); n == 0 {
			return fmt.Errorf("no legal option in phase %s", g.phase)
		}
		if g.ToMove() < 0 || g.ToMove() >= g.players {
			return fmt.Errorf("deciding seat %d", g.ToMove())
		}
	}
	return nil
}

// playRandom plays one seeded random game, checking invariants after every decision.
func playRandom(t testing.TB, seed uint64, players int, check bool) *Game {
	g, err := New(seed, players)
	require.NoError(t, err)
	r := engine.NewRand(seed ^ 0x9e3779b97f4a7c15)
	for !g.Terminal() {
		opts := g.Options()
		require.NotEmpty(t, opts)
		if err := g.Apply(r.Intn(len(opts))); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if check {
			if err := checkInvariants(g); err != nil {
				t.Fatalf("seed %d players %d decision %d: %v", seed, players, g.decisions, err)
			}
		}
	}
	return g
}

func TestRandomGamesKeepInvariants(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 200
	}
	for players := MinPlayers; players <= MaxPlayers; players++ {
		t.Run(fmt.Sprintf("%d players", players), func(t *testing.T) {
			adjudicated := 0
			for i := 0; i < games/4; i++ {
				g := playRandom(t, uint64(players*100000+i), players, true)
				require.LessOrEqual(t, g.Decisions(), MaxDecisions)
				res := g.Result()
				if res.Adjudicated {
					adjudicated++
				} else {
					require.Equal(t, []int{g.Winner()}, res.Winners())
					require.GreaterOrEqual(t, g.tokenCount(g.Winner()), g.tokensToWin())
				}
			}
			t.Logf("%d games, %d adjudicated", games/4, adjudicated)
		})
	}
}
