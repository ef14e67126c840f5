package main

import (
	"github.com/urfave/cli/v2"

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
	return botNameCommand("reinstate", "lift a bot's suspension: it gets tables again, and its timeouts and crashes count afresh",
		"reinstated", store.Store.ReinstateBot)
}
