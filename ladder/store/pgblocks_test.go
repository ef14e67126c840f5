package store

import (
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Blocks queued in a batch under IDs reserved in their transaction are recorded as
// NewBlock records them: their bots in order, their rotations; an ID reserved and
// not used is a gap; a block without its reserved ID is refused.
func TestBlocksQueuedUnderReservedIDs(t *testing.T) {
	p, _ := openPostgres(t)
	bots := addBots(t, p, "x", "y", "z")
	tx, err := p.pool.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx)
	ids, err := ReserveBlockIDs(ctx, tx, 3)
	require.NoError(t, err)
	require.Len(t, ids, 3)
	assert.Less(t, ids[0], ids[1])
	b := &pgx.Batch{}
	first, err := QueueNewBlock(b, Block{ID: ids[0], Game: "ivanhoe", Seed: 7, Bots: []int64{bots[2].ID, bots[0].ID}, Rotations: 2})
	require.NoError(t, err)
	_, err = QueueNewBlock(b, Block{ID: ids[1], Game: "ivanhoe", Seed: 8, Bots: []int64{bots[1].ID, bots[2].ID, bots[0].ID}, Rotations: 3})
	require.NoError(t, err)
	_, err = QueueNewBlock(b, Block{Game: "ivanhoe", Bots: []int64{bots[1].ID}, Rotations: 1})
	require.Error(t, err, "no reserved ID")
	require.NoError(t, tx.SendBatch(ctx, b).Close())
	require.NoError(t, tx.Commit(ctx))
	got, err := p.Block(ctx, ids[0])
	require.NoError(t, err)
	assert.Equal(t, []int64{bots[2].ID, bots[0].ID}, got.Bots)
	assert.Equal(t, 2, got.Rotations)
	assert.Equal(t, uint64(7), got.Seed)
	assert.Equal(t, first.Created, got.Created)
	got, err = p.Block(ctx, ids[1])
	require.NoError(t, err)
	assert.Equal(t, []int64{bots[1].ID, bots[2].ID, bots[0].ID}, got.Bots)
	next, err := p.NewBlock(ctx, Block{Game: "ivanhoe", Bots: []int64{bots[1].ID}, Rotations: 1})
	require.NoError(t, err)
	assert.Greater(t, next.ID, ids[2], "the unused ID is a gap")
}
