package kardinal

import (
	"errors"
	"fmt"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkInvariants verifies what must hold after every decision. It compares with plain
// ifs: it runs after every decision of hundreds of games.
func checkInvariants(t testing.TB, g *Game) {
	t.Helper()
	if err := invariantError(g); err != nil {
		t.Fatalf("after decision %d: %v", g.Decisions(), err)
	}
}

func invariantError(g *Game) error {
	n := int(g.players)
	// Every card of the box is in exactly one place.
	var cards [NumKinds]int
	for s := 0; s < MaxPlayers; s++ {
		if s >= n && g.handSize(s) != 0 {
			return fmt.Errorf("missing seat %d holds cards", s)
		}
		if g.handSize(s) > HandSize {
			return fmt.Errorf("seat %d holds %d cards", s, g.handSize(s))
		}
		for k, c := range g.hands[s] {
			cards[k] += int(c)
		}
	}
	if g.faceUpSize() > FaceUpSize {
		return fmt.Errorf("%d cards face up", g.faceUpSize())
	}
	for k := range cards {
		cards[k] += int(g.faceUp[k]) + int(g.discard[k]) + int(g.removed)
	}
	for _, k := range g.pile[:g.pileLen] {
		cards[k]++
	}
	for k := Kind(0); k < NumKinds; k++ {
		if cards[k] != k.Count() {
			return fmt.Errorf("%d %s cards counted, want %d", cards[k], k, k.Count())
		}
	}
	// Pieces: supplies and board add up; one monastery per space (Owner holds one
	// seat per space, so it is enough that the per-country counts match it).
	var owned [MaxPlayers][NumCountries]int
	for sp := 0; sp < MaxSpaces; sp++ {
		o := g.table.OwnerOf(sp)
		if o < 0 {
			continue
		}
		if o >= n || sp >= g.board.Spaces() {
			return fmt.Errorf("space %d owned by seat %d", sp+1, o)
		}
		owned[o][g.board.CountryOf(sp)]++
	}
	for s := 0; s < MaxPlayers; s++ {
		mons, advs := 0, 0
		for c := Country(0); c < NumCountries; c++ {
			if owned[s][c] != int(g.table.Monasteries[c][s]) {
				return fmt.Errorf("seat %d: %d monasteries on %s's spaces, counted %d", s, owned[s][c], c, g.table.Monasteries[c][s])
			}
			mons += owned[s][c]
			advs += int(g.table.Advisors[c][s])
		}
		if s >= n {
			if mons+advs+int(g.monSupply[s])+int(g.advSupply[s]) != 0 {
				return fmt.Errorf("missing seat %d has pieces", s)
			}
			continue
		}
		if mons+int(g.monSupply[s]) != MonasteriesPerPlayer || advs+int(g.advSupply[s]) != AdvisorsPerPlayer {
			return fmt.Errorf("seat %d: monasteries %d+%d, advisors %d+%d", s, mons, g.monSupply[s], advs, g.advSupply[s])
		}
	}
	for c := Country(0); c < NumCountries; c++ {
		if g.table.AdvisorsIn(c) > g.table.AdvisorCap(c) {
			return fmt.Errorf("K4: %d advisors in %s, cap %d", g.table.AdvisorsIn(c), c, g.table.AdvisorCap(c))
		}
		if g.table.MonasteriesIn(c) > len(g.board.SpacesOf(c)) {
			return fmt.Errorf("%s overfull", c)
		}
	}
	// Interim scoring exactly once, once the pile has run out.
	interim := 0
	for _, e := range g.log {
		if EventKind(e.Kind) == EvInterim {
			interim++
		}
	}
	if (g.exhaustions >= 1 && interim != 1) || (g.exhaustions == 0 && interim != 0) {
		return fmt.Errorf("%d interim scorings after %d run-outs", interim, g.exhaustions)
	}
	if g.turnPieces > 2 || g.turnCards > 3 {
		return fmt.Errorf("K2: %d pieces with %d cards this turn", g.turnPieces, g.turnCards)
	}
	if g.Decisions() > MaxDecisions {
		return fmt.Errorf("past the bound: %d decisions", g.Decisions())
	}
	if g.Terminal() {
		if g.ToMove() != engine.NoSeat || len(g.Options()) != 0 {
			return fmt.Errorf("over, but seat %d has %d options", g.ToMove(), len(g.Options()))
		}
		return nil
	}
	if g.ToMove() < 0 || g.ToMove() >= n || len(g.Options()) == 0 {
		return fmt.Errorf("seat %d to move with %d options", g.ToMove(), len(g.Options()))
	}
	if f := g.Fallback(); f < 0 || f >= len(g.Options()) {
		return fmt.Errorf("fallback %d of %d options", f, len(g.Options()))
	}
	return nil
}

// playRandom plays a seeded random game, checking the invariants after each decision,
// and returns the decisions made.
func playRandom(t testing.TB, seed uint64, players int) (*Game, []int) {
	return playRandomOn(t, DefaultBoard(), seed, players)
}

// playRandomOn is playRandom on another board.
func playRandomOn(t testing.TB, b *Board, seed uint64, players int) (*Game, []int) {
	g, err := NewOnBoard(b, seed, players)
	require.NoError(t, err)
	r := engine.NewRand(seed ^ 0x9e3779b97f4a7c15)
	var picks []int
	checkInvariants(t, g)
	for !g.Terminal() {
		i := r.Intn(len(g.Options()))
		if err := g.Apply(i); err != nil {
			t.Fatal(err)
		}
		picks = append(picks, i)
		checkInvariants(t, g)
	}
	return g, picks
}

func TestRandomGamesKeepTheInvariants(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 30
	}
	for players := MinPlayers; players <= MaxPlayers; players++ {
		t.Run(fmt.Sprintf("%d players", players), func(t *testing.T) {
			longest, blocked := 0, 0
			for i := 0; i < games; i++ {
				g, picks := playRandom(t, uint64(1000*players+i), players)
				r := g.Result()
				require.False(t, r.Adjudicated, "a random game needs far fewer than %d decisions", MaxDecisions)
				require.Len(t, eventsOf(g, EvGameOver), 1)
				if eventsOf(g, EvGameOver)[0].A == 1 {
					blocked++
				}
				longest = max(longest, len(picks))
				require.Len(t, r.Place, players)
			}
			t.Logf("%d games, longest %d decisions, %d ended blocked", games, longest, blocked)
		})
	}
}

func TestSameSeedAndDecisionsGiveTheSameGame(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		a, picks := playRandom(t, uint64(77+players), players)
		b, err := New(uint64(77+players), players)
		require.NoError(t, err)
		for _, i := range picks {
			require.NoError(t, b.Apply(i))
		}
		assert.Equal(t, a.Hash(), b.Hash())
		assert.Equal(t, a.Log(), b.Log())
		for s := 0; s < players; s++ {
			assert.Equal(t, a.SeatView(s), b.SeatView(s))
		}
		c, err := New(uint64(78+players), players)
		require.NoError(t, err)
		assert.NotEqual(t, c.Hash(), func() uint64 { d, _ := New(uint64(77+players), players); return d.Hash() }())
	}
}

func TestCloneContinuesIndependently(t *testing.T) {
	g, err := New(5, 4)
	require.NoError(t, err)
	r := engine.NewRand(1)
	for i := 0; i < 60; i++ {
		require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
	}
	c := g.Clone().(*Game)
	require.Equal(t, g.Hash(), c.Hash())
	before, logLen := g.Hash(), len(g.Log())
	r2 := r
	for !c.Terminal() {
		require.NoError(t, c.Apply(r2.Intn(len(c.Options()))))
	}
	assert.Equal(t, before, g.Hash(), "playing the clone leaves the original alone")
	assert.Len(t, g.Log(), logLen)
	for !g.Terminal() {
		require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
	}
	assert.Equal(t, c.Hash(), g.Hash(), "the same decisions from a clone give the same game")
	assert.Equal(t, c.Log(), g.Log())
}

func TestIllegalOptionsAreRejectedWithoutChange(t *testing.T) {
	g, err := New(9, 3)
	require.NoError(t, err)
	h := g.Hash()
	for _, i := range []int{-1, len(g.Options()), 1 << 20} {
		err := g.Apply(i)
		require.Error(t, err)
		assert.True(t, errors.Is(err, engine.ErrIllegal))
		assert.Equal(t, h, g.Hash())
	}
	for !g.Terminal() {
		require.NoError(t, g.Apply(g.Fallback()))
	}
	err = g.Apply(0)
	assert.ErrorIs(t, err, engine.ErrIllegal, "nothing is legal once the game is over")
}

// resample returns a copy of g that differs only in what seat cannot know: the other
// hands (same sizes), the order of the draw pile and the random source.
func resample(g *Game, seat int, r *engine.Rand) *Game {
	c := g.Clone().(*Game)
	var hidden []uint8
	for s := 0; s < int(c.players); s++ {
		if s == seat {
			continue
		}
		for k := Kind(0); k < NumKinds; k++ {
			for i := 0; i < int(c.hands[s][k]); i++ {
				hidden = append(hidden, uint8(k))
			}
		}
	}
	hidden = append(hidden, c.pile[:c.pileLen]...)
	r.ShuffleBytes(hidden)
	for s := 0; s < int(c.players); s++ {
		if s == seat {
			continue
		}
		size := c.handSize(s)
		c.hands[s] = [NumKinds]uint8{}
		for i := 0; i < size; i++ {
			c.hands[s][hidden[0]]++
			hidden = hidden[1:]
		}
	}
	copy(c.pile[:], hidden)
	c.rnd = engine.NewRand(r.Uint64())
	c.computeOptions()
	return c
}

// reveals reports an event that shows seat a card from the hidden part of the game:
// its own draw, or a card turned face up.
func reveals(e engine.Event, seat int) bool {
	k := EventKind(e.Kind)
	return (k == EvDrawCard && int(e.Seat) == seat) || k == EvFaceUp
}

func TestViewsAndEventsLeakNothing(t *testing.T) {
	r := engine.NewRand(2024)
	checked, steps := 0, 0
	for game := 0; game < 60; game++ {
		players := MinPlayers + game%3
		g, err := New(uint64(500+game), players)
		require.NoError(t, err)
		for !g.Terminal() {
			if r.Intn(8) == 0 {
				seat := r.Intn(players)
				b := resample(g, seat, &r)
				require.Equal(t, g.SeatView(seat), b.SeatView(seat), "resampled hidden cards change the view")
				steps += compareFuture(t, g.Clone().(*Game), b, seat, &r)
				checked++
			}
			require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
		}
	}
	assert.Greater(t, checked, 100)
	assert.Greater(t, steps, 300)
}

// compareFuture plays a and b on with the same public actions and checks that seat sees
// the same views and events, until seat is shown a card from the hidden part (which
// legitimately differs). It returns the steps compared.
func compareFuture(t *testing.T, a, b *Game, seat int, r *engine.Rand) int {
	t.Helper()
	from := len(a.Log())
	require.Equal(t, from, len(b.Log()))
	steps := 0
	for !a.Terminal() {
		require.False(t, b.Terminal())
		var common []int
		for i, o := range a.Options() {
			if has(b, o) {
				common = append(common, i)
			}
		}
		if a.ToMove() == seat {
			require.Equal(t, a.Options(), b.Options(), "the seat's own options depend on its view only")
		}
		if len(common) == 0 {
			return steps
		}
		o := a.Options()[common[r.Intn(len(common))]]
		pick(t, a, o)
		pick(t, b, o)
		steps++
		ea := engine.EventsFor(nil, a.Log(), seat, from)
		eb := engine.EventsFor(nil, b.Log(), seat, from)
		require.Equal(t, len(ea), len(eb), "seat %d sees as many events", seat)
		revealed := false
		for i := range ea {
			if reveals(ea[i], seat) {
				revealed = true
				ea[i].A, eb[i].A = 0, 0
			}
			require.Equal(t, ea[i], eb[i], "event %d: %s vs %s", i, a.DescribeEvent(ea[i]), b.DescribeEvent(eb[i]))
		}
		if revealed {
			return steps
		}
		require.Equal(t, a.SeatView(seat), b.SeatView(seat))
		from = len(a.Log())
	}
	return steps
}

func TestDescribeEverything(t *testing.T) {
	g, _ := playRandom(t, 3, 5)
	seen := map[EventKind]bool{}
	for _, e := range g.Log() {
		d := g.DescribeEvent(e)
		assert.NotContains(t, d, "unknown", "%+v", e)
		seen[EventKind(e.Kind)] = true
	}
	for _, k := range []EventKind{EvStart, EvDeal, EvDraw, EvDrawCard, EvFaceUp, EvPlace, EvInterim, EvCountryScore, EvReshuffle, EvLastRound, EvGameOver} {
		assert.True(t, seen[k], "event kind %d never happened", k)
	}
	h, err := New(3, 3)
	require.NoError(t, err)
	for !h.Terminal() {
		for _, o := range h.Options() {
			assert.NotContains(t, h.Describe(o), "unknown")
		}
		require.NoError(t, h.Apply(len(h.Options())/2))
	}
	assert.Contains(t, g.SeatView(1).String(), "Frankreich")
	assert.Contains(t, g.Describe(PlaceOption(Italien, 50, Yellow, false)), "space 51")
	assert.Contains(t, g.Describe(engine.Option{Kind: 99}), "unknown")
	assert.Contains(t, g.DescribeEvent(engine.Event{Kind: 99}), "unknown")
}

func TestInvariantCheckerCatchesBrokenStates(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(g *Game)
		want  string
	}{
		{"a lost card", func(g *Game) { g.pileLen-- }, "cards counted"},
		{"a duplicated card", func(g *Game) { g.discard[Red]++ }, "cards counted"},
		{"a monastery from nowhere", func(g *Game) { g.table.PlaceMonastery(g.board, 1, 5) }, "monasteries"},
		{"an advisor over the cap", func(g *Game) { g.table.Advisors[Frankreich][0]++; g.advSupply[0]-- }, "K4"},
		{"a second interim scoring", func(g *Game) {
			g.exhaustions = 1
			g.emit(EvInterim, engine.Everyone, engine.NoSeat, 0, 0, 0)
			g.emit(EvInterim, engine.Everyone, engine.NoSeat, 0, 0, 0)
		}, "interim"},
		{"no options", func(g *Game) { g.opts = g.opts[:0] }, "options"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := New(1, 4)
			require.NoError(t, err)
			require.NoError(t, invariantError(g))
			tc.spoil(g)
			err = invariantError(g)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
