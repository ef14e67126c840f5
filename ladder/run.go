package ladder

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/ladder/rating"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/ladder/tally"
)

// Player plays blocks: every rotation of b not in b.Done, with bots[i] the entrant
// b.Bots[i], calling record with each game as soon as it ends (from one goroutine at a
// time per call). It returns when the block is played, or with ctx's error when
// cancelled, or with the error that stopped it.
type Player interface {
	PlayBlock(ctx context.Context, b store.Block, bots []store.Bot, record func(store.Match) error) error
}

// RunConfig is one `ladder run`.
type RunConfig struct {
	Store  store.Store
	Player Player
	// Game is what the ladder is kept by: a game's name, or for a game played with
	// options its engine.Variant ("kardinal@board-3f2a9c1e04b7"), so that games on
	// another board never mix with games on the default one. The Player plays it.
	Game string
	// Players is the number of seats per table; 0 takes as many active bots as the
	// game seats.
	Players int
	// Parallel is the number of blocks played at once (default 1).
	Parallel int
	// Matches stops the run once this many games are recorded or under way, rounded
	// up to whole blocks (0: no limit).
	Matches int
	// Duration stops starting blocks after this long (0: no limit).
	Duration time.Duration
	// Seed seeds the choice of tables (each deal comes from fresh entropy).
	Seed uint64
	// MaxForfeitShare suspends a bot that timed out or crashed in more than this
	// share of its recorded games (at least three times; counted across blocks and
	// runs, since a reinstatement): it gets no new tables and the run goes on.
	// 0 is arena.DefaultMaxForfeitShare; negative never suspends.
	MaxForfeitShare float64
	// OnSuspend, when set, hears of every bot this run suspends.
	OnSuspend func(b store.Bot, reason string)
	// Until, when closed, stops the run from starting more blocks; it returns once
	// those under way are played (a long-running service ends a round this way when
	// its bots change, without dropping a game).
	Until <-chan struct{}
	// OnGame, when set, hears of every recorded game (one call at a time), with the
	// live Elo of its bots after it.
	OnGame func(m store.Match, bots map[int64]store.Bot, live map[int64]float64)
}

// RunSummary counts what a run did.
type RunSummary struct {
	// Recorded is the number of games this run recorded.
	Recorded int
	// Resumed is the number of blocks left incomplete by an earlier run that this
	// run took up again.
	Resumed int
	// Blocks is the number of blocks this run started.
	Blocks int
	// Skipped counts games a player reported that were already recorded.
	Skipped int
}

// ErrTooFewBots is wrapped by Run's error when there are fewer active bots than a
// table needs.
var ErrTooFewBots = errors.New("too few active bots")

// Run plays the ladder until the limits of cfg are reached or ctx is cancelled; then it
// waits for the blocks under way (which a cancelled ctx stops), and returns what it
// did. Blocks an earlier run left incomplete are finished first, unless one of their
// bots has since been retired.
func Run(ctx context.Context, cfg RunConfig) (RunSummary, error) {
	if cfg.Player == nil {
		return RunSummary{}, errors.New("a ladder run needs a player")
	}
	r, err := newRun(ctx, cfg)
	if err != nil {
		return RunSummary{}, err
	}
	return r.run(ctx)
}

// Scheduler chooses tables as Run does, for a coordinator that has the blocks played
// elsewhere (by workers of a queue): it reads the ladder as Run starts (bots,
// suspensions, every recorded game for the live ratings; it records the suspensions
// those games call for), counts the games of the open blocks it is given as under way,
// and then records one new block at a time. It hears of games recorded afterwards
// when Update reads them (Run's tables see every game because Run records them
// itself).
type Scheduler struct{ r *runner }

// NewScheduler reads the ladder of cfg (Store, Game, Players, Seed, MaxForfeitShare,
// OnSuspend; the rest is unused) with open, the blocks still missing games, under way.
// Its error wraps ErrTooFewBots when no table can be seated.
func NewScheduler(ctx context.Context, cfg RunConfig, open []store.Block) (*Scheduler, error) {
	r, err := newRun(ctx, cfg)
	if r == nil {
		return nil, err
	}
	for _, b := range open {
		if r.playable(b) {
			r.plan(b)
		}
	}
	return &Scheduler{r}, err
}

// NewBlock chooses a table and records its block, as Run does before playing it.
func (s *Scheduler) NewBlock(ctx context.Context) (store.Block, error) { return s.r.newBlock(ctx) }

// Playable reports whether every bot of b still plays (none retired or suspended).
func (s *Scheduler) Playable(b store.Block) bool {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	return s.r.playable(b)
}

type runner struct {
	cfg     RunConfig
	spec    engine.Spec
	players int
	bots    map[int64]store.Bot
	active  []int64
	rng     *rand.Rand

	mu       sync.Mutex
	games    map[int64]int // recorded before the run, and planned by it
	recorded map[int64]int // recorded, as learned
	cursor   *tally.Cursor
	liveElo  *rating.Live
	liveIdx  map[int64]int
	planned  int
	forfeits *forfeitCount
	late     []int64 // past their share in the recorded games, not yet suspended
	// own holds the games this runner recorded and learned itself, until a catch-up
	// (Rounds) meets them in the store; nil when it keeps no such account.
	own      map[int64]bool
	summary  RunSummary
	firstErr error
}

func newRun(ctx context.Context, cfg RunConfig) (*runner, error) {
	spec, err := engine.Lookup(engine.VariantGame(cfg.Game))
	if err != nil {
		return nil, err
	}
	if cfg.Store == nil {
		return nil, errors.New("a ladder run needs a store")
	}
	if cfg.Parallel < 1 {
		cfg.Parallel = 1
	}
	if cfg.MaxForfeitShare == 0 {
		cfg.MaxForfeitShare = arena.DefaultMaxForfeitShare
	}
	if cfg.Matches < 0 || cfg.Duration < 0 {
		return nil, fmt.Errorf("negative limits: %d matches, %v", cfg.Matches, cfg.Duration)
	}
	all, err := cfg.Store.Bots(ctx, true)
	if err != nil {
		return nil, err
	}
	sus, err := cfg.Store.Suspensions(ctx)
	if err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, spec: spec, bots: map[int64]store.Bot{}, games: map[int64]int{}, recorded: map[int64]int{},
		liveIdx: map[int64]int{}, liveElo: rating.NewLive(0, rating.DefaultK), cursor: tally.NewCursor(cfg.Store, cfg.Game),
		rng: rand.New(rand.NewPCG(cfg.Seed, 0x6c61646465720a)), forfeits: newForfeitCount(cfg.MaxForfeitShare, sus)}
	r.setBots(all)
	if err := r.setPlayers(); err != nil {
		return nil, err
	}
	// The live Elo the tables are matched by continues from every recorded game.
	err = r.cursor.Next(ctx, func(m store.Match) error {
		r.learn(m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// A run killed between recording a game and the suspension it called for, or
	// a smaller share than the last run's, leaves suspensions to record.
	if err := r.suspendLate(ctx); err != nil {
		return nil, err
	}
	return r, r.enoughBots()
}

// suspendLate records the suspensions the games learned call for; the caller holds mu
// or owns r.
func (r *runner) suspendLate(ctx context.Context) error {
	var late []int64
	for _, id := range r.late {
		if r.bots[id].Active() {
			late = append(late, id)
		}
	}
	r.late = nil
	return r.suspendAll(ctx, late)
}

// learn counts a recorded game into the live ratings; the caller holds mu or owns r.
func (r *runner) learn(m store.Match) {
	seats, places := make([]int, len(m.Seats)), make([]int, len(m.Seats))
	for i, s := range m.Seats {
		seats[i], places[i] = r.liveIdx[s.Bot], s.Place
	}
	_ = r.liveElo.Update(seats, places) // recorded games are valid by construction
	for _, s := range m.Seats {
		r.games[s.Bot]++
		r.recorded[s.Bot]++
	}
	r.late = append(r.late, r.forfeits.add(m)...)
}

// setBots takes the ladder's bot versions as they are: a version new to the runner
// gets a live Elo of 0, and the active ones are those neither retired nor suspended;
// the caller holds mu or owns r.
func (r *runner) setBots(all []store.Bot) {
	r.active = r.active[:0]
	for _, b := range all {
		r.bots[b.ID] = b
		if _, ok := r.liveIdx[b.ID]; !ok {
			r.liveIdx[b.ID] = len(r.liveElo.Elo)
			r.liveElo.Grow(len(r.liveElo.Elo) + 1)
		}
		if b.Active() && !r.forfeits.suspended[b.ID] {
			r.active = append(r.active, b.ID)
		}
	}
}

// setPlayers sets the seats of a table: the configured number, or as many active
// bots as the game seats.
func (r *runner) setPlayers() error {
	r.players = r.cfg.Players
	if r.players == 0 {
		r.players = max(min(r.spec.MaxPlayers, len(r.active)), r.spec.MinPlayers)
	}
	return r.spec.CheckPlayers(r.players)
}

// enoughBots fails when too few bots play to seat a table; the caller holds mu or
// owns r.
func (r *runner) enoughBots() error {
	if len(r.active) >= r.players {
		return nil
	}
	msg := fmt.Sprintf("%s tables of %d need %d active bots, the ladder has %d (arena bot add)",
		r.cfg.Game, r.players, r.players, len(r.active))
	if n := len(r.forfeits.suspended); n > 0 {
		msg += fmt.Sprintf("; %d suspended (arena bot list, arena bot reinstate NAME)", n)
	}
	return fmt.Errorf("%w: %s", ErrTooFewBots, msg)
}

func (r *runner) run(ctx context.Context) (RunSummary, error) {
	open, err := r.cfg.Store.OpenBlocks(ctx, r.cfg.Game)
	if err != nil {
		return RunSummary{}, err
	}
	var deadline time.Time
	if r.cfg.Duration > 0 {
		deadline = time.Now().Add(r.cfg.Duration)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan store.Block)
	var wg sync.WaitGroup
	for range r.cfg.Parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				if err := r.play(ctx, b); err != nil {
					r.fail(err)
					cancel()
				}
			}
		}()
	}
	send := func(b store.Block) bool {
		select {
		case work <- b:
			return true
		case <-ctx.Done():
			return false
		}
	}
	func() {
		defer close(work)
		for _, b := range open {
			if !r.playable(b) {
				continue
			}
			r.plan(b)
			r.mu.Lock()
			r.summary.Resumed++
			r.mu.Unlock()
			if !send(b) || r.enough(deadline) {
				return
			}
		}
		for !r.enough(deadline) && ctx.Err() == nil {
			b, err := r.newBlock(ctx)
			if err != nil {
				r.fail(err)
				return
			}
			if !send(b) {
				return
			}
		}
	}()
	wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.firstErr != nil {
		return r.summary, r.firstErr
	}
	return r.summary, context.Cause(ctx)
}

// playable reports whether every bot of an open block still plays; the caller holds
// mu or owns r.
func (r *runner) playable(b store.Block) bool {
	for _, id := range b.Bots {
		if bot, ok := r.bots[id]; !ok || !bot.Active() || r.forfeits.suspended[id] {
			return false
		}
	}
	return len(b.Bots) > 0
}

// plan counts the games of b still to play as under way.
func (r *runner) plan(b store.Block) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.planLocked(b)
}

// planLocked is plan for a caller that holds mu.
func (r *runner) planLocked(b store.Block) {
	left := b.Rotations - len(b.Done)
	r.planned += left
	for _, id := range b.Bots {
		r.games[id] += left
	}
}

// enough reports whether the run should start no more blocks.
func (r *runner) enough(deadline time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.firstErr != nil {
		return true
	}
	if r.cfg.Matches > 0 && r.planned >= r.cfg.Matches {
		return true
	}
	select {
	case <-r.cfg.Until:
		return true
	default:
	}
	return !deadline.IsZero() && !time.Now().Before(deadline)
}

// newBlock chooses a table and records its block before it is played, so that a run
// killed during the block resumes it.
func (r *runner) newBlock(ctx context.Context) (store.Block, error) {
	r.mu.Lock()
	if err := r.enoughBots(); err != nil {
		r.mu.Unlock()
		return store.Block{}, err
	}
	cands := make([]candidate, 0, len(r.active))
	for _, id := range r.active {
		cands = append(cands, candidate{id: id, games: r.games[id], elo: r.liveElo.Elo[r.liveIdx[id]]})
	}
	table := chooseTable(cands, r.players, r.rng)
	r.mu.Unlock()
	// The deal comes from fresh entropy, not from the ladder's seed: a bot that learned
	// or guessed that seed would otherwise know the deals of every block to come.
	seed := arena.NewSeed()
	b, err := r.cfg.Store.NewBlock(ctx, store.Block{Game: r.cfg.Game, Seed: seed, Bots: table, Rotations: len(table)})
	if err != nil {
		return b, err
	}
	r.plan(b)
	r.mu.Lock()
	r.summary.Blocks++
	r.mu.Unlock()
	return b, nil
}

func (r *runner) play(ctx context.Context, b store.Block) error {
	r.mu.Lock()
	ok := r.playable(b)
	if !ok { // a bot was suspended while the block waited: it stays open
		left := b.Rotations - len(b.Done)
		r.planned -= left
		for _, id := range b.Bots {
			r.games[id] -= left
		}
	}
	r.mu.Unlock()
	if !ok {
		return nil
	}
	bots := make([]store.Bot, len(b.Bots))
	for i, id := range b.Bots {
		bots[i] = r.bots[id]
	}
	done := map[int]bool{}
	for _, rot := range b.Done {
		done[rot] = true
	}
	return r.cfg.Player.PlayBlock(ctx, b, bots, func(m store.Match) error {
		if done[m.Rotation] {
			r.mu.Lock()
			r.summary.Skipped++
			r.mu.Unlock()
			return nil
		}
		m.Block, m.Game = b.ID, b.Game
		// Recording must not be cut short by the cancellation that stops play: a
		// game that ended is kept.
		rec, err := r.cfg.Store.RecordMatch(context.WithoutCancel(ctx), m)
		r.mu.Lock()
		defer r.mu.Unlock()
		switch {
		case errors.Is(err, store.ErrDuplicate):
			r.summary.Skipped++
			return nil
		case err != nil:
			return fmt.Errorf("recording block %d rotation %d: %w", b.ID, m.Rotation, err)
		}
		done[m.Rotation] = true
		r.summary.Recorded++
		r.learnOwn(rec)
		if err := r.suspend(ctx, rec); err != nil {
			return err
		}
		if r.cfg.OnGame != nil {
			live := map[int64]float64{}
			for _, s := range rec.Seats {
				live[s.Bot] = r.liveElo.Elo[r.liveIdx[s.Bot]]
			}
			r.cfg.OnGame(rec, r.bots, live)
		}
		return nil
	})
}

// learnOwn counts a game the runner recorded into the live ratings (its games were
// planned when its block was); the caller holds mu.
func (r *runner) learnOwn(m store.Match) {
	seats, places := make([]int, len(m.Seats)), make([]int, len(m.Seats))
	for i, s := range m.Seats {
		seats[i], places[i] = r.liveIdx[s.Bot], s.Place
		r.recorded[s.Bot]++
	}
	_ = r.liveElo.Update(seats, places)
	if r.own != nil {
		r.own[m.ID] = true
	}
}

// suspend counts a recorded game's timeouts and crashes and suspends the bots it
// takes past their share; the caller holds mu.
func (r *runner) suspend(ctx context.Context, m store.Match) error {
	return r.suspendAll(ctx, r.forfeits.add(m))
}

// suspendAll records the suspension of bots, which no longer get tables.
func (r *runner) suspendAll(ctx context.Context, bots []int64) error {
	for _, id := range bots {
		b := r.bots[id]
		reason := r.forfeits.reason(id)
		if err := r.cfg.Store.SuspendBot(context.WithoutCancel(ctx), id, reason); err != nil {
			return err
		}
		r.active = slices.DeleteFunc(r.active, func(a int64) bool { return a == id })
		if r.cfg.OnSuspend != nil {
			r.cfg.OnSuspend(b, reason)
		}
	}
	return nil
}

func (r *runner) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.firstErr == nil && !errors.Is(err, context.Canceled) {
		r.firstErr = err
	}
}
