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
)

// Report sums up a run.
type Report struct {
	Game      string        `json:"game"`
	Seed      uint64        `json:"seed"`
	Players   int           `json:"players"`
	Games     int           `json:"games"`
	Deals     int           `json:"deals"`
	Elapsed   time.Duration `json:"-"`
	ElapsedS  float64       `json:"elapsed_s"`
	ReplayDir string        `json:"replay_dir,omitempty"`
	// Sandbox is what confined every bot process of the run.
	Sandbox SandboxJSON `json:"sandbox"`
	Bots    []BotStats  `json:"bots"`
	// DealBlocks lists every deal: each bot's mean points over the deal's rotations.
	DealBlocks []DealBlock `json:"deal_blocks"`
	// Stopped is set when Config.Stop ended the run before every deal was played.
	Stopped bool           `json:"stopped,omitempty"`
	Matches []*MatchResult `json:"matches"`
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
	// Decisions is the number of decisions the bot answered; latencies are from
	// sending a question to receiving its answer, in milliseconds.
	Decisions     int     `json:"decisions"`
	MeanLatencyMs float64 `json:"mean_latency_ms"`
	P99LatencyMs  float64 `json:"p99_latency_ms"`
}

// DealBlock is one deal played in every rotation.
type DealBlock struct {
	Deal   int       `json:"deal"`
	Seed   uint64    `json:"seed"`
	Points []float64 `json:"points"` // mean points of each entrant over the rotations
}

func (r *runner) report(results []*MatchResult, elapsed time.Duration) *Report {
	n := len(r.cfg.Entrants)
	slices.SortFunc(results, func(a, b *MatchResult) int { return strings.Compare(a.ID, b.ID) })
	rep := &Report{Game: r.cfg.Game, Seed: r.cfg.Seed, Players: n, Games: len(results), Elapsed: elapsed,
		ElapsedS: elapsed.Seconds(), ReplayDir: r.cfg.ReplayDir, Matches: results}
	deals := newDealTally(n, r.dealSize())
	pairW, pairL := make([]float64, n), make([]float64, n)
	lat := make([][]float64, n)
	rep.Bots = make([]BotStats, n)
	for e := range rep.Bots {
		rep.Bots[e] = BotStats{Name: r.cfg.Entrants[e].Name, Endings: map[string]int{}, Restarts: r.bots[e].restartCount()}
		for _, name := range endingNames {
			rep.Bots[e].Endings[name] = 0
		}
	}
	for _, m := range results {
		deals.add(m)
		for _, s := range m.Seats {
			bs := &rep.Bots[s.Entrant]
			bs.Games++
			if s.Place == 0 {
				bs.Wins++
			}
			bs.Points += s.Points
			bs.Endings[s.Ending.String()]++
			for _, t := range m.Seats {
				switch {
				case t.Entrant == s.Entrant:
				case s.Place < t.Place:
					pairW[s.Entrant]++
				case s.Place > t.Place:
					pairL[s.Entrant]++
				}
			}
			for _, l := range s.Latencies {
				lat[s.Entrant] = append(lat[s.Entrant], float64(l)/float64(time.Millisecond))
			}
		}
	}
	// Results hold whole deals only; a run stopped early can leave gaps in their numbers.
	rep.DealBlocks = slices.SortedFunc(slices.Values(deals.completed), func(a, b DealBlock) int { return a.Deal - b.Deal })
	rep.Deals = len(rep.DealBlocks)
	for e := range rep.Bots {
		bs := &rep.Bots[e]
		if bs.Games > 0 {
			bs.Score = bs.Points / float64(bs.Games)
		}
		per := make([]float64, len(rep.DealBlocks))
		for i, b := range rep.DealBlocks {
			per[i] = b.Points[e]
			switch {
			case math.Abs(per[i]-0.5) < 1e-9:
				bs.DealsEven++
			case per[i] > 0.5:
				bs.DealsAhead++
			default:
				bs.DealsBehind++
			}
		}
		iv := stats.EloInterval(per, bs.Games)
		bs.Elo, bs.EloLow, bs.EloHigh = jsonFloat(iv.Estimate), jsonFloat(iv.Low), jsonFloat(iv.High)
		bs.LOS = jsonFloat(stats.LOS(pairW[e], pairL[e]))
		slices.Sort(lat[e])
		bs.Decisions = len(lat[e])
		if len(lat[e]) > 0 {
			sum := 0.0
			for _, x := range lat[e] {
				sum += x
			}
			bs.MeanLatencyMs = sum / float64(len(lat[e]))
			bs.P99LatencyMs = stats.Percentile(lat[e], 99)
		}
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
	fmt.Fprintf(w, "%s, %d players: %d games (%d deals x %d seatings), seed %d, %.1fs\n",
		rep.Game, rep.Players, rep.Games, rep.Deals, rep.Players, rep.Seed, rep.Elapsed.Seconds())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bot\tgames\twins\tscore\tElo [95% CI]\tLOS\tdeals +/=/-\tok/timeout/crash/illegal/protocol\trestarts\tmean ms\tp99 ms\t")
	for _, b := range rep.Bots {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t%s\t%s\t%d/%d/%d\t%d/%d/%d/%d/%d\t%d\t%.3f\t%.3f\t\n",
			b.Name, b.Games, b.Wins, 100*b.Score, eloText(b), pct(float64(b.LOS)), b.DealsAhead, b.DealsEven, b.DealsBehind,
			b.Endings["ok"], b.Endings["timeout"], b.Endings["crash"], b.Endings["illegal"], b.Endings["protocol"],
			b.Restarts, b.MeanLatencyMs, b.P99LatencyMs)
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
