package ismcts

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/engine/ninjas"
	_ "github.com/arena-games/arena/games" // every game and its sampler, for bot processes too
)

// Search is one seat's searcher, reused decision after decision so that its tree,
// sample and buffers are allocated once. It is not safe for concurrent use.
type Search struct {
	game    string
	given   Config // as the caller gave it; cfg is it resolved for the table
	players int    // the player count cfg was resolved for, 0 before the first sample
	rollout Rollout
	cfg     Config
	sampler engine.Sampler
	rnd     engine.Rand
	tree    tree
	forest  []tree // Config.Trees' trees after the first
	visits  []int32
	rewards []float64 // per option, summed over the trees (see choice)
	sample  engine.Game
	path    []int32
	self    int // the seat searching its decision
	reward  []float64
	root    rooted // where the tree's root stands, for Config.Reuse
	moves   []move
	// For Config.Infer: the last searched decision, the moves since, the present
	// view, the replays kept and tried this decision, and whether it still tries.
	past        past
	replay      []move
	pastEvents  []engine.Event // the events of past, and the cards proven held since
	present     ninjas.View
	kept, tried int
	inferring   bool
	draws       []drawn // self's draws since, for Config.Drawn
	belief      belief  // for Config.Belief
	fixed       []int
	views       viewBuffer
	// For Config.Field: the judge of the other seats, and the models that play the
	// seats it finds uniform so in play-outs and in the tree.
	field             detector
	fieldOut, fieldIn Rollout
	// Iterations counts the iterations of the last decision; Cut is set when the
	// clock, not the iteration budget, ended it.
	Iterations int
	Cut        bool
	// clock reads the wall clock (nil: time.Now); tests stand in a stalling one.
	clock func() time.Time
	stall time.Duration // the longest gap between clock readings lately (see search)
	faded time.Time     // when stall last faded
}

func (s *Search) now() time.Time {
	if s.clock != nil {
		return s.clock()
	}
	return time.Now()
}

// NewSearch makes a searcher for game played with opts (nil: the defaults), seeded for
// its own randomness.
func NewSearch(game string, opts engine.Options, seed uint64, cfg Config) (*Search, error) {
	s, err := engine.SamplerFor(game, opts)
	if err != nil {
		return nil, err
	}
	search := &Search{game: game, given: cfg, sampler: s, rnd: engine.NewRand(seed), reward: make([]float64, engine.MaxSeats), field: newDetector(seed)}
	search.resolve(0)
	return search, nil
}

// resolve fills what the caller's Config leaves open for a table of players (0:
// not known yet), keeping one epsilon-greedy rollout, with its view buffers, for
// the search's life.
func (s *Search) resolve(players int) {
	s.players = players
	s.cfg = s.given.withTable(s.game, players)
	if s.cfg.Rollout == nil {
		if s.rollout == nil {
			others := s.cfg.Epsilon
			if s.cfg.Others > 0 {
				others = min(s.cfg.Others, 1)
			}
			s.rollout = epsilonGreedy(s.cfg.Policy, s.cfg.Epsilon, others, &s.self) // this search's own view buffers
		}
		s.cfg.Rollout = s.rollout
	}
	if s.cfg.Field > 0 {
		if s.fieldOut == nil {
			s.fieldOut = uniformSeats(s.cfg.Rollout, &s.field.uniform, &s.field.share, &s.self, false)
			s.fieldIn = uniformSeats(nil, &s.field.uniform, nil, &s.self, true)
		}
		s.cfg.Rollout = s.fieldOut
		if s.cfg.Field == FieldRandom {
			for i := range s.field.uniform {
				s.field.uniform[i] = true
			}
			s.field.any = true
		}
	}
	if s.cfg.Bias > 0 && s.tree.guide == nil {
		s.tree.guide, s.tree.bias = epsilonGreedy(s.cfg.Policy, 0, 0, nil), int32(s.cfg.Bias)
		if s.game == kardinal.Name { // its heuristic costs several iterations a call
			s.tree.guide = KardinalGreedy
		}
	}
	if n := max(s.cfg.Trees, 1) - 1; len(s.forest) != n {
		s.forest = make([]tree, n)
		for i := range s.forest {
			s.forest[i].reset()
		}
	}
	s.tree.price = jokerPrice(s.cfg.Joker)
	for i := range s.forest {
		s.forest[i].guide, s.forest[i].bias, s.forest[i].price = s.tree.guide, s.tree.bias, s.tree.price
	}
}

// tableDefault is what a table of one game and player count plays best with where
// the caller leaves it open: a play-out cutoff (Progress then scores where play-outs
// stop in Ivanhoe and Ninjas), UCB's constant, the play-out policy and the
// evaluation's temperature.
type tableDefault struct {
	cutoff  int
	c       float64
	rollout Rollout
	reuse   bool
	infer   int
	soft    float64
	bias    int
	field   int
	hand    float64
	model   bool
	turns   bool
	takes   bool
	tempo   float64
	final   bool
	endgame int
	trees   int
	drawn   bool
	fit     int // Config.Fit's default: 1 eval=fit, 2 eval=fit2
	warm    int
}

// tableDefaults are the defaults that won through the arena (see docs/performance.md); what a
// table does not name comes from withGame. Kardinal plays out greedily with four
// players only: at the same time per decision the greedy play-out scored higher
// against the heuristic with four players and lower with three and five. Two-player
// Ninjas infers the other seat's cards from its moves (Config.Infer), which gained
// there and not with three players. Five-player Kardinal scores its play-outs at a
// temperature of 5 points instead of 3. Four-player Ivanhoe starts every node from
// the heuristic's move (progressive bias, Config.Bias), which gained there and not
// with five players. Ninjas with four to six players models each other seat from its
// moves (Config.Field: FieldAuto), which gained against random players and did not lose
// against the heuristic. Two-player Ninjas has the other seat choose in the tree as in
// play-outs (Config.Model): the cell's best figure through the arena (0.742 against
// 0.720-0.725 before), not a certain gain, and a cheaper iteration there; and it
// infers across its own draws (Config.Drawn), so that its first decision of a turn
// reads the other seat's whole turn: 0.755 through the arena at 8,300, the cell's
// best 400-game figure, and +0.057 paired in-process, again not a certain gain.
// Five-player Ivanhoe credits the cards each seat holds where its play-outs are cut
// off (Config.Hand). Five-player Kardinal scores where its play-outs are cut off by a
// model fitted to heuristic games (Config.Fit): +0.039 [+0.004, +0.075] on 400 paired
// games of fresh deals at the same CPU; the model that reads the majorities and the
// hands too (eval=fit2) +0.034 [-0.009, +0.077] more on 320, and 0.766 through the
// arena on 800 games at its 100 ms budget, the goal, against eval=fit's 0.753.
// Two-player Ninjas starts each node the tree adds at 5 virtual visits of its fitted
// value (Config.Warm): 0.758 through the arena on 800 games of two table seeds at
// 7,950, against the defaults' 0.748 before on two others, and +0.025 [-0.012,
// +0.062] paired in-process at the same CPU; at its 100 ms budget (12,000) 0.766 on
// 800 more, the goal.
var tableDefaults = map[string]map[int]tableDefault{
	"ivanhoe":     {4: {bias: 10}, 5: {cutoff: 40, c: 0.4, hand: 0.15}},
	kardinal.Name: {4: {rollout: KardinalGreedy}, 5: {soft: 5, fit: 2}},
	"ninjas":      {2: {infer: 4, model: true, drawn: true, warm: 5}, 4: {field: FieldAuto}, 5: {field: FieldAuto}, 6: {field: FieldAuto}},
}

// withTable is withGame with the defaults of a table of players (0: unknown).
func (c Config) withTable(game string, players int) Config {
	d := tableDefaults[game][players]
	if d.cutoff > 0 && c.Cutoff == 0 && c.Evaluate == nil {
		c.Cutoff = d.cutoff
	}
	if d.rollout != nil && c.Rollout == nil && c.Policy == nil {
		c.Rollout = d.rollout
	}
	fill(&c.C, d.c)
	fill(&c.Reuse, on(d.reuse))
	fill(&c.Infer, d.infer)
	fill(&c.Soft, d.soft)
	fill(&c.Bias, d.bias)
	fill(&c.Field, d.field)
	fill(&c.Hand, d.hand)
	fill(&c.Model, on(d.model))
	fill(&c.Turns, on(d.turns))
	fill(&c.Takes, on(d.takes))
	fill(&c.Tempo, d.tempo)
	fill(&c.Final, on(d.final))
	fill(&c.Endgame, d.endgame)
	fill(&c.Drawn, on(d.drawn))
	fill(&c.Trees, d.trees)
	fill(&c.Fit, d.fit)
	fill(&c.Warm, d.warm)
	if game == "ninjas" && players == 2 && c.Fit > 0 && c.Cutoff == 0 && c.Evaluate == nil {
		c.Cutoff = ninjasCutoff // the fitted evaluation scores cut-off play-outs
	}
	if (game == "ivanhoe" || game == "ninjas") && c.Evaluate == nil && c.Cutoff > 0 {
		if c.Soft == 0 {
			c.Soft = progressSoft
		}
		c.Evaluate = ProgressHolding(c.Soft, max(c.Hand, 0))
		if game == "ninjas" && players == 2 && c.Fit > 0 {
			c.Evaluate = NinjasFit(MatchScore)
		}
	}
	return c.withGame(game)
}

// fill sets a setting the config leaves to the table (its zero value) to the table's
// default, where the table has one.
func fill[T comparable](setting *T, def T) {
	var zero T
	if def != zero && *setting == zero {
		*setting = def
	}
}

// on is a table's yes as a tri-state setting's (positive on, 0 the default).
func on(yes bool) int {
	if yes {
		return 1
	}
	return 0
}

// hiddenQuestion reports a decision whose number of options depends on a card the
// seat holds: Ivanhoe's question whether to cancel an action (R23a), which offers the
// cancel only to the holder. The search spends its budget on it even with one option,
// so that how long the bot takes does not tell the table whether it holds the card.
func hiddenQuestion(view engine.View) bool {
	v, ok := view.(*ivanhoe.View)
	return ok && v.Phase == ivanhoe.PhaseReaction
}

// Choose searches the decision of the seat of view and returns an index into options.
// events are every event the seat has seen since the start of the game. The search
// stops at the configured budget or at stop (the zero time: no such bound), or earlier
// where a stall as long as the longest seen lately would carry it past either (see
// search), and always runs at least one iteration.
func (s *Search) Choose(view engine.View, events []engine.Event, options []engine.Option, stop time.Time) (int, error) {
	s.Iterations, s.self = 0, view.ViewSeat()
	if len(options) <= 1 && !hiddenQuestion(view) {
		s.root.own = append(s.root.own, move{seat: int8(s.self), opt: options[0]})
		return 0, nil
	}
	if i, ok := s.heuristicTake(view, events, options); ok {
		s.root.own = append(s.root.own, move{seat: int8(s.self), opt: options[i]})
		return i, nil
	}
	s.start(view, events)
	s.inferring = s.inference(view, events)
	s.belief.turn(view, s.inferring)
	if s.cfg.Field == FieldAuto || s.players == 0 { // before the first sample the table's default is not known yet
		s.field.observe(s.sampler, s.cfg.Policy, view, events)
	}
	defer s.past.remember(view, events)
	if s.cfg.Prior > 0 {
		h := s.cfg.Policy.Choose(view, events, options)
		if h >= 0 && h < len(options) {
			for k := 0; k <= len(s.forest); k++ {
				s.treeAt(k).prefer(options[h], int8(view.ViewSeat()), int32(s.cfg.Prior))
			}
		}
	}
	if err := s.search(view, events, stop); err != nil {
		return 0, err
	}
	if i := s.deferTo(view, events, options, s.choice(options)); i >= 0 {
		s.root.own = append(s.root.own, move{seat: int8(s.self), opt: options[i]})
		return i, nil
	}
	return 0, fmt.Errorf("ismcts: no searched option is among the %d real ones", len(options))
}

// treeAt is the search's k-th tree: the first is tree, the others forest's.
func (s *Search) treeAt(k int) *tree {
	if k == 0 {
		return &s.tree
	}
	return &s.forest[k-1]
}

// choice is the option the search plays once it ends, as an index into options (-1:
// none searched): its only tree's most visited root child, else as Config.Final
// prefers from the root's visits and rewards summed over its trees, each tree's vote
// weighed by its visits.
func (s *Search) choice(options []engine.Option) int {
	if len(s.forest) == 0 {
		return s.tree.best(options, s.cfg.Final > 0)
	}
	s.tallyRoots(options)
	return pick(s.visits, s.rewards, s.cfg.Final > 0)
}

// tallyRoots sets visits and rewards, indexed as options, to the root statistics of
// each option summed over the search's trees.
func (s *Search) tallyRoots(options []engine.Option) {
	s.visits, s.rewards = slices.Grow(s.visits[:0], len(options))[:len(options)], slices.Grow(s.rewards[:0], len(options))[:len(options)]
	clear(s.visits)
	clear(s.rewards)
	for k := 0; k <= len(s.forest); k++ {
		s.treeAt(k).tally(options, s.visits, s.rewards)
	}
}

// heuristicTake answers a Kardinal refill (which cards to take, K6) with the
// heuristic's choice where Config.Takes says so. A trial: with five players the
// play-outs are cut off before the seat's next turn, so they see a card taken only
// through what it keeps from the others, while the heuristic values each by what it
// would place; it lost there (docs/performance.md).
func (s *Search) heuristicTake(view engine.View, events []engine.Event, options []engine.Option) (int, bool) {
	v, ok := view.(*kardinal.View)
	if !ok || v.Phase != kardinal.PhaseRefill {
		return 0, false
	}
	if s.players != v.Players {
		s.resolve(v.Players)
	}
	if s.cfg.Takes <= 0 {
		return 0, false
	}
	i := s.cfg.Policy.Choose(view, events, options)
	return i, i >= 0 && i < len(options)
}

// start readies the tree for a decision: with Config.Reuse, the subtree under the
// moves made since the last root where the tree holds them; otherwise empty.
func (s *Search) start(view engine.View, events []engine.Event) {
	d := decisionCount(view)
	var ok bool
	s.moves, ok = s.root.playedSince(s.game, events, d, s.moves)
	keep := int32(0)
	if ok && s.cfg.Reuse > 0 && s.cfg.Prior <= 0 && len(s.forest) == 0 && d >= 0 {
		keep = s.tree.follow(s.moves)
	}
	if keep > 0 {
		s.tree.reroot(keep)
	} else {
		s.tree.reset()
	}
	for i := range s.forest {
		s.forest[i].reset()
	}
	s.root = rooted{valid: d >= 0, decisions: d, events: len(events), own: s.root.own[:0]}
}

// search iterates until the budget or hard, reading the wall clock after every
// iteration. On a machine loaded past its cores a niced searching process runs in short
// slices far apart (a CPU-bound task of low weight waits for every busier one's turn),
// so a search that is descheduled past the end of its budget answers only at its next
// slice: stall keeps the longest gap between two readings, fading by half every
// stallHalfLife, and the search answers in the present slice once a gap as long would
// carry it past its stop (the budget's end or hard). Cut records that the clock
// stopped it.
func (s *Search) search(view engine.View, events []engine.Event, hard time.Time) error {
	stop, last := hard, time.Time{}
	if s.cfg.Time > 0 || !hard.IsZero() {
		last = s.now()
	}
	if s.cfg.Time > 0 && (stop.IsZero() || last.Add(s.cfg.Time).Before(stop)) {
		stop = last.Add(s.cfg.Time)
	}
	if s.stall > 0 {
		s.stall = time.Duration(float64(s.stall) * math.Exp2(-float64(last.Sub(s.faded))/float64(stallHalfLife)))
	}
	s.faded, s.Cut = last, false
	for s.cfg.Iterations <= 0 || s.Iterations < s.cfg.Iterations {
		if err := s.iterate(view, events); err != nil {
			return err
		}
		s.Iterations++
		if stop.IsZero() {
			continue
		}
		now := s.now()
		s.stall, last = max(s.stall, now.Sub(last)), now
		if now.Add(s.stall).After(stop) {
			s.Cut = true
			return nil
		}
	}
	return nil
}

// stallHalfLife is how fast the stall a search expects fades: a machine's load
// changes over seconds, and a search after a quiet spell may search its whole budget
// again. Fading per decision instead let a search at a load of 25-50 probe the full
// budget every third decision or so, and forfeit on those.
const stallHalfLife = 10 * time.Second

// iterate is one SO-ISMCTS iteration: sample, select and expand, play out, back up.
func (s *Search) iterate(view engine.View, events []engine.Event) error {
	var g engine.Game
	var err error
	if s.inferring {
		g, err = s.sampleInferred(view, events)
	} else {
		g, err = s.sampler.Sample(s.sample, view, events, &s.rnd)
	}
	if err != nil {
		return err
	}
	s.sample = g
	if g.Players() != s.players {
		s.resolve(g.Players())
	}
	var model Rollout
	switch {
	case s.cfg.Model > 0:
		model = s.cfg.Rollout
	case s.field.any:
		model = s.fieldIn
	}
	t := s.treeAt(s.Iterations % (len(s.forest) + 1))
	if s.path, err = t.descend(g, s.cfg.C, &s.rnd, s.path, view.ViewSeat(), model); err != nil {
		return err
	}
	turns := s.cfg.Turns > 0 && s.game == kardinal.Name
	fit := s.cfg.Fit > 0 && s.game == "ninjas" && s.players == 2
	cutoff := s.playoutCutoff(g)
	warm := s.warmNode(t, s.path)
	for d, mover := 0, g.ToMove(); !g.Terminal(); d++ {
		if warm != 0 {
			warm = s.warmIfDue(t, warm, g)
		}
		if cutoff > 0 && d >= cutoff && (!turns || g.ToMove() != mover) && (!fit || ninjasAtTurnStart(g)) {
			break // with Turns, only where a turn begins; fitted in Ninjas, only where one has begun
		}
		mover = g.ToMove()
		i := s.cfg.Rollout(g, &s.rnd)
		if i < 0 || i >= len(g.Options()) {
			i = g.Fallback()
		}
		if err := g.Apply(i); err != nil {
			return err
		}
	}
	reward := s.reward[:g.Players()]
	s.cfg.Evaluate(g, reward)
	t.backup(s.path, reward)
	return nil
}
