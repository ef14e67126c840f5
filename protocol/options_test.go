package protocol

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/protocol/botpb"
)

// A Go SDK bot learns the match's options at its start and gets its views decoded on
// the match's board.
func TestTheSDKDecodesViewsOnTheMatchBoard(t *testing.T) {
	island, err := os.ReadFile("../engine/kardinal/testdata/island.txt")
	require.NoError(t, err)
	opts := engine.Options{kardinal.OptionBoard: string(island)}
	g, err := engine.NewWith(kardinal.Name, 9, 3, opts)
	require.NoError(t, err)
	pv, err := encodeKardinal(g.View(g.ToMove()))
	require.NoError(t, err)

	var seen *kardinal.View
	var match Match
	srv := NewBotServer(func(m Match) engine.Policy {
		match = m
		return engine.PolicyFunc(func(v engine.View, _ []engine.Event, _ []engine.Option) int {
			seen = v.(*kardinal.View)
			return 0
		})
	}).(*botServer)
	start := &botpb.StartRequest{MatchId: "m", Game: kardinal.Name, Seat: int32(g.ToMove()), Players: 3, Options: opts}
	_, err = srv.StartMatch(context.Background(), start)
	require.NoError(t, err)
	assert.Equal(t, opts, match.Options, "the policy hears the options")
	st, ok := srv.matches.Load(matchKey{"m", start.Seat})
	require.True(t, ok)
	_, err = st.(*seatState).decide(&botpb.DecideRequest{MatchId: "m", Seat: start.Seat, View: pv, Options: AppendOptions(nil, g.Options())})
	require.NoError(t, err)
	require.NotNil(t, seen)
	assert.Equal(t, g.View(g.ToMove()).(*kardinal.View).Board.Roads(42-1), seen.Board.Roads(42-1), "the island board's road 42-34")

	// Started without the option, the bot knows only the default board and says so.
	start.MatchId, start.Options = "n", nil
	_, err = srv.StartMatch(context.Background(), start)
	require.NoError(t, err)
	st, _ = srv.matches.Load(matchKey{"n", start.Seat})
	_, err = st.(*seatState).decide(&botpb.DecideRequest{MatchId: "n", Seat: start.Seat, View: pv})
	assert.ErrorContains(t, err, `board "island (test board: England across the sea)", but the match started on "default board (reconstruction)"`)

	// A board option that does not load refuses the match.
	start.MatchId, start.Options = "o", map[string]string{kardinal.OptionBoard: "not a board"}
	_, err = srv.StartMatch(context.Background(), start)
	assert.Equal(t, codes.InvalidArgument, status.Code(err))
	assert.ErrorContains(t, err, "board line 1")
}
