package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/protocol/sandbox"
	"github.com/arena-games/arena/protocol/sandbox/companion"
)

// sandboxFlags are the confinement flags of every command that runs bots.
func sandboxFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "sandbox", Value: "auto", Usage: "confinement of bot processes: auto (the strongest this machine supports), none, basic (no privilege needed), strict (namespaces and cgroups; fails where missing)"},
		&cli.Float64Flag{Name: "max-forfeit-share", Value: arena.DefaultMaxForfeitShare, Usage: "disqualify a bot that times out or crashes in more than this share of its matches (at least 3 forfeits; 0: never)"},
		&cli.DurationFlag{Name: "match-time", DefaultText: "every seat's bank and startup plus a minute", Usage: "wall-clock cap of one match on top of the decision clocks"},
		&cli.Int64Flag{Name: "bot-memory", Value: sandbox.DefaultLimits().Memory >> 20, Usage: "memory of one bot process in MiB (cgroup; else an address-space limit 2 GiB above)"},
		&cli.IntFlag{Name: "bot-processes", Value: sandbox.DefaultLimits().Processes, Usage: "processes and threads of one bot process (pids cgroup, or RLIMIT_NPROC when not root)"},
		&cli.Int64Flag{Name: "bot-disk", Value: sandbox.DefaultLimits().Disk >> 20, Usage: "what one bot process may keep in its scratch directory, all files together, in MiB (a tmpfs of that size when root, else the arena measures the directory and stops a bot past it)"},
		botReadFlag(),
	}
}

// botReadFlag gives bots a folder to read: a Python virtual environment, say, which
// a bot's first line names as its interpreter.
func botReadFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "bot-read", Usage: "a folder (or file) every bot may read and run beside the system's, such as a language runtime outside /usr or a Python virtual environment (repeat for more; see docs/sandbox.md)"}
}

// maxBotDisk is the largest --bot-disk, 1 TiB: far past any bot's need, and its bytes
// fit an int64.
const maxBotDisk = 1 << 20

// sandboxConfig reads the sandbox flags; the helper is arena-sandbox beside the arena,
// or the arena itself (package companion).
func sandboxConfig(c *cli.Context) (sandbox.Config, float64, error) {
	level, err := sandbox.ParseLevel(c.String("sandbox"))
	if err != nil {
		return sandbox.Config{}, 0, err
	}
	if level != sandbox.None {
		// The machine's probe (once per process) runs while the helper is checked.
		go sandbox.Detect()
	}
	// The level none runs no helper: it is not looked for (checking one beside the
	// arena runs it, a few milliseconds of every start).
	helper := companion.Found{}
	if level != sandbox.None {
		if helper, err = companion.Self(); err != nil {
			return sandbox.Config{}, 0, err
		}
	}
	share := c.Float64("max-forfeit-share")
	switch {
	case share < 0 || share > 1:
		return sandbox.Config{}, 0, fmt.Errorf("--max-forfeit-share %g is not a share between 0 and 1", share)
	case share == 0:
		share = -1 // the flag's 0 is never; the config's 0 is the default
	}
	disk := c.Int64("bot-disk")
	if c.IsSet("bot-disk") && (disk < 1 || disk > maxBotDisk) {
		return sandbox.Config{}, 0, fmt.Errorf("--bot-disk %d is not a size in MiB between 1 and %d", disk, maxBotDisk)
	}
	read := c.StringSlice("bot-read")
	if err := checkReadable(read); err != nil {
		return sandbox.Config{}, 0, err
	}
	lim := sandbox.Limits{Memory: c.Int64("bot-memory") << 20, Processes: c.Int("bot-processes"), Disk: disk << 20}
	return sandbox.Config{Level: level, Helper: helper.Cmd, Limits: lim, Read: read}, share, nil
}

// sandboxExecCommand is the sandbox's helper: the arena starts every bot through it,
// and it limits itself, then execs the bot (see package sandbox).
func sandboxExecCommand() *cli.Command {
	return &cli.Command{
		Name:            sandbox.HelperArg,
		Usage:           "apply the sandbox to itself and exec a bot (started by the arena, not by hand)",
		ArgsUsage:       "-- BOT [ARGS...]",
		Hidden:          true,
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) > 0 && args[0] == "--" {
				args = args[1:]
			}
			return sandbox.Exec(args)
		},
	}
}

// ladderSandbox is the sandbox of a candidate's smoke test in `bot add`: the strongest
// level this machine supports, with the ladder's data directory hidden and the
// folders of --bot-read given to read.
func ladderSandbox(dataDir string, read []string) (sandbox.Config, error) {
	helper, err := companion.Self()
	if err != nil {
		return sandbox.Config{}, err
	}
	if err := checkReadable(read); err != nil {
		return sandbox.Config{}, err
	}
	return ladder.Sandbox(sandbox.Config{Level: sandbox.Auto, Helper: helper.Cmd, Read: read}, dataDir), nil
}

// checkReadable refuses a --bot-read path that is not there, in one line.
func checkReadable(read []string) error {
	for _, r := range read {
		if _, err := os.Stat(r); err != nil {
			return fmt.Errorf("--bot-read: %w", err)
		}
	}
	return nil
}
