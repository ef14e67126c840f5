package main

import (
	"context"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/internal/tracing"
)

// traces exports the ladder's block traces when the environment names an OTLP
// endpoint (OTEL_EXPORTER_OTLP_ENDPOINT: package tracing); without one it does nothing.
type traces struct{ stop func(context.Context) error }

// start runs before any command; only the commands that play a ladder's blocks
// (ladder run and serve, worker) trace. The service is "arena" and the command's name.
func (t *traces) start(c *cli.Context) error {
	if cmd := c.Args().First(); cmd != "ladder" && cmd != "worker" {
		return nil
	}
	stop, err := tracing.Setup(c.Context, "arena "+c.Args().First())
	if err != nil {
		return fmt.Errorf("traces: %w", err)
	}
	t.stop = stop
	return nil
}

// end sends the spans still held, waiting at most 5 s for a collector that is away.
func (t *traces) end(c *cli.Context) error {
	if t.stop == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := t.stop(ctx); err != nil {
		fmt.Fprintf(c.App.ErrWriter, "traces: not all sent to the OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT): %v\n", err)
	}
	return nil
}
