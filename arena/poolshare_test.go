package arena

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/protocol/bot"
	"github.com/arena-games/arena/protocol/sandbox"
)

// fakeProc is a bot.Process with a stderr the test writes, for the pool's bookkeeping
// alone (no match is played on it).
type fakeProc struct {
	mu      sync.Mutex
	stderr  strings.Builder
	exited  bool
	stopped int
}

func (f *fakeProc) write(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stderr.WriteString(s)
}

func (f *fakeProc) StartMatch(context.Context, bot.Start, time.Duration) (bot.Seat, error) {
	return nil, nil
}
func (f *fakeProc) EndMatch(bot.End) error { return nil }
func (f *fakeProc) Pid() int               { return 0 }
func (f *fakeProc) Exited() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.exited
}
func (f *fakeProc) Done() <-chan struct{}     { return nil }
func (f *fakeProc) Stopped() error            { return nil }
func (f *fakeProc) Sandbox() []sandbox.Status { return nil }
func (f *fakeProc) Stderr() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stderr.String()
}
func (f *fakeProc) StderrSince(mark int64) (string, int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.stderr.String()
	return s[min(max(mark, 0), int64(len(s))):], int64(len(s))
}
func (f *fakeProc) Stop(context.Context, time.Duration) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.exited = true
	f.stopped++
	return true
}

// TestAPoolSharesAProcessBetweenTaggedRunsAtOnce: with Share 2, a process serves two
// runs at once only when both have tags, different ones, and seeds it never played
// under; a third run gets none. Each run's stderr is what the process wrote while it
// held it, the parts written while the other held it too between marker lines. A
// process whose seat forfeited in one run serves on in the other, takes no new run,
// and stops when the other hands it back.
func TestAPoolSharesAProcessBetweenTaggedRunsAtOnce(t *testing.T) {
	ctx := context.Background()
	pool := NewPool(PoolConfig{Share: 2})
	slot := poolSlot{Keep{Bot: "b", Version: 1}, 0}
	proc := &fakeProc{}
	proc.write("before\n")
	a := pool.adopt(proc, slot, 1, "block-1", func() {})
	proc.write("a alone\n")

	assert.Nil(t, pool.lend(slot, 2, ""), "an untagged run never shares")
	assert.Nil(t, pool.lend(slot, 2, "block-1"), "nor one with the same tag")
	assert.Nil(t, pool.lend(slot, 1, "block-2"), "nor one with a seed it played under")
	b := pool.lend(slot, 2, "block-2")
	require.NotNil(t, b)
	assert.Same(t, a.k, b.k, "one process serves both runs")
	assert.Nil(t, pool.lend(slot, 3, "block-3"), "Share bounds the runs at once")
	proc.write("both\n")
	assert.Equal(t, "before\na alone\n--- arena: from here this process also played a game of another block at once; lines until the next marker may be that game's ---\nboth\n",
		a.Stderr(), "while run a holds it")
	b.spoil() // its seat forfeited in run b
	b.Stop(ctx, time.Second)
	proc.write("a alone again\n")
	assert.Zero(t, proc.stopped, "run a still plays in it")
	assert.Nil(t, pool.lend(slot, 4, "block-4"), "a spoiled process takes no new run")
	a.Stop(ctx, time.Second)
	assert.Equal(t, 1, proc.stopped, "stopped once the last run handed it back")
	assert.Equal(t, "before\na alone\n--- arena: from here this process also played a game of another block at once; lines until the next marker may be that game's ---\nboth\n--- arena: from here this process played this game alone ---\na alone again\n",
		a.Stderr())
	assert.Equal(t, sharedFrom+"\nboth\n", b.Stderr(), "run b's part was all shared")
	assert.Zero(t, pool.Idle())
}

// TestAPoolLendsTheBusiestProcess: a run joins a process already serving another run
// before an idle one, so that runs side by side share processes; an untagged run, or
// a Share of 1, gets processes of its own.
func TestAPoolLendsTheBusiestProcess(t *testing.T) {
	ctx := context.Background()
	pool := NewPool(PoolConfig{Share: 2})
	slot := poolSlot{Keep{Bot: "b", Version: 1}, 0}
	idle := pool.adopt(&fakeProc{}, slot, 1, "block-1", func() {})
	idle.Stop(ctx, time.Second)
	busy := pool.adopt(&fakeProc{}, slot, 2, "block-2", func() {})
	l := pool.lend(slot, 3, "block-3")
	require.NotNil(t, l)
	assert.Same(t, busy.k, l.k)
	other := pool.lend(slot, 4, "")
	require.NotNil(t, other)
	assert.Same(t, idle.k, other.k, "an untagged run takes the idle one")
	for _, x := range []*lease{busy, l, other} {
		x.Stop(ctx, time.Second)
	}
	assert.Equal(t, 2, pool.Idle())

	single := NewPool(PoolConfig{})
	one := single.adopt(&fakeProc{}, slot, 1, "block-1", func() {})
	assert.Nil(t, single.lend(slot, 2, "block-2"), "Share 1: one run at a time")
	one.Stop(ctx, time.Second)
	pool.Close(ctx, time.Second)
	single.Close(ctx, time.Second)
}
