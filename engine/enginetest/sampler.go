package enginetest

import (
	"math"
	"reflect"
	"testing"

	"github.com/arena-games/arena/engine"
)

// CheckSampler plays games of the named game with random players and, every few
// decisions, samples the state for one seat, checking what every game's sampler
// promises: the sample gives the seat exactly its view, its events and (when it is to
// move) its options back; it plays on to a legal end; and a sample drawn from another
// state the seat cannot tell apart (an earlier sample) with the same seed is the same
// state, by Hash, so nothing hidden went in.
func CheckSampler(t *testing.T, spec engine.Spec, s engine.Sampler, players, games int) {
	t.Helper()
	r := engine.NewRand(uint64(players))
	checked := 0
	for seed := 0; seed < games; seed++ {
		g, err := spec.New(uint64(seed), players)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; !g.Terminal(); step++ {
			if step%7 == 3 {
				seat := r.Intn(players)
				if step%2 == 1 {
					seat = g.ToMove()
				}
				checkOne(t, spec, s, g, seat, r.Uint64())
				checked++
				if t.Failed() {
					t.Fatalf("game %d, decision %d, seat %d", seed, g.Decisions(), seat)
				}
			}
			if err := g.Apply(r.Intn(len(g.Options()))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no state was sampled")
	}
}

func checkOne(t *testing.T, spec engine.Spec, s engine.Sampler, g engine.Game, seat int, seed uint64) {
	t.Helper()
	view := g.View(seat)
	events := engine.EventsFor(nil, g.Log(), seat, 0)
	r := engine.NewRand(seed)
	a, err := s.Sample(nil, view, events, &r)
	if err != nil {
		t.Fatalf("sample: %v", err)
	}
	if got := a.View(seat); !reflect.DeepEqual(got, view) {
		t.Fatalf("the sample's view differs:\n%s\nwant\n%s", got, view)
	}
	if got := engine.EventsFor(nil, a.Log(), seat, 0); !reflect.DeepEqual(got, events) {
		t.Fatalf("the sample's events differ: %d events, want %d", len(got), len(events))
	}
	if a.ToMove() != g.ToMove() {
		t.Fatalf("the sample has seat %d to move, want %d", a.ToMove(), g.ToMove())
	}
	if g.ToMove() == seat && !reflect.DeepEqual(a.Options(), g.Options()) {
		t.Fatalf("the sample offers the seat %v, want %v", a.Options(), g.Options())
	}
	// An indistinguishable state: the sample itself (other hidden cards, same view and
	// events). The same seed must give the same sample from either.
	r1, r2 := engine.NewRand(seed^1), engine.NewRand(seed^1)
	b, err := s.Sample(nil, view, events, &r1)
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Sample(nil, a.View(seat), engine.EventsFor(nil, a.Log(), seat, 0), &r2)
	if err != nil {
		t.Fatal(err)
	}
	if b.Hash() != c.Hash() {
		t.Fatal("two states the seat cannot tell apart gave different samples with one seed")
	}
	// A reused sample is overwritten whole: sampling into b gives what a fresh one does.
	r1, r2 = engine.NewRand(seed^2), engine.NewRand(seed^2)
	fresh, err := s.Sample(nil, view, events, &r1)
	if err != nil {
		t.Fatal(err)
	}
	if reused, err := s.Sample(b, view, events, &r2); err != nil || reused.Hash() != fresh.Hash() {
		t.Fatalf("sampling into a used game differs from a fresh sample (%v)", err)
	}
	playOn(t, a, spec.MaxDecisions, seed)
}

// playOn plays g to its end at random: every Apply must succeed.
func playOn(t *testing.T, g engine.Game, maxDecisions int, seed uint64) {
	t.Helper()
	r := engine.NewRand(seed)
	for i := 0; !g.Terminal(); i++ {
		n := len(g.Options())
		if n == 0 || i > maxDecisions {
			t.Fatalf("the sample does not play on: %d options after %d decisions", n, i)
		}
		if err := g.Apply(r.Intn(n)); err != nil {
			t.Fatalf("the sample does not play on: %v", err)
		}
	}
}

// ChiSquare fails t unless the observed counts per category fit the expected
// probabilities at the 0.1% level (Pearson's test; categories expected below 5 times
// are pooled into one, as the test requires).
func ChiSquare(t *testing.T, observed []int, expected []float64) {
	t.Helper()
	total := 0
	for _, o := range observed {
		total += o
	}
	var stat, restObs, restExp float64
	df := -1
	for i, p := range expected {
		e := p * float64(total)
		if e < 5 {
			if observed[i] > 0 && p == 0 {
				t.Fatalf("category %d was never expected but came %d times", i, observed[i])
			}
			restObs += float64(observed[i])
			restExp += e
			continue
		}
		d := float64(observed[i]) - e
		stat += d * d / e
		df++
	}
	if restExp >= 5 {
		d := restObs - restExp
		stat += d * d / restExp
		df++
	}
	if df < 1 {
		t.Fatal("too few samples for a chi-square test")
	}
	// Wilson-Hilferty: the 99.9th percentile of chi-square with df degrees of freedom.
	const z = 3.0902
	k := float64(df)
	crit := k * math.Pow(1-2/(9*k)+z*math.Sqrt(2/(9*k)), 3)
	if stat > crit {
		t.Fatalf("chi-square %.1f with %d degrees of freedom is above %.1f: the hidden cards do not follow the stated distribution", stat, df, crit)
	}
}

// SampledCounts samples g for seat me n times and sums, per kind, the counts hidden
// returns for each sample (for example one opponent's hand), for ChiSquare.
func SampledCounts(t *testing.T, s engine.Sampler, g engine.Game, me, n int, hidden func(engine.Game) []uint8) []int {
	t.Helper()
	view, events := g.View(me), engine.EventsFor(nil, g.Log(), me, 0)
	r := engine.NewRand(uint64(n))
	var dst engine.Game
	var sum []int
	for i := 0; i < n; i++ {
		var err error
		if dst, err = s.Sample(dst, view, events, &r); err != nil {
			t.Fatal(err)
		}
		h := hidden(dst)
		if sum == nil {
			sum = make([]int, len(h))
		}
		for k, c := range h {
			sum[k] += int(c)
		}
	}
	return sum
}

// Proportions turns counts into probabilities.
func Proportions(counts []int) []float64 {
	total := 0
	for _, c := range counts {
		total += c
	}
	p := make([]float64, len(counts))
	for k, c := range counts {
		p[k] = float64(c) / float64(total)
	}
	return p
}

// EveryDecision plays seeded random games of spec's game (players from the seed by
// players) and calls check at every decision with the seat of the seed's choosing, its
// events and a sample for it by s.
func EveryDecision(t *testing.T, spec engine.Spec, s engine.Sampler, games int, players func(seed int) int, check func(g, sample engine.Game, me int, events []engine.Event)) {
	t.Helper()
	for seed := 0; seed < games; seed++ {
		n := players(seed)
		g, err := spec.New(uint64(seed), n)
		if err != nil {
			t.Fatal(err)
		}
		r := engine.NewRand(uint64(seed))
		me := seed % n
		for !g.Terminal() {
			events := engine.EventsFor(nil, g.Log(), me, 0)
			sample, err := s.Sample(nil, g.View(me), events, &r)
			if err != nil {
				t.Fatalf("game %d: %v", seed, err)
			}
			check(g, sample, me, events)
			if t.Failed() {
				t.Fatalf("game %d, decision %d", seed, g.Decisions())
			}
			if err := g.Apply(r.Intn(len(g.Options()))); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// ProvenHeld fails t unless a seat's proven cards (counts per kind) are in its real hand
// and in its sampled hand; it returns how many cards were proven.
func ProvenHeld(t *testing.T, seat int, proven, real, sampled []uint8) int {
	t.Helper()
	n := 0
	for k, c := range proven {
		if c > real[k] || c > sampled[k] {
			t.Fatalf("seat %d is proven to hold %d of kind %d, holds %d, sampled %d", seat, c, k, real[k], sampled[k])
		}
		n += int(c)
	}
	return n
}
