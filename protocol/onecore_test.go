package protocol

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/protocol/botpb"
)

// A bot served by the SDK runs on one P, unless its author chose another number,
// before Serve or in the environment: that choice is kept.
func TestTheSDKServesOnOneCoreUnlessTheBotChoseOtherwise(t *testing.T) {
	atProgramStart(t)
	oneCore()
	assert.Equal(t, 1, runtime.GOMAXPROCS(0), "the program's default")

	runtime.GOMAXPROCS(startProcs + 3)
	oneCore()
	assert.Equal(t, startProcs+3, runtime.GOMAXPROCS(0), "set by the bot before Serve")

	runtime.GOMAXPROCS(startProcs)
	t.Setenv("GOMAXPROCS", "4")
	oneCore()
	assert.Equal(t, startProcs, runtime.GOMAXPROCS(0), "set in the environment")
}

// The served bot goes to one core as its first match starts, not before (its start
// keeps every core), and its policy for that match may still choose otherwise.
func TestTheBotGoesToOneCoreAtItsFirstMatch(t *testing.T) {
	atProgramStart(t)
	var atPolicy int
	srv := &oneCoreServer{BotServer: NewBotServer(func(Match) engine.Policy {
		atPolicy = runtime.GOMAXPROCS(0)
		return lastOption{}
	})}
	assert.Equal(t, startProcs, runtime.GOMAXPROCS(0), "before any match")
	_, err := srv.StartMatch(context.Background(), &botpb.StartRequest{MatchId: "m", Game: "ivanhoe", Players: 2})
	require.NoError(t, err)
	assert.Equal(t, 1, atPolicy, "when the policy is made")
}

// atProgramStart puts the test's process back where a bot program starts: its
// default GOMAXPROCS and no GOMAXPROCS in the environment. Both come back after t.
func atProgramStart(t *testing.T) {
	was := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(was) })
	if v, ok := os.LookupEnv("GOMAXPROCS"); ok {
		t.Cleanup(func() { os.Setenv("GOMAXPROCS", v) })
		os.Unsetenv("GOMAXPROCS")
	}
	runtime.GOMAXPROCS(startProcs)
}
