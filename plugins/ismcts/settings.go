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
cutoff=N       stop play-outs after N decisions and evaluate (Kardinal: the
               projection; Ivanhoe, Ninjas: Progress); 0 plays to the end;
               default 16 in Kardinal, 40 in Ivanhoe with five players, else 0
soft=T         the evaluation's temperature: Kardinal's in points (default 3),
               Progress's in tokens or gems (default 1); 0: hard ranks
eval=E         Kardinal: potential (default: the points if the game ended now,
               with part credit for chains and alliances in the making) or
               projection (the points alone)
prior=N        N virtual wins for the heuristic's move at the root (default 0)
model=M        how the other seats choose in the tree: ucb (default) or
               rollout (as in play-outs: the search models them as that policy)`

// ParseSettings reads a bot's settings, comma-separated KEY=VALUE pairs, as given after
// the colon of a built-in bot's name (`ismcts:time=100ms`); SettingsHelp lists them.
// With neither iterations nor time the budget is 100 ms; with both, the first reached
// ends the search. The empty string is the defaults.
func ParseSettings(s string) (Config, error) {
	var cfg Config
	cutoff := -1
	eps, rollout := DefaultEpsilon, ""
	for _, kv := range strings.Split(s, ",") {
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return Config{}, fmt.Errorf("setting %q is not KEY=VALUE", kv)
		}
		var err error
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
			eps, err = strconv.ParseFloat(v, 64)
			if err == nil && (eps < 0 || eps > 1) {
				err = fmt.Errorf("must be between 0 and 1")
			}
		case "cutoff":
			cutoff, err = strconv.Atoi(v)
			if err == nil && cutoff < 0 {
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
		case "eval":
			cfg.Plain, err = either(v, "projection", "potential")
		case "model":
			cfg.Model, err = either(v, "rollout", "ucb")
		case "prior":
			cfg.Prior, err = strconv.Atoi(v)
			if err == nil && cfg.Prior < 0 {
				err = fmt.Errorf("must not be negative")
			}
		case "rollout":
			rollout = v
			if v != "heuristic" && v != "random" && v != "placer" && v != "greedy" {
				err = fmt.Errorf("is heuristic, random, placer or greedy")
			}
		default:
			return Config{}, fmt.Errorf("unknown setting %q (iterations, time, c, rollout, epsilon, cutoff, soft, eval, prior, model)", k)
		}
		if err != nil {
			return Config{}, fmt.Errorf("setting %s=%s: %v", k, v, err)
		}
	}
	switch {
	case rollout == "random":
		cfg.Rollout = Uniform
	case rollout == "placer":
		cfg.Rollout = KardinalPlacer
	case rollout == "greedy" && eps != DefaultEpsilon:
		cfg.Rollout = KardinalGreedyMix(eps)
	case rollout == "greedy":
		cfg.Rollout = KardinalGreedy
	case rollout == "heuristic" || eps != DefaultEpsilon:
		cfg.Policy, cfg.Epsilon = heuristic.New(), eps
		if eps == 0 {
			cfg.Epsilon = -1 // none
		}
	}
	switch {
	case cutoff == 0:
		cfg.Cutoff = -1 // play to the end, even where the default cuts off
	case cutoff > 0:
		cfg.Cutoff = cutoff
	}
	return cfg, nil
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
