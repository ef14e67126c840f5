package main

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/ladder/store"
)

// ladderSandboxFlags are match's sandbox and limit flags, worded for the ladder,
// where a bot past its share of forfeits is suspended rather than disqualified.
func ladderSandboxFlags() []cli.Flag {
	flags := sandboxFlags()
	for i, f := range flags {
		if sf, ok := f.(*cli.Float64Flag); ok && sf.Name == "max-forfeit-share" {
			c := *sf
			c.Usage = "suspend a bot that times out or crashes in more than this share of its recorded games (at least 3 times; 0: never); arena bot reinstate NAME lifts it"
			flags[i] = &c
		}
	}
	return flags
}

// publishSuspensions registers arena_ladder_bot_suspended on m and sets it for every
// active bot: 1 while suspended, else 0.
func publishSuspensions(c *cli.Context, st store.Store, game string, m *metrics.Metrics) (*prometheus.GaugeVec, error) {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "arena_ladder_bot_suspended",
		Help: "1 while a ladder bot is suspended for timing out or crashing too often (arena bot reinstate lifts it), else 0."},
		[]string{"game", "bot"})
	if err := m.Registry.Register(g); err != nil {
		return nil, err
	}
	held, err := suspensions(c, st)
	if err != nil {
		return nil, err
	}
	bots, err := st.Bots(c.Context, false)
	if err != nil {
		return nil, err
	}
	for _, b := range bots {
		v := 0.0
		if _, ok := held[b.ID]; ok {
			v = 1
		}
		g.WithLabelValues(game, fmt.Sprintf("%s v%d", b.Name, b.Version)).Set(v)
	}
	return g, nil
}

// suspensions maps the bots suspended now to their suspension.
func suspensions(c *cli.Context, st store.Store) (map[int64]store.Suspension, error) {
	all, err := st.Suspensions(c.Context)
	if err != nil {
		return nil, err
	}
	out := map[int64]store.Suspension{}
	for _, x := range all {
		if x.Holds() {
			out[x.Bot] = x
		}
	}
	return out, nil
}

// botReinstateCommand lifts a suspension.
func botReinstateCommand() *cli.Command {
	return &cli.Command{
		Name:      "reinstate",
		Usage:     "lift a bot's suspension: it gets tables again, and its timeouts and crashes count afresh",
		ArgsUsage: "NAME",
		Flags:     []cli.Flag{dbFlag()},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("bot reinstate takes one bot name, got %d arguments", c.NArg())
			}
			st, err := openLadder(c)
			if err != nil {
				return err
			}
			defer st.Close()
			b, err := st.ReinstateBot(c.Context, c.Args().First())
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "reinstated %s v%d\n", b.Name, b.Version)
			return nil
		},
	}
}
