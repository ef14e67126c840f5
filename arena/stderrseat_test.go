package arena

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With StderrPerSeat, one deal's run keeps what each seat's process wrote in a file
// of that seat: each file holds the one game the entrant played there, and no other.
// With ReplaysInMemory (`ladder run`) the folder, not made for the replays, is made
// for the stderr files.
func TestStderrPerSeatKeepsEachGameApart(t *testing.T) {
	for _, inMemory := range []bool{false, true} {
		t.Run(fmt.Sprintf("replays in memory %t", inMemory), func(t *testing.T) {
			cfg := testConfig(t, 3, testEntrant(t, "talker", "seats"), testEntrant(t, "a", "first"), testEntrant(t, "b", "first"))
			cfg.StderrPerSeat, cfg.ReplaysInMemory = true, inMemory
			cfg.ReplayDir = filepath.Join(cfg.ReplayDir, "block-1") // not there yet
			rep, err := Run(context.Background(), cfg)
			require.NoError(t, err)
			require.Len(t, rep.Matches, 3, "one deal in three rotations")
			for seat := range 3 {
				kept, err := os.ReadFile(filepath.Join(cfg.ReplayDir, fmt.Sprintf("stderr-0-talker-seat-%d.log", seat)))
				require.NoError(t, err)
				assert.Regexp(t, regexp.MustCompile(fmt.Sprintf(`^test bot: playing seat %d of \S+\n$`, seat)), string(kept))
			}
			_, err = os.Stat(filepath.Join(cfg.ReplayDir, "stderr-0-talker.log"))
			assert.ErrorIs(t, err, os.ErrNotExist, "no file of every seat at once")
			requireNoLeftovers(t)
		})
	}
}
