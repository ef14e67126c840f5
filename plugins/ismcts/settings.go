package ismcts

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arena-games/arena/plugins/heuristic"
)

// SettingsHelp lists the settings ParseSettings reads, for a command's help.
const SettingsHelp = `iterations=N   iterations per decision
time=D         time per decision (a Go duration: 100ms, 1s)
c=X            UCB's exploration constant (default 0.7; 0.4 in Ivanhoe with
               five players)
rollout=R      heuristic (epsilon-greedy over the heuristic bot), random or
               placer (KardinalPlacer) or greedy (KardinalGreedy); the default is
               the game's own
epsilon=X      the random share of heuristic rollouts (default 0.1); with
               rollout=greedy, the share of placer moves (default none)
others=X       the random share of the other seats' heuristic play-out moves
               (default: epsilon's; 1: they play uniformly)
cutoff=N       stop play-outs after N decisions and evaluate (Kardinal: the
               projection; Ivanhoe, Ninjas: Progress); 0 plays to the end;
               default 16 in Kardinal, 40 in Ivanhoe with five players, 10 in
               Ninjas with two players and eval=fit, else 0
soft=T         the evaluation's temperature: Kardinal's in points (default 3;
               5 with five players), Progress's in tokens or gems (default
               1); 0: hard ranks
hand=X         Ivanhoe, play-outs cut off: X tokens of credit for each card a
               seat holds (default 0.15 with five players, else 0)
eval=E         Kardinal: potential (the points if the game ended now, with part
               credit for chains and alliances in the making; the default with
               three and four players), projection (the points alone) or fit (five
               players: the final points a model fitted to heuristic games
               predicts, KardinalFit) or fit2 (five players: the same fitted to
               more features of the position, the majorities and the hands, in
               eighths of the game; the default with five players); Ninjas
               with two players: fit cuts play-outs off (cutoff, then on to the
               next turn's first decision) and scores them by the chance to win
               a model fitted to play-outs predicts (NinjasFit; default: off,
               play-outs to the end), potential or projection scores cut-off
               play-outs by Progress
turns=T        Kardinal, yes: play each play-out past its cutoff to the end of
               the turn in progress; no: stop at the cutoff (the default)
takes=T        Kardinal: heuristic (the heuristic chooses which cards to take
               after placing) or search (the default)
tempo=X        Kardinal, play-outs cut off: X points of credit for each seat
               with a turn still to come in the present round (default 0)
late=T         Kardinal: the evaluation's temperature at the game's end, soft
               its mean (from 2*soft-late at the start); default: soft throughout
ally=X         Kardinal, play-outs cut off: X points per advisor of credit for
               an alliance a seat leads on one side and is one advisor from
               leading on the other (default 0)
joker=X        Kardinal: a price of X (rewards are 0 to 1) on every placement
               paid with a joker, taken off the rewards through it (default 0)
endgame=N      Kardinal: play-outs from at most N cards before the end (after
               the interim scoring) play to the final scoring (default 0)
final=F        the answer: visits (the root's most visited option, the
               default) or value (the best mean reward among the options
               visited at least half as often)
defer=X        play the heuristic's move where its mean reward at the root is
               within X of the search's move's (default 0: never)
prior=N        N virtual wins for the heuristic's move at the root (default 0)
bias=N         N virtual wins for the heuristic's move at every node, added
               first (Kardinal: KardinalGreedy's move; default 10 in Ivanhoe
               with four players, else 0)
warm=N         each node the tree adds starts with N virtual visits at a fitted
               model's value: Ninjas with two players, NinjasFit's of the first
               turn's start its play-out reaches; Kardinal with five players and
               eval=fit or fit2, that evaluation's of the node's position
               (default 5 in Ninjas with two players, else 0: none)
model=M        how the other seats choose in the tree: ucb or rollout (as in
               play-outs: the search models them as that policy); default
               rollout in Ninjas with two players, else ucb
trees=K        K trees a decision, the iterations dealt among them in turn,
               the move from their root counts summed (default 1)
reuse=R        yes: start each decision from the last decision's subtree for the
               moves made since (Kardinal: the seat's own moves in a row;
               Ninjas: every move); no: start empty (the default)
infer=N        Ninjas: up to N tries an iteration to sample the last decision's
               state and replay the moves since, kept as likely as the opponent
               model makes the others' moves (default 4 in Ninjas with two
               players, else 0: sample the present)
drawn=D        Ninjas, inferring: yes replays across the cards the seat drew
               since its last decision (its pile stacked to deal them); no
               stops inferring at such a draw; default yes in Ninjas with two
               players, else no
belief=N       Ninjas, inferring: carry the other hands of up to N kept replays
               to the next decision, each try's past dealt one of them
               (default 0: none)
carry=C        Ninjas, with belief: yes keeps the belief through decisions with
               only the seat's own moves since, and falls back to fresh pasts
               where believed ones keep nothing (default no)
trust=E        Ninjas, inferring: the other seats' random share in the replays'
               model, E in (0, 1] (default: as in play-outs)
field=F        the model of the other seats: heuristic (the rollout policy),
               random (uniform, in play-outs and the tree) or auto (Ninjas: each
               seat uniform in part as its moves so far are likelier under a
               uniform player than under the heuristic, wholly once far likelier);
               default auto in Ninjas with four to six players, else heuristic`

// ParseSettings reads a bot's settings, comma-separated KEY=VALUE pairs, as given after
// the colon of a built-in bot's name (`ismcts:time=100ms`); SettingsHelp lists them.
// With neither iterations nor time the budget is 100 ms; with both, the first reached
// ends the search. The empty string is the defaults.
func ParseSettings(s string) (Config, error) {
	p := settings{cutoff: -1, eps: DefaultEpsilon}
	for _, kv := range strings.Split(s, ",") {
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return Config{}, fmt.Errorf("setting %q is not KEY=VALUE", kv)
		}
		known, err := p.set(k, v)
		if !known {
			return Config{}, fmt.Errorf("unknown setting %q (iterations, time, c, rollout, epsilon, others, cutoff, soft, hand, eval, turns, takes, tempo, late, ally, joker, endgame, final, defer, prior, bias, warm, model, trees, reuse, infer, drawn, belief, carry, trust, field)", k)
		}
		if err != nil {
			return Config{}, fmt.Errorf("setting %s=%s: %v", k, v, err)
		}
	}
	return p.config(), nil
}

// settings are the settings read so far: the Config's own, and those that make one
// of its fields only together (the rollout policy and its epsilon, the cutoff).
type settings struct {
	cfg     Config
	cutoff  int
	eps     float64
	rollout string
}

// set reads one setting; known is false for a key that is none.
func (p *settings) set(k, v string) (known bool, err error) {
	cfg := &p.cfg
	switch k {
	case "iterations":
		cfg.Iterations, err = strconv.Atoi(v)
		if err == nil && cfg.Iterations < 1 {
			err = fmt.Errorf("must be at least 1")
		}
	case "time":
		cfg.Time, err = time.ParseDuration(v)
		if err == nil && cfg.Time <= 0 {
			err = fmt.Errorf("must be positive")
		}
	case "c":
		cfg.C, err = positive(v)
	case "epsilon":
		p.eps, err = strconv.ParseFloat(v, 64)
		if err == nil && (p.eps < 0 || p.eps > 1) {
			err = fmt.Errorf("must be between 0 and 1")
		}
	case "others":
		cfg.Others, err = strconv.ParseFloat(v, 64)
		if err == nil && (cfg.Others <= 0 || cfg.Others > 1) {
			err = fmt.Errorf("must be above 0 and at most 1")
		}
	case "cutoff":
		p.cutoff, err = strconv.Atoi(v)
		if err == nil && p.cutoff < 0 {
			err = fmt.Errorf("must not be negative")
		}
	case "soft":
		cfg.Soft, err = strconv.ParseFloat(v, 64)
		switch {
		case err == nil && cfg.Soft < 0:
			err = fmt.Errorf("must not be negative")
		case cfg.Soft == 0:
			cfg.Soft = -1 // hard ranks
		}
	case "hand":
		cfg.Hand, err = credit(v, 10)
	case "eval":
		var e int
		e, err = oneOf(v, choice{"potential", 0}, choice{"projection", 1}, choice{"fit", 2}, choice{"fit2", 3})
		cfg.Plain, cfg.Fit = e == 1, -1
		if e >= 2 {
			cfg.Fit = e - 1
		}
	case "takes":
		cfg.Takes, err = onOff(v, "heuristic", "search")
	case "turns":
		cfg.Turns, err = onOff(v, "yes", "no")
	case "final":
		cfg.Final, err = onOff(v, "value", "visits")
	case "late":
		cfg.Late, err = positive(v)
	case "tempo":
		cfg.Tempo, err = credit(v, 50)
	case "ally":
		cfg.Ally, err = credit(v, 10)
	case "joker":
		cfg.Joker, err = credit(v, 1)
	case "endgame":
		cfg.Endgame, err = switchable(v, 100)
	case "defer":
		cfg.Defer, err = credit(v, 1)
	case "model":
		cfg.Model, err = onOff(v, "rollout", "ucb")
	case "trees":
		cfg.Trees, err = strconv.Atoi(v)
		if err == nil && (cfg.Trees < 1 || cfg.Trees > 64) {
			err = fmt.Errorf("must be between 1 and 64")
		}
	case "belief":
		cfg.Belief, err = switchable(v, 4096)
	case "trust":
		cfg.Trust, err = strconv.ParseFloat(v, 64)
		if err == nil && !(cfg.Trust > 0 && cfg.Trust <= 1) {
			err = fmt.Errorf("must be in (0, 1]")
		}
	case "carry":
		cfg.Carry, err = onOff(v, "yes", "no")
	case "drawn":
		cfg.Drawn, err = onOff(v, "yes", "no")
	case "reuse":
		cfg.Reuse, err = onOff(v, "yes", "no")
	case "field":
		cfg.Field, err = oneOf(v, choice{"heuristic", FieldHeuristic}, choice{"random", FieldRandom}, choice{"auto", FieldAuto})
	case "infer":
		cfg.Infer, err = switchable(v, 64)
	case "bias":
		cfg.Bias, err = switchable(v, 1_000_000)
	case "warm":
		cfg.Warm, err = switchable(v, 1000)
	case "prior":
		cfg.Prior, err = strconv.Atoi(v)
		if err == nil && cfg.Prior < 0 {
			err = fmt.Errorf("must not be negative")
		}
	case "rollout":
		p.rollout = v
		if v != "heuristic" && v != "random" && v != "placer" && v != "greedy" {
			err = fmt.Errorf("is heuristic, random, placer or greedy")
		}
	default:
		return false, nil
	}
	return true, err
}

// config is the Config the settings make: the rollout policy from rollout and
// epsilon, the cutoff (0: play to the end).
func (p *settings) config() Config {
	cfg, eps := p.cfg, p.eps
	switch {
	case p.rollout == "random":
		cfg.Rollout = Uniform
	case p.rollout == "placer":
		cfg.Rollout = KardinalPlacer
	case p.rollout == "greedy" && eps != DefaultEpsilon:
		cfg.Rollout = KardinalGreedyMix(eps)
	case p.rollout == "greedy":
		cfg.Rollout = KardinalGreedy
	case p.rollout == "heuristic" || eps != DefaultEpsilon:
		cfg.Policy, cfg.Epsilon = heuristic.New(), eps
		if eps == 0 {
			cfg.Epsilon = -1 // none
		}
	}
	switch {
	case p.cutoff == 0:
		cfg.Cutoff = -1 // play to the end, even where the default cuts off
	case p.cutoff > 0:
		cfg.Cutoff = p.cutoff
	}
	return cfg
}

// switchable reads a count of 0 to most whose 0 turns off what a table's default
// may turn on: 0 is read as -1, never.
func switchable(v string, most int) (int, error) {
	n, err := strconv.Atoi(v)
	switch {
	case err != nil:
		return 0, err
	case n < 0 || n > most:
		return 0, fmt.Errorf("must be between 0 and %d", most)
	case n == 0:
		return -1, nil
	}
	return n, nil
}

// credit reads a credit of 0 to most whose 0 turns off what a table's default may
// credit: 0 is read as -1, none.
func credit(v string, most float64) (float64, error) {
	x, err := strconv.ParseFloat(v, 64)
	switch {
	case err != nil:
		return 0, err
	case !(x >= 0 && x <= most):
		return 0, fmt.Errorf("must be between 0 and %g", most)
	case x == 0:
		return -1, nil
	}
	return x, nil
}

func positive(v string) (float64, error) {
	x, err := strconv.ParseFloat(v, 64)
	if err == nil && !(x > 0) {
		err = fmt.Errorf("must be positive")
	}
	return x, err
}

// either reads a setting of two values: true for yes, false for no.
func either(v, yes, no string) (bool, error) {
	if v != yes && v != no {
		return false, fmt.Errorf("is %s or %s", yes, no)
	}
	return v == yes, nil
}

// onOff reads a setting of two values that may turn off what a table's default turns
// on: 1 for yes, -1 for no.
func onOff(v, yes, no string) (int, error) {
	on, err := either(v, yes, no)
	if on {
		return 1, err
	}
	return -1, err
}

// choice is one named value of a setting.
type choice struct {
	name  string
	value int
}

// oneOf reads a setting of named values.
func oneOf(v string, choices ...choice) (int, error) {
	names := make([]string, len(choices))
	for i, c := range choices {
		if c.name == v {
			return c.value, nil
		}
		names[i] = c.name
	}
	return 0, fmt.Errorf("is %s or %s", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}
