package arena

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/enginetest"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
)

// islandOptions plays Kardinal on the test board where England is an island.
func islandOptions(t *testing.T) engine.Options {
	text, err := os.ReadFile("../engine/kardinal/testdata/island.txt")
	require.NoError(t, err)
	return engine.Options{kardinal.OptionBoard: string(text)}
}

func TestAGameWithOptionsIsPlayedRecordedAndReplayedWithThem(t *testing.T) {
	opts := islandOptions(t)
	cfg := Config{Game: kardinal.Name, Launcher: protocol.Launcher{}, Options: opts, Games: 3, Seed: 5, Parallel: 2, Clock: fastClock, KeepMatches: true,
		ReplayDir: filepath.Join(testDir(t), "replays"), Sandbox: testSandbox(t, sandbox.Auto),
		Entrants: []Entrant{testEntrant(t, "a", "random"), testEntrant(t, "b", "random"), testEntrant(t, "c", "random")}}
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	requireNoLeftovers(t)
	require.Len(t, rep.Matches, 3)
	for _, m := range rep.Matches {
		for s, seat := range m.Seats {
			// A Go SDK bot decodes every view; on the wrong board it would fail (protocol).
			require.Equal(t, OK, seat.Ending, "%s seat %d: %s", m.ID, s, seat.Detail)
		}
		r := readReplay(t, m.Replay)
		assert.Equal(t, opts, r.Header.Options, "the header records the options in full")
		g, err := Resimulate(r, nil)
		require.NoError(t, err, m.ID)
		assert.Equal(t, m.Hash, hashString(g.Hash()))
		assert.Equal(t, "island (test board: England across the sea)", g.View(0).(*kardinal.View).Board.Name())

		// The same decisions on the default board are another game.
		r.Header.Options = nil
		_, err = Resimulate(r, nil)
		assert.Error(t, err, "%s re-simulated on the default board", m.ID)
	}
}

func TestBadOptionsAreAConfigurationError(t *testing.T) {
	good := testEntrant(t, "good", "first")
	for _, c := range []struct {
		name, game string
		opts       engine.Options
		want       string
	}{
		{"an option the game does not take", enginetest.Name, engine.Options{"board": "x"}, `takes no option "board"`},
		{"a board that does not load", kardinal.Name, engine.Options{kardinal.OptionBoard: "kardinal-board 1\n"}, "no spaces"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(context.Background(), Config{Game: c.game, Launcher: protocol.Launcher{}, Options: c.opts, Entrants: []Entrant{good, good, good}, Games: 1,
				Clock: fastClock, Sandbox: testSandbox(t, sandbox.Auto)})
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrConfig))
			assert.Contains(t, err.Error(), c.want)
			requireNoLeftovers(t)
		})
	}
}
