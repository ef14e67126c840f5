package main

import (
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/internal/logging"
)

// logFlags are the flags of the command's one logger.
func logFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "log-level", Value: "info", Usage: "log level: " + strings.Join(logging.Levels(), ", ")},
		&cli.StringFlag{Name: "log-format", Value: "text", Usage: "log format: " + strings.Join(logging.Formats(), ", ") + " (one object per line)"},
	}
}

// commandLog is the command's logger, kept in the app's metadata so that every part
// of the command writes through the same one, and main its last error.
type commandLog struct {
	hclog.Logger
	json bool
}

const logKey = "logger"

// commandLogger is the logger of the running command, built on first use from its
// --log-level and --log-format (text at info for a command without them), writing to
// the app's ErrWriter: logs are never a command's output.
func commandLogger(c *cli.Context) (hclog.Logger, error) {
	if l, ok := c.App.Metadata[logKey].(*commandLog); ok {
		return l, nil
	}
	level, format := c.String("log-level"), c.String("log-format") // "" without the flags
	if level == "" {
		level = "info"
	}
	if format == "" {
		format = "text"
	}
	l, err := logging.New(c.App.ErrWriter, "arena", level, format)
	if err != nil {
		return nil, err
	}
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	cl := &commandLog{Logger: l, json: format == "json"}
	c.App.Metadata[logKey] = cl
	return cl, nil
}

// mustLogger is commandLogger after the command checked it (its Action's first
// step): a logger that could not be built is a null one.
func mustLogger(c *cli.Context) hclog.Logger {
	l, err := commandLogger(c)
	if err != nil {
		return hclog.NewNullLogger()
	}
	return l
}
