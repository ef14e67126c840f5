package arena

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/arena-games/arena/arena/stats"
	"github.com/arena-games/arena/protocol/bot"
)

// Report sums up a run.
type Report struct {
	Game     string        `json:"game"`
	Seed     uint64        `json:"seed"`
	Players  int           `json:"players"`
	Games    int           `json:"games"`
	Deals    int           `json:"deals"`
	Elapsed  time.Duration `json:"-"`
	ElapsedS float64       `json:"elapsed_s"`
	// FirstDecisionMs is the run's start-up cost: from the start of the run (the
	// command's flags read) to the first decision a bot answered, in milliseconds.
	FirstDecisionMs float64 `json:"first_decision_ms,omitempty"`
	ReplayDir       string  `json:"replay_dir,omitempty"`
	// Sandbox is what confined every bot process of the run.
	Sandbox SandboxJSON `json:"sandbox"`
	Bots    []BotStats  `json:"bots"`
	// DealBlocks lists every deal: each bot's mean points over the deal's rotations
	// (only with Config.KeepMatches).
	DealBlocks []DealBlock `json:"deal_blocks,omitempty"`
	// Stopped is set when Config.Stop ended the run before every deal was played.
	Stopped bool `json:"stopped,omitempty"`
	// Partial is set when the run ended before its schedule did, for the reason in
	// StoppedBy (interrupted, a disqualification, a bot past its restarts...). The
	// report covers the deals completed before that; games of deals left unfinished
	// are not in it.
	Partial   bool           `json:"partial,omitempty"`
	StoppedBy string         `json:"stopped_by,omitempty"`
	Matches   []*MatchResult `json:"matches"`
}

// BotStats is one entrant's line of the report.
type BotStats struct {
	Name  string `json:"name"`
	Games int    `json:"games"`
	// Wins counts games finished in first place (alone or shared).
	Wins int `json:"wins"`
	// Points is the sum of per-game points (see the package doc); Score is their mean.
	Points float64 `json:"points"`
	Score  float64 `json:"score"`
	// Elo is the difference against the rest of the field, with its 95% interval;
	// null when unbounded (a perfect or nil score, or a single deal).
	Elo     jsonFloat `json:"elo"`
	EloLow  jsonFloat `json:"elo_low"`
	EloHigh jsonFloat `json:"elo_high"`
	// LOS is the likelihood of superiority over the rest of the field.
	LOS jsonFloat `json:"los"`
	// DealsAhead, DealsEven and DealsBehind count the deals whose mean points over
	// all rotations were above, at or below one half: the duplicate format's verdict,
	// with the luck of the deal cancelled.
	DealsAhead  int `json:"deals_ahead"`
	DealsEven   int `json:"deals_even"`
	DealsBehind int `json:"deals_behind"`
	// Endings counts the bot's seats by ending.
	Endings  map[string]int `json:"endings"`
	Restarts int            `json:"restarts"`
	// Decisions is the number of decisions the bot answered in the whole run; latencies
	// are from sending a question to receiving its answer, in milliseconds (p50 and p99
	// from a fixed-size histogram, within 1%; the mean and maximum exact).
	Decisions     int     `json:"decisions"`
	MeanLatencyMs float64 `json:"mean_latency_ms"`
	P50LatencyMs  float64 `json:"p50_latency_ms"`
	P99LatencyMs  float64 `json:"p99_latency_ms"`
	MaxLatencyMs  float64 `json:"max_latency_ms"`
}

// DealBlock is one deal played in every rotation.
type DealBlock struct {
	Deal   int       `json:"deal"`
	Seed   uint64    `json:"seed"`
	Points []float64 `json:"points"` // mean points of each entrant over the rotations
}

// tally sums a run up as its deals complete. It holds the results of the deals still
// in play (at most a few per match played at once) and, after a deal completes, only
// sums per bot, unless the report is to list every match and deal (keep).
type tally struct {
	n       int // entrants
	size    int // matches of a deal (its rotations played)
	keep    bool
	pending map[int][]*MatchResult
	deals   int
	games   int
	bots    []botTally
	blocks  []DealBlock
	matches []*MatchResult
}

// botTally is one entrant's sums.
type botTally struct {
	games, wins         int
	points              float64
	endings             [numEndings]int
	pairW, pairL        float64
	deals               stats.Moments // the entrant's mean points per deal
	ahead, even, behind int
}

func newTally(n, size int, keep bool) *tally {
	return &tally{n: n, size: size, keep: keep, pending: map[int][]*MatchResult{}, bots: make([]botTally, n)}
}

// add counts a finished match; when it completes its deal, the deal is summed up and
// returned.
func (t *tally) add(m *MatchResult) (DealBlock, bool) {
	t.pending[m.Deal] = append(t.pending[m.Deal], m)
	played := t.pending[m.Deal]
	if len(played) < t.size {
		return DealBlock{}, false
	}
	delete(t.pending, m.Deal)
	b := DealBlock{Deal: m.Deal, Seed: m.Seed, Points: make([]float64, t.n)}
	for _, g := range played {
		t.addGame(g)
		for _, s := range g.Seats {
			b.Points[s.Entrant] += s.Points / float64(t.size)
		}
	}
	for e, p := range b.Points {
		bt := &t.bots[e]
		bt.deals.Add(p)
		switch {
		case math.Abs(p-0.5) < 1e-9:
			bt.even++
		case p > 0.5:
			bt.ahead++
		default:
			bt.behind++
		}
	}
	t.deals++
	if t.keep {
		t.blocks = append(t.blocks, b)
		t.matches = append(t.matches, played...)
	}
	return b, true
}

func (t *tally) addGame(m *MatchResult) {
	t.games++
	for _, s := range m.Seats {
		bt := &t.bots[s.Entrant]
		bt.games++
		if s.Place == 0 {
			bt.wins++
		}
		bt.points += s.Points
		bt.endings[s.Ending]++
		for _, o := range m.Seats {
			switch {
			case o.Entrant == s.Entrant:
			case s.Place < o.Place:
				bt.pairW++
			case s.Place > o.Place:
				bt.pairL++
			}
		}
	}
}

// report sums the completed deals up (games of deals left unfinished are not in it).
func (r *runner) report(t *tally, elapsed time.Duration) *Report {
	n := len(r.cfg.Entrants)
	slices.SortFunc(t.matches, func(a, b *MatchResult) int { return strings.Compare(a.ID, b.ID) })
	rep := &Report{Game: r.cfg.Game, Seed: r.cfg.Seed, Players: n, Games: t.games, Deals: t.deals, Elapsed: elapsed,
		ElapsedS: elapsed.Seconds(), ReplayDir: r.cfg.ReplayDir, Matches: t.matches,
		DealBlocks: slices.SortedFunc(slices.Values(t.blocks), func(a, b DealBlock) int { return a.Deal - b.Deal })}
	rep.FirstDecisionMs = float64(r.first.Load()) / float64(time.Millisecond)
	rep.Bots = make([]BotStats, n)
	for e := range rep.Bots {
		bt := &t.bots[e]
		bs := BotStats{Name: r.cfg.Entrants[e].Name, Games: bt.games, Wins: bt.wins, Points: bt.points,
			Endings: map[string]int{}, DealsAhead: bt.ahead, DealsEven: bt.even, DealsBehind: bt.behind}
		if e < len(r.bots) {
			bs.Restarts = r.bots[e].restartCount()
		}
		for k, name := range endingNames {
			bs.Endings[name] = bt.endings[k]
		}
		if bs.Games > 0 {
			bs.Score = bs.Points / float64(bs.Games)
		}
		iv := bt.deals.EloInterval(bs.Games)
		bs.Elo, bs.EloLow, bs.EloHigh = jsonFloat(iv.Estimate), jsonFloat(iv.Low), jsonFloat(iv.High)
		bs.LOS = jsonFloat(stats.LOS(bt.pairW, bt.pairL))
		if e < len(r.lat) {
			r.lat[e].summary(&bs)
		}
		rep.Bots[e] = bs
	}
	return rep
}

// WriteJSON writes the report as indented JSON.
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteTable writes the report for people: one line per bot.
func (rep *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s, %d players: %d games (%d deals x %d seatings), seed %d (--seed %d repeats the deals), %.1fs\n",
		rep.Game, rep.Players, rep.Games, rep.Deals, rep.Players, rep.Seed, rep.Seed, rep.Elapsed.Seconds())
	if rep.Partial {
		fmt.Fprintf(w, "PARTIAL: the run stopped (%s); this covers the %d deals completed before\n", bot.Printable(rep.StoppedBy), rep.Deals)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bot\tgames\twins\tscore\tElo [95% CI]\tLOS\tdeals +/=/-\tok/timeout/crash/illegal/protocol\trestarts\tmean ms\tp50 ms\tp99 ms\tmax ms\t")
	for _, b := range rep.Bots {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t%s\t%s\t%d/%d/%d\t%d/%d/%d/%d/%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t\n",
			b.Name, b.Games, b.Wins, 100*b.Score, eloText(b), pct(float64(b.LOS)), b.DealsAhead, b.DealsEven, b.DealsBehind,
			b.Endings["ok"], b.Endings["timeout"], b.Endings["crash"], b.Endings["illegal"], b.Endings["protocol"],
			b.Restarts, b.MeanLatencyMs, b.P50LatencyMs, b.P99LatencyMs, b.MaxLatencyMs)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, rep.Sandbox)
	if rep.ReplayDir != "" {
		fmt.Fprintf(w, "replays: %s\n", rep.ReplayDir)
	}
	return nil
}

func eloText(b BotStats) string {
	f := func(x jsonFloat) string {
		v := float64(x)
		switch {
		case math.IsNaN(v):
			return "?"
		case math.IsInf(v, 1):
			return "+inf"
		case math.IsInf(v, -1):
			return "-inf"
		}
		return fmt.Sprintf("%+.0f", math.Round(v)+0) // +0 turns -0 into 0
	}
	return fmt.Sprintf("%s [%s, %s]", f(b.Elo), f(b.EloLow), f(b.EloHigh))
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return "?"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}
