package ismcts

import (
	"time"

	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/plugins/heuristic"
	randomPlayer "github.com/arena-games/arena/plugins/random"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// judging is the heuristic bot with a detector that judges the other seats at each of
// its decisions with a choice, as a search with field=auto does.
type judging struct {
	d       detector
	sampler engine.Sampler
	policy  engine.Policy
	events  []engine.Event
	// first[s] is the count of judged decisions at which seat s was first modelled
	// uniform (0: never); judged counts the decisions.
	first  [engine.MaxSeats]int
	judged int
}

func (j *judging) Choose(view engine.View, events []engine.Event, options []engine.Option) int {
	j.events = append(j.events, events...)
	if len(options) > 1 {
		j.d.observe(j.sampler, j.policy, view, j.events)
		j.judged++
		for s, u := range j.d.uniform {
			if u && j.first[s] == 0 {
				j.first[s] = j.judged
			}
		}
	}
	return j.policy.Choose(view, events, options)
}

// fieldTrial plays one Ninjas game of deal d with a judging heuristic in seat 0 and
// the others random where random says, else heuristic, and returns the judge.
func fieldTrial(t testing.TB, d int, random []bool) *judging {
	g, err := engine.New("ninjas", uint64(500+d), len(random))
	require.NoError(t, err)
	sampler, err := engine.SamplerFor("ninjas", nil)
	require.NoError(t, err)
	j := &judging{d: newDetector(uint64(d)), sampler: sampler, policy: heuristic.New()}
	seats := []engine.Policy{j}
	for s := 1; s < len(random); s++ {
		seats = append(seats, heuristic.New())
		if random[s] {
			seats[s] = randomPlayer.New(uint64(80 + 10*d + s))
		}
	}
	require.NoError(t, engine.PlayOut(g, seats))
	return j
}

// TestDetectorSeesRandomSeats: over 200 deals of each field (a heuristic judge in seat
// 0, the other seats all heuristic, all random, or mixed), the detector holds few
// heuristic seats random, at any decision or at the game's end, and finds most random
// seats, nearly all of them in games long enough to judge (the rates are logged; the
// bounds leave room above and below what these seeds give).
func TestDetectorSeesRandomSeats(t *testing.T) {
	const games = 200
	for _, field := range [][]bool{
		{false, false, false, false}, {false, false, false, false, false}, {false, false, false, false, false, false}, // heuristic fields
		{false, true, true, true}, {false, true, true, true, true}, {false, true, true, true, true, true}, // random fields
		{false, false, false, true, true}, // mixed
	} {
		var heur, random, heurEver, heurEnd, randomFound, randomLong, randomLongEnd, at int
		for d := 0; d < games; d++ {
			j := fieldTrial(t, d, field)
			for s := 1; s < len(field); s++ {
				if !field[s] {
					heur++
					heurEver += b2i(j.first[s] > 0)
					heurEnd += b2i(j.d.uniform[s])
					continue
				}
				random++
				if j.first[s] > 0 {
					randomFound++
					at += j.first[s]
				}
				if j.judged >= fieldLong {
					randomLong++
					randomLongEnd += b2i(j.d.uniform[s])
				}
			}
		}
		t.Logf("%d players, %v: heuristic seats held random at some decision %d of %d, at the end %d; random seats found %d of %d (at decision %.1f on average), held random at the end of games of %d decisions or more %d of %d",
			len(field), field[1:], heurEver, heur, heurEnd, randomFound, random, float64(at)/float64(max(randomFound, 1)), fieldLong, randomLongEnd, randomLong)
		assert.LessOrEqual(t, float64(heurEver), 0.1*float64(heur), "heuristic seats held random")
		assert.LessOrEqual(t, float64(heurEnd), 0.05*float64(heur), "heuristic seats held random at the end")
		if random > 0 {
			assert.GreaterOrEqual(t, float64(randomFound), 0.6*float64(random), "random seats found")
			assert.GreaterOrEqual(t, float64(randomLongEnd), 0.85*float64(randomLong), "random seats held random at the end of long games")
		}
	}
}

// fieldLong is the judged decisions of a game after which the detector should hold
// every random seat random.
const fieldLong = 8

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// counted is a policy that counts its calls.
type counted struct {
	engine.Policy
	calls int
}

func (p *counted) Choose(view engine.View, events []engine.Event, options []engine.Option) int {
	p.calls++
	return p.Policy.Choose(view, events, options)
}

// TestFieldModelsPlayOutsAndTree: with field=random the play-outs never ask the policy
// for another seat's move and the tree never chooses for another seat by UCB (no
// availability counted); with field=heuristic both do; with field=auto, after a game
// against random players, exactly the seats the detector found random play uniformly.
func TestFieldModelsPlayOutsAndTree(t *testing.T) {
	g := midGame(t, "ninjas", 5, 10)
	self := g.ToMove()
	view, events, opts := g.View(self), engine.EventsFor(nil, g.Log(), self, 0), g.Options()
	for _, field := range []int{FieldRandom, FieldHeuristic} {
		policy := &counted{Policy: heuristic.New()}
		s, err := NewSearch("ninjas", nil, 1, Config{Iterations: 300, Policy: policy, Field: field})
		require.NoError(t, err)
		_, err = s.Choose(view, events, opts, time.Time{})
		require.NoError(t, err)
		var others, counted int
		for _, n := range s.tree.nodes[1:] {
			if int(n.mover) != self {
				others++
				if n.avail > 1 { // added at 1, counted on by UCB only
					counted++
				}
			}
		}
		require.Positive(t, others, "no other seat in the tree")
		if field == FieldRandom {
			assert.Zero(t, counted, "UCB chose for another seat")
		} else {
			assert.Positive(t, counted, "UCB never chose for another seat")
		}
		asked := otherSeatsAsked(t, s, policy, view, events)
		for seat := range 5 {
			if seat != self {
				assert.Equal(t, field == FieldHeuristic, asked[seat], "field %d: the policy played seat %d", field, seat)
			}
		}
	}
}

// TestFieldAutoIsNinjasDefaultFromFourPlayers: field=auto is the default where it
// gained against random players and lost nothing against the heuristic.
func TestFieldAutoIsNinjasDefaultFromFourPlayers(t *testing.T) {
	for _, n := range []int{4, 5, 6} {
		assert.Equal(t, FieldAuto, Config{}.withTable("ninjas", n).Field)
	}
	assert.Zero(t, Config{}.withTable("ninjas", 2).Field)
	assert.Zero(t, Config{}.withTable("ivanhoe", 5).Field)
	off, err := ParseSettings("field=heuristic")
	require.NoError(t, err)
	assert.Equal(t, FieldHeuristic, off.withTable("ninjas", 5).Field)
}

// TestFieldAutoPlaysFoundSeatsUniformly: a search with the defaults (field=auto, known
// only once the first decision sees five players) plays a five-player game against
// random players; the seats its detector then holds random are played uniformly in its
// play-outs, the others by the policy.
func TestFieldAutoPlaysFoundSeatsUniformly(t *testing.T) {
	found := 0
	for d := 0; d < 4 && found == 0; d++ {
		policy := &counted{Policy: heuristic.New()}
		p, err := New("ninjas", uint64(d), Config{Iterations: 100, Policy: policy})
		require.NoError(t, err)
		g, err := engine.New("ninjas", uint64(600+d), 5)
		require.NoError(t, err)
		seats := []engine.Policy{p}
		for s := 1; s < 5; s++ {
			seats = append(seats, randomPlayer.New(uint64(70+s)))
		}
		require.NoError(t, engine.PlayOut(g, seats))
		s := p.search
		m := midGame(t, "ninjas", 5, 10)
		asked := otherSeatsAsked(t, s, policy, m.View(0), engine.EventsFor(nil, m.Log(), 0, 0))
		for seat := 1; seat < 5; seat++ {
			if s.field.uniform[seat] {
				found++
			}
			assert.Equal(t, !s.field.uniform[seat], asked[seat], "deal %d: the policy played seat %d, held random: %v", d, seat, s.field.uniform[seat])
		}
	}
	assert.Positive(t, found, "no random seat found in four games")
}

// otherSeatsAsked plays 2,000 play-out moves of s on samples of view as seat 0 and
// reports, for each seat, whether the policy was asked for its moves.
func otherSeatsAsked(t *testing.T, s *Search, policy *counted, view engine.View, events []engine.Event) [engine.MaxSeats]bool {
	var asked [engine.MaxSeats]bool
	s.self = view.ViewSeat()
	sample, err := s.sampler.Sample(nil, view, events, &s.rnd)
	require.NoError(t, err)
	s.resolve(sample.Players())
	for i := 0; i < 2000; i++ {
		if sample.Terminal() {
			sample, err = s.sampler.Sample(nil, view, events, &s.rnd)
			require.NoError(t, err)
		}
		calls := policy.calls
		c := s.cfg.Rollout(sample, &s.rnd)
		if policy.calls > calls {
			asked[sample.ToMove()] = true
		}
		require.NoError(t, sample.Apply(c))
	}
	return asked
}

// BenchmarkDetector measures what field=auto adds to a decision: one judgement of the
// moves of a round of five-player Ninjas (the detector's replays), to set against the
// decision's iterations (BenchmarkIterations).
func BenchmarkDetector(b *testing.B) {
	g := midGame(b, "ninjas", 5, 10)
	self := g.ToMove()
	first, firstEvents := g.View(self), engine.EventsFor(nil, g.Log(), self, 0)
	h := heuristic.New()
	for moved := false; !moved || g.ToMove() != self || len(g.Options()) < 2; moved = true {
		if err := g.Apply(h.Choose(g.View(g.ToMove()), nil, g.Options())); err != nil {
			b.Fatal(err)
		}
	}
	view, events := g.View(self), engine.EventsFor(nil, g.Log(), self, 0)
	sampler, err := engine.SamplerFor("ninjas", nil)
	if err != nil {
		b.Fatal(err)
	}
	d := newDetector(1)
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d.past.remember(first, firstEvents)
		d.observe(sampler, h, view, events)
	}
	b.ReportMetric(float64(len(events)-len(firstEvents)), "events")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
}
