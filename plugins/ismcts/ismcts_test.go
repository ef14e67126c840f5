package ismcts

import (
	"fmt"
	"testing"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/engine/ninjas"
	"github.com/arena-games/arena/plugins/heuristic"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/protocol"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// heuristicField seats the heuristic bot; randomField seats random players, each
// seeded for its deal and seat.
func heuristicField(_, _ int) engine.Policy { return heuristic.New() }
func randomField(d, s int) engine.Policy    { return random.New(uint64(7000 + d*10 + s)) }

// eachGame, when set, hears each game's score as versusField finishes it;
// firstDeal is the first deal versusField plays (0: seed 1000); dealt, when set,
// hears each game as versusField deals it.
var (
	eachGame  func(score float64)
	firstDeal int
	dealt     func(g engine.Game)
)

// versusField plays deals of game in-process (deal d from seed 1000+d), the player
// bot makes in one seat of every rotation and field's in the others, and returns the
// player's match score in each game.
func versusField(t testing.TB, game string, players, deals int, bot func(d, seat int) (engine.Policy, error), field func(d, seat int) engine.Policy) []float64 {
	var scores []float64
	reward := make([]float64, players)
	for d := firstDeal; d < firstDeal+deals; d++ {
		for seat := 0; seat < players; seat++ {
			g, err := engine.New(game, uint64(1000+d), players)
			require.NoError(t, err)
			if dealt != nil {
				dealt(g)
			}
			seats := make([]engine.Policy, players)
			for s := range seats {
				seats[s] = field(d, s)
			}
			p, err := bot(d, seat)
			require.NoError(t, err)
			seats[seat] = p
			require.NoError(t, engine.PlayOut(g, seats))
			if p, ok := p.(*Player); ok {
				require.Zero(t, p.Errors, "the search failed on some decisions")
			}
			MatchScore(g, reward)
			scores = append(scores, reward[seat])
			if eachGame != nil {
				eachGame(reward[seat])
			}
		}
	}
	return scores
}

// wire passes what a policy sees through the protocol's encoding, as a bot process gets
// it (events lose their audience, views are decoded into fresh values).
type wire struct {
	codec protocol.Codec
	seat  int
	p     engine.Policy
}

func (w wire) Choose(view engine.View, events []engine.Event, options []engine.Option) int {
	msg, err := w.codec.EncodeView(view)
	if err != nil {
		panic(err)
	}
	v, err := w.codec.DecodeView(msg)
	if err != nil {
		panic(err)
	}
	evs, err := protocol.DecodeEvents(nil, protocol.AppendEvents(nil, events), w.seat)
	if err != nil {
		panic(err)
	}
	return w.p.Choose(v, evs, options)
}

// TestPlaysEveryGameThroughTheWire: in every game and player count, a whole game with
// ismcts in one seat and views and events as a bot process decodes them: every decision
// is searched (the sampler accepts every view and event history, also the ones
// inference replays from, and a kept tree) and legal.
func TestPlaysEveryGameThroughTheWire(t *testing.T) {
	for _, tc := range benchTables {
		for _, n := range tc.players {
			for _, reuse := range []int{0, 1} {
				t.Run(fmt.Sprintf("%s/%dp/reuse+infer=%d", tc.game, n, reuse), func(t *testing.T) {
					playThroughTheWire(t, tc.game, n, Config{Iterations: 20, Rollout: Uniform, Reuse: reuse, Infer: 2 * reuse})
				})
			}
		}
	}
}

// playThroughTheWire plays one seeded game of game with n seats, ismcts with cfg in the
// last seat and the heuristic elsewhere, views and events passed through the wire.
func playThroughTheWire(t *testing.T, game string, n int, cfg Config) {
	codec, err := protocol.CodecFor(game)
	require.NoError(t, err)
	g, err := engine.New(game, uint64(n), n)
	require.NoError(t, err)
	seats := make([]engine.Policy, n)
	for s := range seats {
		seats[s] = heuristic.New()
	}
	seat := n - 1
	p, err := New(game, 7, cfg)
	require.NoError(t, err)
	searched := 0
	seats[seat] = engine.PolicyFunc(func(v engine.View, e []engine.Event, o []engine.Option) int {
		i := wire{codec, seat, p}.Choose(v, e, o)
		if len(o) > 1 {
			require.Equal(t, cfg.Iterations, p.Iterations(), "every decision with a choice is searched to its budget")
			searched++
		}
		return i
	})
	require.NoError(t, engine.PlayOut(g, seats))
	require.Zero(t, p.Errors, "the search failed on some decisions")
	require.Positive(t, searched)
}

func TestSettings(t *testing.T) {
	for in, want := range map[string]Config{
		"":                           {},
		"iterations=2000":            {Iterations: 2000},
		"time=100ms":                 {Time: 100 * time.Millisecond},
		"time=1s,iterations=5,c=1.5": {Time: time.Second, Iterations: 5, C: 1.5},
		"soft=3,prior=100":           {Soft: 3, Prior: 100},
		"soft=0":                     {Soft: -1},
		"eval=projection":            {Plain: true, Fit: -1},
		"eval=potential":             {Fit: -1},
		"eval=fit":                   {Fit: 1},
		"eval=fit2":                  {Fit: 2},
		"model=rollout,cutoff=30":    {Model: 1, Cutoff: 30},
		"model=ucb":                  {Model: -1},
		"cutoff=0":                   {Cutoff: -1},
		"others=0.5":                 {Others: 0.5},
		"reuse=yes":                  {Reuse: 1},
		"reuse=no":                   {Reuse: -1},
		"infer=8":                    {Infer: 8},
		"infer=0":                    {Infer: -1},
		"field=auto":                 {Field: FieldAuto},
		"field=random":               {Field: FieldRandom},
		"field=heuristic":            {Field: FieldHeuristic},
		"bias=20":                    {Bias: 20},
		"bias=0":                     {Bias: -1},
		"trees=4":                    {Trees: 4},
		"trees=1":                    {Trees: 1},
		"drawn=yes":                  {Drawn: 1},
		"drawn=no":                   {Drawn: -1},
	} {
		got, err := ParseSettings(in)
		require.NoError(t, err, in)
		got.Rollout, got.Policy = nil, nil
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"iterations=0", "iterations=x", "time=-1s", "time=soon", "c=0", "epsilon=2",
		"rollout=magic", "speed=9", "time", "soft=-1", "prior=-1", "eval=magic", "model=magic",
		"others=0", "others=1.5", "reuse=maybe", "infer=-1", "infer=65", "field=weak", "bias=-1", "bias=x",
		"trees=0", "trees=65", "trees=x", "drawn=maybe"} {
		_, err := ParseSettings(bad)
		assert.Error(t, err, bad)
	}
}

// TestTwoPlayerNinjasInfers: inference is two-player Ninjas' default (it gained there
// and not with three players), and infer=0 turns it off there.
func TestTwoPlayerNinjasInfers(t *testing.T) {
	assert.Equal(t, 4, Config{}.withTable("ninjas", 2).Infer)
	assert.Zero(t, Config{}.withTable("ninjas", 3).Infer)
	assert.Zero(t, Config{}.withTable("kardinal", 3).Infer)
	off, err := ParseSettings("infer=0")
	require.NoError(t, err)
	assert.Negative(t, off.withTable("ninjas", 2).Infer)
}

// TestBiasStartsFromTheHeuristicsMove: with bias, a search of a few iterations
// answers the heuristic's move (its virtual wins outweigh them); the same iterations
// without bias answer otherwise in some decision. (Kardinal's guide, KardinalGreedy,
// breaks ties at random, so its move is not one to compare with.)
func TestBiasStartsFromTheHeuristicsMove(t *testing.T) {
	for game, guide := range map[string]func(g engine.Game) int{
		"ninjas":  func(g engine.Game) int { return heuristic.New().Choose(g.View(g.ToMove()), nil, g.Options()) },
		"ivanhoe": func(g engine.Game) int { return heuristic.New().Choose(g.View(g.ToMove()), nil, g.Options()) },
	} {
		differs := false
		for d := 4; d < 40; d++ {
			g := midGame(t, game, 3, d)
			if g.Terminal() || len(g.Options()) < 3 {
				continue
			}
			seat := g.ToMove()
			view, events := g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0)
			choose := func(settings string) int {
				cfg, err := ParseSettings(settings)
				require.NoError(t, err)
				s, err := NewSearch(game, nil, uint64(d), cfg)
				require.NoError(t, err)
				i, err := s.Choose(view, events, g.Options(), time.Time{})
				require.NoError(t, err)
				return i
			}
			want := guide(g.Clone())
			assert.Equal(t, want, choose("iterations=30,bias=100"), "%s decision %d", game, d)
			differs = differs || choose("iterations=30") != want
		}
		assert.True(t, differs, "%s: without bias the search always agreed with the guide", game)
	}
}

// TestFivePlayerKardinalIsSofter: five-player Kardinal's evaluation has a
// temperature of 5 points, the other tables' 3, and soft=N still sets it.
func TestFivePlayerKardinalIsSofter(t *testing.T) {
	assert.Equal(t, 5.0, Config{}.withTable("kardinal", 5).Soft)
	assert.Equal(t, kardinalSoft, Config{}.withTable("kardinal", 4).Soft)
	assert.Equal(t, 2.0, Config{Soft: 2}.withTable("kardinal", 5).Soft)
}

// TestFourPlayerIvanhoeIsBiased: progressive bias is four-player Ivanhoe's default
// (it gained there and not with five players), and bias=0 turns it off there.
func TestFourPlayerIvanhoeIsBiased(t *testing.T) {
	assert.Equal(t, 10, Config{}.withTable("ivanhoe", 4).Bias)
	assert.Zero(t, Config{}.withTable("ivanhoe", 5).Bias)
	off, err := ParseSettings("bias=0")
	require.NoError(t, err)
	assert.Negative(t, off.withTable("ivanhoe", 4).Bias)
}

// TestDeadlineIsKept: with an unbounded budget the search still answers before the
// deadline less its margin. The deadline is 2 s away and the margin 1 s, far more
// than one iteration (well under a millisecond) and a scheduling delay even at a load
// of 16 on two cores.
func TestDeadlineIsKept(t *testing.T) {
	g := midGame(t, "ninjas", 3, 10)
	p, err := New("ninjas", 1, Config{Time: time.Hour})
	require.NoError(t, err)
	seat := g.ToMove()
	deadline := time.Now().Add(2 * time.Second)
	p.ChooseBy(deadline, 0, g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0), g.Options())
	assert.True(t, time.Now().Before(deadline), "answered after the deadline")
	assert.Positive(t, p.Iterations())
}

// stallingClock is a wall clock that moves on a millisecond at every reading, as a
// busy process reads it, and stall more at the reading numbered stallAt (1 is the
// first); it keeps what it read.
type stallingClock struct {
	t       time.Time
	stall   time.Duration
	stallAt int
	reads   []time.Time
}

func (c *stallingClock) now() time.Time {
	c.t = c.t.Add(time.Millisecond)
	if len(c.reads)+1 == c.stallAt {
		c.t = c.t.Add(c.stall)
	}
	c.reads = append(c.reads, c.t)
	return c.t
}

// decide has p choose with the clock's readings from its start on, a deadline 1 s
// away and a minute of bank; it returns the hard stop (half the time from the first
// reading to the deadline) and the readings.
func (c *stallingClock) decide(t *testing.T, p *Player, g engine.Game) (hard time.Time, reads []time.Time) {
	c.reads = c.reads[:0]
	deadline := c.t.Add(time.Second)
	seat := g.ToMove()
	i := p.ChooseBy(deadline, time.Minute, g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0), g.Options())
	assert.GreaterOrEqual(t, i, 0)
	assert.Less(t, i, len(g.Options()))
	assert.Positive(t, p.Iterations())
	return c.reads[0].Add(deadline.Sub(c.reads[0]) / 2), c.reads
}

// TestSearchAnswersBeforeAStallCanCarryItPastHalfTheDeadline: with an unbounded time
// budget and a deadline 1 s away, a search that is never descheduled stops at half the
// deadline (the rest is the answer's margin); one descheduled for 300 ms answers at
// once after the stall, since another as long would carry it past half the deadline;
// at its next decision it keeps that stall in hand, and after ten quiet seconds half of
// it. The clock is simulated, so the test does not depend on the load.
func TestSearchAnswersBeforeAStallCanCarryItPastHalfTheDeadline(t *testing.T) {
	g := midGame(t, "ninjas", 6, 10)
	p, err := New("ninjas", 1, Config{Time: time.Hour})
	require.NoError(t, err)
	clock := &stallingClock{t: time.Now()}
	p.search.clock = clock.now

	hard, reads := clock.decide(t, p, g)
	n := len(reads)
	assert.True(t, reads[n-1].Add(time.Millisecond).After(hard), "quiet: stopped %v before half the deadline", hard.Sub(reads[n-1]))
	assert.False(t, reads[n-2].Add(time.Millisecond).After(hard), "quiet: searched on past half the deadline")

	clock.stall, clock.stallAt = 300*time.Millisecond, 20
	_, reads = clock.decide(t, p, g)
	assert.Len(t, reads, 20, "stalled: did not answer at the first reading after the stall")

	clock.stallAt = 0
	for _, tc := range []struct {
		quiet, kept time.Duration
	}{{0, 300 * time.Millisecond}, {10 * time.Second, 150 * time.Millisecond}} {
		clock.t = clock.t.Add(tc.quiet)
		hard, reads = clock.decide(t, p, g)
		n = len(reads)
		// within 10 ms of what is kept: it fades over the decisions' own readings too
		assert.True(t, reads[n-1].Add(tc.kept+10*time.Millisecond).After(hard), "%v after a stall: stopped %v before half the deadline", tc.quiet, hard.Sub(reads[n-1]))
		assert.False(t, reads[n-2].Add(tc.kept-10*time.Millisecond).After(hard), "%v after a stall: searched on into the %v kept before half the deadline", tc.quiet, tc.kept)
	}
}

// TestStallingMachineGetsTheHeuristicsAnswer: a 100 ms search that stalled 300 ms at
// its previous decision expects half that again, more than its budget, so it answers
// after one iteration, and with the heuristic's choice, not that of a one-sample search.
func TestStallingMachineGetsTheHeuristicsAnswer(t *testing.T) {
	g := midGame(t, "ninjas", 6, 10)
	seat := g.ToMove()
	view, events, opts := g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0), g.Options()
	want := heuristic.New().Choose(view, events, opts)
	for seed := uint64(1); seed < 40; seed++ {
		p, err := New("ninjas", seed, Config{Time: 100 * time.Millisecond})
		require.NoError(t, err)
		clock := &stallingClock{t: time.Now(), stall: 300 * time.Millisecond, stallAt: 5}
		p.search.clock = clock.now
		p.ChooseBy(clock.t.Add(time.Second), time.Minute, view, nil, opts)
		clock.stallAt = 0
		got := p.ChooseBy(clock.t.Add(time.Second), time.Minute, view, nil, opts)
		require.Equal(t, 1, p.Iterations())
		require.Equal(t, want, got)
		if i, _ := p.search.Choose(view, events, opts, time.Time{}); i != want { // one iteration, untimed
			return // this seed's one-sample search differs: the answer was the heuristic's
		}
	}
	t.Fatal("no seed's one-iteration search differs from the heuristic: the test tells nothing")
}

// TestBankIsSpentSparingly: a decision spends at most a twentieth of the bank, so with
// 1 s of bank and a 1 h deadline it answers long before 1 s.
func TestBankIsSpentSparingly(t *testing.T) {
	g := midGame(t, "ninjas", 3, 10)
	p, err := New("ninjas", 1, Config{Time: time.Hour})
	require.NoError(t, err)
	seat := g.ToMove()
	start := time.Now()
	p.ChooseBy(start.Add(time.Hour), time.Second, g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0), g.Options())
	assert.Less(t, time.Since(start), time.Second, "a decision spent the whole bank")
}

// TestMatchScoreIsTheArenasScore: at the end of random games of every game, the
// rewards are the share of opponents each seat's Result place beats, ties half.
func TestMatchScoreIsTheArenasScore(t *testing.T) {
	for _, tc := range benchTables {
		for _, n := range tc.players {
			for seed := uint64(0); seed < 20; seed++ {
				g, err := engine.New(tc.game, seed, n)
				require.NoError(t, err)
				r := engine.NewRand(seed)
				for !g.Terminal() {
					require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
				}
				got := make([]float64, n)
				MatchScore(g, got)
				place := g.Result().Place
				for s := range place {
					want := 0.0
					for o := range place {
						if o != s && place[o] > place[s] {
							want++
						} else if o != s && place[o] == place[s] {
							want += 0.5
						}
					}
					assert.InDelta(t, want/float64(n-1), got[s], 1e-9, "%s %dp seed %d seat %d", tc.game, n, seed, s)
				}
			}
		}
	}
}

// TestSoftShareBeaten: a tiny temperature gives the match score of the ranking, every
// temperature shares out what the pairs are worth (n(n-1)/2 comparisons, one point
// each), and a larger lead earns more.
func TestSoftShareBeaten(t *testing.T) {
	for _, score := range [][]int{{10, 9, 0}, {5, 5, 5, 1}, {0, 30, 12, 12, 7}} {
		n := len(score)
		hard, soft := make([]float64, n), make([]float64, n)
		ShareBeaten(score, hard)
		SoftShareBeaten(score, 0.01, soft)
		assert.InDeltaSlice(t, hard, soft, 1e-9, "%v", score)
		SoftShareBeaten(score, 3, soft)
		sum := 0.0
		for _, r := range soft {
			sum += r * float64(n-1)
		}
		assert.InDelta(t, float64(n*(n-1)/2), sum, 1e-9, "%v", score)
	}
	near, far := make([]float64, 2), make([]float64, 2)
	SoftShareBeaten([]int{10, 9}, 3, near)
	SoftShareBeaten([]int{10, 2}, 3, far)
	assert.Greater(t, far[0], near[0])
	assert.Greater(t, near[0], 0.5)
}

// TestPriorKeepsTheHeuristicsMove: with a prior far above the budget the search answers
// the heuristic's move in Kardinal positions where the search alone answers otherwise.
func TestPriorKeepsTheHeuristicsMove(t *testing.T) {
	differs := 0
	for d := 20; d <= 60; d += 10 {
		g := midGame(t, "kardinal", 3, d)
		seat := g.ToMove()
		view, events, opts := g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0), g.Options()
		want := heuristic.New().Choose(view, events, opts)
		with, err := NewSearch("kardinal", nil, 1, Config{Iterations: 200, Prior: 10000})
		require.NoError(t, err)
		got, err := with.Choose(view, events, opts, time.Time{})
		require.NoError(t, err)
		assert.Equal(t, want, got, "decision %d", d)
		without, err := NewSearch("kardinal", nil, 1, Config{Iterations: 200})
		require.NoError(t, err)
		if i, _ := without.Choose(view, events, opts, time.Time{}); i != want {
			differs++
		}
	}
	assert.Positive(t, differs, "these positions do not tell the prior's effect")
}

// TestKardinalPlacer: through whole random-seeded games, the placer answers a plain
// placement whenever one is listed, a joker placement only when no plain one is, and
// otherwise any option; in another game it is uniform and legal.
func TestKardinalPlacer(t *testing.T) {
	r := engine.NewRand(3)
	placed := 0
	for seed := uint64(0); seed < 5; seed++ {
		g, err := engine.New("kardinal", seed, 3)
		require.NoError(t, err)
		for !g.Terminal() {
			opts := g.Options()
			plain, joker := false, false
			for _, o := range opts {
				if kardinal.OptionKind(o.Kind) == kardinal.Place {
					p, _ := kardinal.AsPlacement(o)
					plain, joker = plain || !p.Joker, joker || p.Joker
				}
			}
			i := KardinalPlacer(g, &r)
			require.True(t, i >= 0 && i < len(opts))
			o := opts[i]
			if plain || joker {
				require.Equal(t, kardinal.Place, kardinal.OptionKind(o.Kind))
				p, _ := kardinal.AsPlacement(o)
				require.Equal(t, !plain, p.Joker, "a joker only when no plain placement is listed")
				placed++
			}
			require.NoError(t, g.Apply(i))
		}
	}
	assert.Positive(t, placed)
	g := midGame(t, "ninjas", 4, 5)
	i := KardinalPlacer(g, &r)
	assert.True(t, i >= 0 && i < len(g.Options()))
}

// TestKardinalPotentialCreditsWhatIsInTheMaking: on a table with no points yet, a chain
// of three monasteries earns 0.25 x 9, three lone monasteries 0.25 each, and an advisor
// leading one side of an alliance whose other side is empty 0.35 x 2 per such alliance;
// once a rival's advisor stands on the other side, that alliance's credit is gone.
func TestKardinalPotentialCreditsWhatIsInTheMaking(t *testing.T) {
	b := kardinal.DefaultBoard()
	var tab kardinal.Table
	path := chainOfThree(t, b)
	for _, sp := range path {
		tab.PlaceMonastery(b, 0, sp)
	}
	lone := 0
	for sp := 0; sp < b.Spaces() && lone < 3; sp++ {
		if tab.OwnerOf(sp) < 0 && !nextToOwned(&tab, b, sp) {
			tab.PlaceMonastery(b, 1, sp)
			lone++
		}
	}
	require.Equal(t, 3, lone)
	a := b.Alliances()[0]
	tab.PlaceAdvisor(a.A, 0)
	withA := 0
	for _, x := range b.Alliances() {
		if x.A == a.A || x.B == a.A {
			withA++
		}
	}
	score := make([]float64, 3)
	potentialScores(&tab, b, []int{0, 0, 0}, score)
	assert.InDeltaSlice(t, []float64{2.25 + 0.7*float64(withA), 0.75, 0}, score, 1e-9)

	tab.PlaceAdvisor(a.B, 2)
	potentialScores(&tab, b, []int{0, 0, 0}, score)
	assert.InDelta(t, 2.25+0.7*float64(withA-1), score[0], 1e-9)
	assert.InDelta(t, 0.75, score[1], 1e-9)
}

// chainOfThree finds three spaces joined by roads in a line.
func chainOfThree(t *testing.T, b *kardinal.Board) []int {
	for s0 := 0; s0 < b.Spaces(); s0++ {
		for _, s1 := range b.Roads(s0) {
			for _, s2 := range b.Roads(int(s1)) {
				if int(s2) != s0 {
					return []int{s0, int(s1), int(s2)}
				}
			}
		}
	}
	t.Fatal("the board has no three spaces in a line")
	return nil
}

func nextToOwned(tab *kardinal.Table, b *kardinal.Board, sp int) bool {
	for _, z := range b.Roads(sp) {
		if tab.OwnerOf(int(z)) >= 0 {
			return true
		}
	}
	return false
}

// TestProgressRanksCutOffPlayOuts: through random games of Ivanhoe and Ninjas, Progress
// with a tiny temperature is the share of opponents beaten by tokens (plus half a token
// for the seat strictly ahead among those still in the tournament, read from a view) or
// by gems, ties half; at the end it is the match score. With a cutoff set, the search
// of these games keeps it and evaluates by Progress.
func TestProgressRanksCutOffPlayOuts(t *testing.T) {
	for _, tc := range []struct {
		game    string
		players []int
	}{{"ivanhoe", []int{2, 5}}, {"ninjas", []int{2, 3}}} {
		for _, n := range tc.players {
			eval, got, want := Progress(0.001), make([]float64, n), make([]float64, n)
			credited := 0
			for seed := uint64(0); seed < 10; seed++ {
				g, err := engine.New(tc.game, seed, n)
				require.NoError(t, err)
				r := engine.NewRand(seed)
				for d := 0; ; d++ {
					if g.Terminal() {
						eval(g, got)
						MatchScore(g, want)
						assert.InDeltaSlice(t, want, got, 1e-9, "%s %dp seed %d, the end", tc.game, n, seed)
						break
					}
					if d%7 == 0 {
						halves := progressFromView(g)
						for _, h := range halves {
							credited += h % 2
						}
						ShareBeaten(halves, want)
						eval(g, got)
						assert.InDeltaSlice(t, want, got, 1e-9, "%s %dp seed %d decision %d", tc.game, n, seed, d)
					}
					require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
				}
			}
			if tc.game == "ivanhoe" {
				assert.Positive(t, credited, "no tournament leader was ever credited")
			}
			cfg := Config{Cutoff: 20}.withTable(tc.game, n)
			assert.Equal(t, 20, cfg.Cutoff, "%s: the cutoff was dropped", tc.game)
		}
	}
}

// progressFromView is what Progress ranks by, in half tokens or half gems, read from
// seat 0's view.
func progressFromView(g engine.Game) []int {
	key := make([]int, g.Players())
	switch v := g.View(0).(type) {
	case *ivanhoe.View:
		best, tie := -1, false
		for s := range key {
			for _, has := range v.Tokens[s] {
				if has {
					key[s] += 2
				}
			}
			switch {
			case !v.InTournament[s]:
			case best < 0 || v.Total(s) > v.Total(best):
				best, tie = s, false
			case v.Total(s) == v.Total(best):
				tie = true
			}
		}
		if best >= 0 && !tie {
			key[best]++
		}
	case *ninjas.View:
		for s := range key {
			key[s] = 2 * v.Gems[s]
		}
	}
	return key
}

// TestModelChoosesTheOthersMoves: with Model, every node of another seat in the tree
// is a choice of the rollout policy (here: always option 0), so the tree holds no move
// of theirs the policy would not make; without it, UCB's expansion adds others.
func TestModelChoosesTheOthersMoves(t *testing.T) {
	g := midGame(t, "ninjas", 3, 10)
	self := g.ToMove()
	view, events, opts := g.View(self), engine.EventsFor(nil, g.Log(), self, 0), g.Options()
	for _, model := range []int{1, -1} {
		chosen := map[engine.Option]bool{}
		first := func(g engine.Game, _ *engine.Rand) int {
			chosen[g.Options()[0]] = true
			return 0
		}
		even := func(_ engine.Game, reward []float64) {
			for s := range reward {
				reward[s] = 0.5
			}
		}
		s, err := NewSearch("ninjas", nil, 1, Config{Iterations: 300, Rollout: first, Cutoff: 4, Evaluate: even, Model: model})
		require.NoError(t, err)
		_, err = s.Choose(view, events, opts, time.Time{})
		require.NoError(t, err)
		others, unchosen := otherMoves(s, self, chosen)
		assert.Positive(t, others, "model %v: no other seat in the tree", model)
		if model > 0 {
			assert.Zero(t, unchosen, "a move the model never chose is in the tree")
		} else {
			assert.Positive(t, unchosen, "UCB expanded only the policy's moves: the test tells nothing")
		}
	}
}

// TestTableDefaults: a search resolves its defaults for the table it finds in the
// first sample: Ivanhoe with five players cuts play-outs off at 40 decisions and
// explores with c = 0.4, with four it plays them to the end (0) with the default c,
// and what the caller gives stands (cutoff=0: to the end).
func TestTableDefaults(t *testing.T) {
	for _, tc := range []struct {
		players int
		given   string
		cutoff  int
		c       float64
	}{{5, "", 40, 0.4}, {4, "", 0, DefaultC}, {5, "cutoff=0", 0, 0.4}, {5, "cutoff=7,c=1", 7, 1}} {
		cfg, err := ParseSettings("iterations=5," + tc.given)
		require.NoError(t, err)
		s, err := NewSearch("ivanhoe", nil, 1, cfg)
		require.NoError(t, err)
		g := midGame(t, "ivanhoe", tc.players, 10)
		seat := g.ToMove()
		_, err = s.Choose(g.View(seat), engine.EventsFor(nil, g.Log(), seat, 0), g.Options(), time.Time{})
		require.NoError(t, err)
		assert.Equal(t, tc.cutoff, s.cfg.Cutoff, "%dp %q", tc.players, tc.given)
		assert.Equal(t, tc.c, s.cfg.C, "%dp %q", tc.players, tc.given)
	}
}

// TestTheIvanhoeQuestionCostsTheSameHolderOrNot: asked whether to cancel an action card
// (R23a), the search spends its budget whether the seat holds Ivanhoe (two options) or
// not (one): were the one-option answer instant, the pause before the table's next
// decision would tell every seat who holds the card. Other one-option decisions are
// answered at once.
func TestTheIvanhoeQuestionCostsTheSameHolderOrNot(t *testing.T) {
	cfg, err := ParseSettings("iterations=40")
	require.NoError(t, err)
	asked := map[int]int{} // options -> questions seen
	for seed := uint64(1); seed <= 60 && (asked[1] == 0 || asked[2] == 0); seed++ {
		g, err := engine.New("ivanhoe", seed, 3)
		require.NoError(t, err)
		r := engine.NewRand(seed)
		for !g.Terminal() && (asked[1] == 0 || asked[2] == 0) {
			seat := g.ToMove()
			v := g.View(seat)
			if iv := v.(*ivanhoe.View); iv.Phase == ivanhoe.PhaseReaction && asked[len(g.Options())] == 0 {
				s, err := NewSearch("ivanhoe", nil, seed, cfg)
				require.NoError(t, err)
				_, err = s.Choose(v, engine.EventsFor(nil, g.Log(), seat, 0), g.Options(), time.Time{})
				require.NoError(t, err)
				assert.Equal(t, 40, s.Iterations, "%d option(s)", len(g.Options()))
				asked[len(g.Options())]++
			}
			require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
		}
	}
	require.Positive(t, asked[1], "a question to a seat without Ivanhoe came up")
	require.Positive(t, asked[2], "a question to the holder came up")

	g := midGame(t, "ivanhoe", 2, 0)
	for !g.Terminal() && (len(g.Options()) != 1 || hiddenQuestion(g.View(g.ToMove()))) {
		require.NoError(t, g.Apply(0))
	}
	require.False(t, g.Terminal(), "no other one-option decision came up")
	s, err := NewSearch("ivanhoe", nil, 1, cfg)
	require.NoError(t, err)
	_, err = s.Choose(g.View(g.ToMove()), nil, g.Options(), time.Time{})
	require.NoError(t, err)
	assert.Zero(t, s.Iterations, "another one-option decision is answered at once")
}

// firstOption is a policy that always takes option 0, and counts its calls.
type firstOption struct{ calls int }

func (p *firstOption) Choose(engine.View, []engine.Event, []engine.Option) int { p.calls++; return 0 }

// TestOthersPlayUniformly: with Others 1 the play-outs ask the policy only for the
// searching seat's moves (Epsilon none) and choose the other seats' moves uniformly;
// without it the policy plays every seat.
func TestOthersPlayUniformly(t *testing.T) {
	g := midGame(t, "ninjas", 4, 10)
	self := g.ToMove()
	view, events := g.View(self), engine.EventsFor(nil, g.Log(), self, 0)
	for _, others := range []float64{1, 0} {
		policy := &firstOption{}
		s, err := NewSearch("ninjas", nil, 1, Config{Iterations: 200, Policy: policy, Epsilon: -1, Others: others})
		require.NoError(t, err)
		s.self = self
		sample, err := s.sampler.Sample(nil, view, events, &s.rnd)
		require.NoError(t, err)
		s.resolve(sample.Players())
		var mine, theirs, theirsFirst int
		for i := 0; i < 2000 && !sample.Terminal(); i++ {
			if len(sample.Options()) < 2 {
				require.NoError(t, sample.Apply(0))
				continue
			}
			calls := policy.calls
			c := s.cfg.Rollout(sample, &s.rnd)
			asked := policy.calls > calls
			if sample.ToMove() == self {
				mine++
				assert.True(t, asked, "the policy must play the searching seat")
			} else {
				theirs++
				assert.Equal(t, others == 0, asked, "others %v: asked the policy for another seat", others)
				if c == 0 {
					theirsFirst++
				}
			}
			require.NoError(t, sample.Apply(c))
		}
		require.Positive(t, mine)
		require.Positive(t, theirs)
		if others == 1 {
			assert.Less(t, theirsFirst, theirs, "uniform moves never left option 0")
		}
	}
}
