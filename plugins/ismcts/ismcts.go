// Package ismcts is a search bot for every game of the arena: Single-Observer
// Information Set Monte Carlo Tree Search (Cowling, Powley and Whitehouse, IEEE TCIAIG
// 2012). One tree holds the searching seat's information sets; every iteration samples
// one complete state the seat cannot tell from the real one (the game's
// engine.Sampler, from the seat's view and every event it has seen), walks the tree on
// it choosing by UCB with availability counts (a child's exploration term counts the
// iterations in which its option was legal, not its parent's visits), adds one node,
// plays the game out with a cheap rollout policy and credits every seat on the path
// with its own reward, the match score (the share of opponents finished ahead of, ties
// half), so it plays any number of seats. It answers with the root's most visited
// option.
//
// No kept Go library does this search; it is our own code. Bot authors wrap it with
// their own rollout policy or evaluation through Config (see examples/ismctsbot).
package ismcts

import (
	"math"
	"time"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/engine/ninjas"
	"github.com/arena-games/arena/plugins/heuristic"
)

// Rollout chooses an option of g's pending decision during a play-out. It sees the
// whole sampled state: a rollout is a guess about a sample, not a seat's decision.
type Rollout func(g engine.Game, r *engine.Rand) int

// Evaluate writes each seat's reward, in [0, 1], for a state where a play-out stopped:
// the end of the game, or Config.Cutoff decisions into it.
type Evaluate func(g engine.Game, reward []float64)

// Config is a search's budget and parts. The zero value searches 100 ms per decision
// with the defaults below.
type Config struct {
	// Iterations and Time bound each decision's search; the first reached stops it.
	// With neither set the budget is DefaultTime. Time is also kept inside the
	// deadline the arena sends, less a margin (see Margin).
	Iterations int
	Time       time.Duration
	// C is UCB's exploration constant (rewards are in [0, 1]); 0 means the table's
	// default: DefaultC, but 0.4 in Ivanhoe with five players.
	C float64
	// Policy plays out sampled states from the mover's view, epsilon-greedy: with
	// probability Epsilon (0: DefaultEpsilon; negative: never) a uniform option
	// instead. nil means the heuristic bot, except in Kardinal, where play-outs are
	// KardinalPlacer's (KardinalGreedy's with four players) and cut off (see Cutoff).
	Policy  engine.Policy
	Epsilon float64
	// Others, when positive, is the random share of the other seats' play-out moves
	// under Policy instead of Epsilon (at most 1: they play uniformly): a model of a
	// field weaker than the policy.
	Others float64
	// Rollout, when set, plays out instead of Policy, seeing the whole sampled state.
	// Every search made with this Config calls it, so it must be safe for concurrent
	// use when searches run at once (one bot process plays many matches).
	Rollout Rollout
	// Cutoff stops a play-out after that many decisions and Evaluate scores where it
	// stopped; 0 is the table's default (play to the end, but 16 in Kardinal and 40
	// in Ivanhoe with five players), negative plays to the end. Evaluate nil means
	// MatchScore, which needs the end, except in Kardinal, where it means the
	// projection (see Soft), and in Ivanhoe and Ninjas cut off, where it means
	// Progress (with Soft as its temperature, 0: 1).
	Cutoff   int
	Evaluate Evaluate
	// Soft is the temperature of the evaluation where Evaluate is nil: Kardinal's, in
	// points (KardinalPotential; 0: 3; negative: KardinalProjection's hard ranks), or
	// Progress's, in tokens or gems (0: 1; negative: hard ranks).
	Soft float64
	// Plain drops from Kardinal's soft evaluation the part credit of short chains and
	// half-made alliances (KardinalPotential), leaving SoftKardinalProjection.
	Plain bool
	// Fit, when positive, in Kardinal with five players, evaluates a cut-off play-out
	// by a model fitted to heuristic games (KardinalFit) instead of the projection: 1
	// the six features in quarters (eval=fit), 2 the majorities and the hands too, in
	// eighths (eval=fit2); in Ninjas with two players any positive value cuts play-outs
	// off and scores them by NinjasFit (eval=fit); negative never does; 0 is the
	// table's default (tableDefaults: 2 in Kardinal with five players).
	Fit int
	// Model, when positive, has the other seats choose in the tree as they do in
	// play-outs (the rollout policy) instead of by UCB: the search then models its
	// opponents as players of that policy and spends its iterations on its own
	// decisions. Negative never does; 0 is the table's default (tableDefaults: on in
	// Ninjas with two players).
	Model int
	// Prior, when positive, starts each decision's tree with Prior visits, each a
	// win, for the option the heuristic bot would choose: the search leaves the
	// heuristic's move only for one it finds better after that many iterations.
	Prior int
	// Reuse, when positive, starts a decision's search from the subtree the last
	// search grew under the moves made since, where the tree holds them (see
	// reuse.go); negative never does; 0 is the table's default (tableDefaults).
	// Ignored with Prior.
	Reuse int
	// Infer, when positive, has each iteration try up to Infer times to sample the
	// last decision's state and replay the moves made since, keeping a replay as
	// likely as the opponent model makes the other seats' moves (see infer.go);
	// Ninjas only, where the events name every move. Negative never does; 0 is the
	// table's default (tableDefaults: 4 in Ninjas with two players).
	Infer int
	// Drawn, when positive, lets Infer replay across the cards the searching seat
	// drew since its last decision (its first decision of a turn, after the other
	// seats' turns): each sampled pile is stacked to deal it the cards it saw itself
	// draw. Otherwise a draw since ends inference for the decision. Negative never
	// does; 0 is the table's default (tableDefaults: on in Ninjas with two players).
	Drawn int
	// Belief, when positive, carries the other seats' hands of up to Belief replays
	// kept at one searched decision to the next, where each try samples its past
	// state with one of them (ninjas_belief.go): inference over every turn since
	// the last break, not only the last. Ninjas, inferring only; 0 or negative
	// never does.
	Belief int
	// Carry, when positive, keeps a Belief through the decisions it used to break
	// at (ninjas_carry.go): one with only the seat's own moves since replays them
	// too, and one whose believed pasts keep no replay falls back to fresh pasts
	// instead of giving up inference. Negative or 0 never does.
	Carry int
	// Trust, when positive, is the random share that Infer's replays give the
	// other seats' moves (a move other than the heuristic's is kept Trust/n as
	// often as the heuristic's): the table's heuristic bot is a function of its
	// view, so a small share keeps only the pasts its moves say it could have
	// held. 0 or negative: the play-outs' share (Others, else Epsilon).
	Trust float64
	// Bias, when positive, is progressive bias at every node: a node's first
	// expansion adds the heuristic's option (Kardinal: KardinalGreedy's) first, with
	// Bias virtual visits, each a win, that the search must outweigh. Negative
	// never does; 0 is the table's default (tableDefaults: 10 in Ivanhoe with four
	// players).
	Bias int
	// Warm, when positive, starts each node the tree adds with Warm virtual visits
	// at a fitted model's value of the position for the node's mover (warm.go): in
	// two-player Ninjas NinjasFit's, of the first turn-start state its play-out
	// reaches; in five-player Kardinal with Fit, KardinalFit's, of the state its move
	// led to. A prior that the node's real visits outweigh as they come, so that the
	// deep nodes, which get few, are ranked by more than a play-out or two. Other
	// tables have no fitted model. Negative never does; 0 is the table's default
	// (tableDefaults: 5 in Ninjas with two players).
	Warm int
	// Field is the model of the other seats (field.go): FieldHeuristic (every other
	// seat plays Policy, with Others as its random share), FieldRandom (every other
	// seat uniform, in play-outs and in the tree) or FieldAuto (each other seat as its
	// moves so far say, Ninjas only); 0 is the table's default (tableDefaults:
	// FieldAuto in Ninjas with four to six players, else FieldHeuristic).
	Field int
	// Hand is the credit, in tokens, that Ivanhoe's cut-off evaluation gives a seat
	// for each card it holds (ProgressHolding); 0 is the table's default
	// (tableDefaults: 0.15 in Ivanhoe with five players, else none), negative none.
	Hand float64
	// Turns, when positive, plays a Kardinal play-out past its cutoff to the end of
	// the turn in progress, so that every play-out stops where a turn begins, however
	// many decisions the moves before took; negative never does; 0 is the table's
	// default (tableDefaults).
	Turns int
	// Takes, when positive, answers Kardinal's refills (which cards to take) with
	// the heuristic's choice instead of searching them; negative never does; 0 is
	// the table's default (tableDefaults).
	Takes int
	// Tempo is the credit, in points, that Kardinal's cut-off evaluation gives each
	// seat with a turn still to come in the present round (KardinalTempo); 0 is the
	// table's default, negative none.
	Tempo float64
	// Late, when positive, is the temperature of Kardinal's soft evaluation at the
	// game's end, Soft's then its mean over the game (KardinalCooling); 0 keeps
	// Soft throughout.
	Late float64
	// Ally, when positive, is the credit, in points per advisor, that Kardinal's
	// cut-off evaluation gives an alliance a seat leads on one side and is one
	// advisor from leading on the other (KardinalAllies); 0 none.
	Ally float64
	// Joker, when positive, is the price of a Kardinal placement paid with a joker
	// (two cards of a kind for one piece, K2): taken off every reward the tree backs
	// up through such a placement (kardinal_joker.go); 0 none.
	Joker float64
	// Endgame, when positive, plays a Kardinal play-out to the end, past Cutoff,
	// where it starts after the interim scoring with at most Endgame cards in the
	// draw pile (kardinal_endgame.go); 0 is the table's default, negative never.
	Endgame int
	// Final, when positive, answers with the root's best child by mean reward among
	// those visited at least half as often as the most visited, instead of the most
	// visited; negative never does; 0 is the table's default.
	Final int
	// Defer, when positive, plays the heuristic's (Policy's) option instead of the
	// search's where the root cannot tell them apart: its mean reward within Defer
	// of the chosen option's (see deference.go); 0 none.
	Defer float64
	// Trees, above 1, grows that many trees a decision instead of one, the iterations
	// dealt among them in turn, each over its own sampled deals; the move is chosen
	// from their root statistics summed (see Final). Reuse is then ignored. 0 or 1:
	// one tree.
	Trees int
}

// Defaults of Config.
const (
	DefaultTime    = 100 * time.Millisecond
	DefaultC       = 0.7
	DefaultEpsilon = 0.1
)

// Margin is what a search leaves of the time the arena allows a decision, for the
// answer to reach the arena: half of it, and at least 10 ms. The search reads the wall
// clock after every iteration (the median iteration takes 7-23 µs in every game, the
// 99th percentile well under a millisecond: TestIterationCost), so time the process
// spends descheduled counts against the deadline and the search overshoots its stop
// by one iteration and whatever stall it resumes from (see Search.search). The answer
// still crosses two processes after the last reading (the bot's send, the arena's
// receive), each of which can stall as long again: on a loaded machine, niced, single
// stalls of a few hundred milliseconds are common (docs/performance.md), and half of
// a 1 s limit covers two of them.
func Margin(allowed time.Duration) time.Duration { return max(allowed/2, 10*time.Millisecond) }

func (c Config) withDefaults() Config {
	if c.Iterations <= 0 && c.Time <= 0 {
		c.Time = DefaultTime
	}
	if c.C <= 0 {
		c.C = DefaultC
	}
	if c.Policy == nil {
		c.Policy = heuristic.New()
	}
	switch {
	case c.Epsilon == 0:
		c.Epsilon = DefaultEpsilon
	case c.Epsilon < 0:
		c.Epsilon = 0
	}
	if c.Evaluate == nil {
		c.Evaluate, c.Cutoff = MatchScore, 0 // the match score needs the end
	}
	return c
}

// MatchScore is the arena's score of a finished game for every seat: the share of
// opponents it finished ahead of, ties counted half. Ivanhoe and Ninjas rank by their
// winner and then tokens or gems, read without the allocations of Result.
func MatchScore(g engine.Game, reward []float64) {
	var key [engine.MaxSeats]int
	n := g.Players()
	if winner := progress(g, key[:n]); winner >= 0 && winner < n {
		key[winner] = math.MaxInt32
	}
	ShareBeaten(key[:n], reward)
}

// progress writes into key what the match ranks each seat by after the winner: the
// tokens (Ivanhoe) or gems (Ninjas) it holds, elsewhere minus its place in Result. It
// returns the winner, or NoSeat.
func progress(g engine.Game, key []int) int {
	switch x := g.(type) {
	case *ivanhoe.Game:
		for s := range key {
			key[s] = 0
			for _, has := range x.Tokens(s) {
				if has {
					key[s]++
				}
			}
		}
		return x.Winner()
	case *ninjas.Game:
		for s := range key {
			key[s] = x.Gems(s)
		}
		return x.Winner()
	}
	for s, p := range g.Result().Place {
		key[s] = -p
	}
	return engine.NoSeat
}

// EpsilonGreedy is a rollout that follows policy on the mover's view, and with
// probability epsilon picks uniformly instead. The rollout it returns reuses one view
// per game (no allocation per decision), so it serves one search at a time.
func EpsilonGreedy(policy engine.Policy, epsilon float64) Rollout {
	return epsilonGreedy(policy, epsilon, epsilon, nil)
}

// epsilonGreedy is EpsilonGreedy with the random share others for the seats other
// than *self (self nil: every seat epsilon).
func epsilonGreedy(policy engine.Policy, epsilon, others float64, self *int) Rollout {
	cut, cutOthers := uint64(epsilon*(1<<53)), uint64(others*(1<<53))
	var views viewBuffer
	return func(g engine.Game, r *engine.Rand) int {
		opts := g.Options()
		if len(opts) == 1 {
			return 0
		}
		c := cut
		if self != nil && g.ToMove() != *self {
			c = cutOthers
		}
		if r.Uint64()>>11 < c {
			return r.Intn(len(opts))
		}
		return policy.Choose(views.of(g, g.ToMove()), nil, opts)
	}
}

// viewBuffer fills one reused view per game where the game can.
type viewBuffer struct {
	ivanhoe ivanhoe.View
	ninjas  ninjas.View
}

func (b *viewBuffer) of(g engine.Game, seat int) engine.View {
	switch x := g.(type) {
	case *ivanhoe.Game:
		x.FillView(&b.ivanhoe, seat)
		return &b.ivanhoe
	case *ninjas.Game:
		x.FillView(&b.ninjas, seat)
		return &b.ninjas
	}
	return g.View(seat)
}

// Uniform is the cheapest rollout: uniformly random options.
func Uniform(g engine.Game, r *engine.Rand) int { return r.Intn(len(g.Options())) }
