package service

import (
	"context"
	"sync"

	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/tally"
)

// curvePoints is how many fits a bot's rating curve is drawn from.
const curvePoints = 24

// history is what the pages show of the ladder's recorded games without reading them
// on each request: the running aggregates (ladder/tally, caught up at every Refit and
// every bot page by reading the games recorded since) and every bot's rating curve,
// redrawn by Refit when the ladder has grown by a point's worth of games or a version
// without a curve has played.
type history struct {
	agg *tally.Ladder

	mu     sync.Mutex
	curves map[int64][]ladder.RatingPoint
	drawn  int // the games the curves were drawn from
}

func newHistory(st store.Store, game string) *history {
	return &history{agg: tally.New(st, game)}
}

// refresh catches the aggregates up, ranks the bots and redraws the curves if they
// are due.
func (h *history) refresh(ctx context.Context, st store.Store, game string) ([]ladder.Table, error) {
	if err := h.agg.Refresh(ctx); err != nil {
		return nil, err
	}
	tables, err := ladder.StandingsOf(h.agg, ladder.StandingsOptions{Retired: true})
	if err != nil {
		return nil, err
	}
	n := h.agg.Games(game)
	if !h.due(game, n) {
		return tables, nil
	}
	curves, err := ladder.Curves(ctx, st, game, n, curvePoints, ladder.StandingsOptions{})
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.curves, h.drawn = curves, n
	h.mu.Unlock()
	return tables, nil
}

// due reports whether the curves should be redrawn at n games.
func (h *history) due(game string, n int) bool {
	h.mu.Lock()
	curves, drawn := h.curves, h.drawn
	h.mu.Unlock()
	if curves == nil || n*curvePoints >= drawn*(curvePoints+1) {
		return true
	}
	missing := false
	h.agg.Read(func(v tally.View) {
		if g := v.Games[game]; g != nil {
			for id := range g.Bots {
				if curves[id] == nil {
					missing = true
				}
			}
		}
	})
	return missing
}

// report is a bot version's page data from the aggregates, caught up first with the
// games recorded since the last read (a read of those alone), and its curve; the
// error wraps store.ErrNotFound for a version the ladder does not have.
func (h *history) report(ctx context.Context, game string, bot int64) (ladder.BotReport, error) {
	if err := h.agg.Refresh(ctx); err != nil {
		return ladder.BotReport{}, err
	}
	h.mu.Lock()
	curve := h.curves[bot]
	h.mu.Unlock()
	return ladder.ReportFrom(h.agg, game, bot, curve)
}

// latestForfeits are the IDs of a version's latest forfeits (newest last) and how
// many it has in all.
func (h *history) latestForfeits(game string, bot int64) (ids []int64, all int) {
	h.agg.Read(func(v tally.View) {
		if g := v.Games[game]; g != nil && g.Bots[bot] != nil {
			b := g.Bots[bot]
			ids, all = append([]int64(nil), b.Forfeited...), b.Forfeits()
		}
	})
	return ids, all
}
