package queue

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
)

// The coordinator's log says when a worker joins, stops, or goes silent (a machine
// lost says nothing itself), once each, at its next look at the workers.
func TestCoordinatorLogsAWorkerGone(t *testing.T) {
	st, pool, _ := ladderWithQueue(t)
	ctx := context.Background()
	var out bytes.Buffer
	co, err := testCoordinator(pool, st, 2, 2)
	require.NoError(t, err)
	co.cfg.Log = hclog.New(&hclog.LoggerOptions{Output: &out, Level: hclog.Info})
	look := func() string {
		out.Reset()
		co.fleet.last = time.Time{} // the test's looks come sooner than HeartbeatEvery
		co.watchFleet(ctx)
		return out.String()
	}

	a, err := st.RegisterWorker(ctx, store.Worker{Host: "m1", PID: 11, Version: "dev", Engine: Version(), Slots: 2})
	require.NoError(t, err)
	b, err := st.RegisterWorker(ctx, store.Worker{Host: "m2", PID: 22, Version: "dev", Engine: Version(), Slots: 2})
	require.NoError(t, err)
	got := look()
	assert.Contains(t, got, fmt.Sprintf("[INFO]  worker joined: worker=%d host=m1 pid=11", a.ID))
	assert.Contains(t, got, fmt.Sprintf("[INFO]  worker joined: worker=%d host=m2 pid=22", b.ID))
	assert.Empty(t, look(), "nothing changed, nothing said")

	_, err = pool.Exec(ctx, `UPDATE workers SET heartbeat = now() - interval '5 minutes' WHERE id = $1`, a.ID)
	require.NoError(t, err)
	require.NoError(t, st.StopWorker(ctx, b.ID))
	got = look()
	assert.Regexp(t, fmt.Sprintf(`\[WARN\]  worker gone: no heartbeat within the alive window; .*: worker=%d host=m1 pid=11 .*heartbeat_age=5m0s window=30s`, a.ID), got)
	assert.Contains(t, got, fmt.Sprintf("[INFO]  worker stopped: worker=%d host=m2", b.ID))
	assert.Empty(t, look(), "said once")
}
