package arena

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/arena-games/arena/engine"
)

// ReplayFormat is the version of the replay file format.
const ReplayFormat = 1

// Record is one line of a replay file (JSON lines). Type says which fields are set:
//
//	match     the header: Format, Match, Game, Options (the game's options, each in full:
//	          a board file's text), Seed, Players, Deal, Rotation, Bots, Clock, Sandbox
//	          (per seat)
//	decision  N (decision number), Seat, Choice (index), Option, Text, Micros (time the
//	          bot took), Forfeit (the game's fallback played for a forfeited seat)
//	ending    Seat, Ending, Detail, N (the decision at which it happened)
//	result    Place (after forfeits), GamePlace, Score, Adjudicated, N (decisions),
//	          Hash (the final state's hash, hex)
type Record struct {
	Type string `json:"type"`

	Format int    `json:"format,omitempty"`
	Match  string `json:"match,omitempty"`
	Game   string `json:"game,omitempty"`
	// Options are the game's options the match was played with (absent: the defaults).
	Options  engine.Options `json:"options,omitempty"`
	Seed     uint64         `json:"seed,omitempty"`
	Players  int            `json:"players,omitempty"`
	Deal     int            `json:"deal,omitempty"`
	Rotation int            `json:"rotation,omitempty"`
	Bots     []string       `json:"bots,omitempty"`
	Clock    *ClockJSON     `json:"clock,omitempty"`
	// Sandbox is the header's record of what confined each seat's bot.
	Sandbox []SandboxJSON `json:"sandbox,omitempty"`
	N       int           `json:"n,omitempty"`
	Seat    int           `json:"seat"`
	Choice  int           `json:"choice,omitempty"`
	Option  *OptionJSON   `json:"option,omitempty"`
	Text    string        `json:"text,omitempty"`
	Micros  int64         `json:"us,omitempty"`
	Forfeit bool          `json:"forfeit,omitempty"`
	Ending  *Ending       `json:"ending,omitempty"`
	Detail  string        `json:"detail,omitempty"`

	Place       []int  `json:"place,omitempty"`
	GamePlace   []int  `json:"game_place,omitempty"`
	Score       []int  `json:"score,omitempty"`
	Adjudicated bool   `json:"adjudicated,omitempty"`
	Hash        string `json:"hash,omitempty"`
}

// ClockJSON is the clock of a match in milliseconds.
type ClockJSON struct {
	DecisionMs int64 `json:"decision_ms"`
	BankMs     int64 `json:"bank_ms"`
	GraceMs    int64 `json:"grace_ms"`
	MatchMs    int64 `json:"match_ms,omitempty"`
}

// OptionJSON is an engine.Option.
type OptionJSON struct {
	Kind       uint8 `json:"kind"`
	A, B, C, D int16
}

func optionJSON(o engine.Option) *OptionJSON {
	return &OptionJSON{Kind: o.Kind, A: o.A, B: o.B, C: o.C, D: o.D}
}

func (o *OptionJSON) option() engine.Option {
	return engine.Option{Kind: o.Kind, A: o.A, B: o.B, C: o.C, D: o.D}
}

func hashString(h uint64) string { return fmt.Sprintf("%016x", h) }

// Replay is a replay file read back.
type Replay struct {
	Header    Record
	Decisions []Record
	Endings   []Record
	Result    *Record
}

// ReadReplay reads a replay file.
func ReadReplay(r io.Reader) (*Replay, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	rep := &Replay{}
	line := 0
	for sc.Scan() {
		line++
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("replay line %d: %w", line, err)
		}
		switch rec.Type {
		case "match":
			if line != 1 {
				return nil, fmt.Errorf("replay line %d: a second header", line)
			}
			if rec.Format != ReplayFormat {
				return nil, fmt.Errorf("replay format %d, this arena reads %d", rec.Format, ReplayFormat)
			}
			rep.Header = rec
		case "decision":
			rep.Decisions = append(rep.Decisions, rec)
		case "ending":
			rep.Endings = append(rep.Endings, rec)
		case "result":
			r := rec
			rep.Result = &r
		default:
			return nil, fmt.Errorf("replay line %d: unknown record type %q", line, rec.Type)
		}
		if line == 1 && rec.Type != "match" {
			return nil, fmt.Errorf("replay line 1: not a replay header")
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if line == 0 {
		return nil, fmt.Errorf("empty replay")
	}
	return rep, nil
}

// Resimulate plays a replay again from its seed and decisions. It checks that every
// decision's option is the one recorded and that the final state hashes as recorded,
// and calls step (when not nil) after every decision with the game and the record.
func Resimulate(rep *Replay, step func(g engine.Game, before []engine.Event, d Record)) (engine.Game, error) {
	h := rep.Header
	g, err := engine.NewWith(h.Game, h.Seed, h.Players, h.Options)
	if err != nil {
		return nil, err
	}
	for i, d := range rep.Decisions {
		if g.Terminal() {
			return g, fmt.Errorf("decision %d: the game is already over", i)
		}
		if d.N != i || d.Seat != g.ToMove() {
			return g, fmt.Errorf("decision %d: recorded as decision %d of seat %d, but seat %d is to move", i, d.N, d.Seat, g.ToMove())
		}
		opts := g.Options()
		if d.Choice < 0 || d.Choice >= len(opts) || d.Option == nil || opts[d.Choice] != d.Option.option() {
			return g, fmt.Errorf("decision %d: option %d is not the recorded %+v: the replay does not reproduce", i, d.Choice, d.Option)
		}
		logLen := len(g.Log())
		if err := g.Apply(d.Choice); err != nil {
			return g, fmt.Errorf("decision %d: %w", i, err)
		}
		if step != nil {
			step(g, g.Log()[logLen:], d)
		}
	}
	if !g.Terminal() {
		return g, fmt.Errorf("the replay ends after %d decisions but the game is not over", len(rep.Decisions))
	}
	if rep.Result == nil {
		return g, fmt.Errorf("the replay has no result")
	}
	if got := hashString(g.Hash()); got != rep.Result.Hash {
		return g, fmt.Errorf("final state hash %s, recorded %s: the replay does not reproduce", got, rep.Result.Hash)
	}
	res := g.Result()
	if fmt.Sprint(res.Place) != fmt.Sprint(rep.Result.GamePlace) {
		return g, fmt.Errorf("game places %v, recorded %v", res.Place, rep.Result.GamePlace)
	}
	return g, nil
}

// WriteReadable prints a replay for people: the match, every event, every decision
// with the bot's time, the endings and the result. It resimulates as it goes, so it
// fails on a replay that does not reproduce.
func WriteReadable(w io.Writer, rep *Replay, hidden bool) error {
	h := rep.Header
	fmt.Fprintf(w, "match %s: %s, seed %d, %d players\n", h.Match, h.Game, h.Seed, h.Players)
	for _, k := range h.Options.Names() {
		fmt.Fprintf(w, "  option %s: %d bytes, sha256 %s...\n", k, len(h.Options[k]), engine.Digest(h.Options[k]))
	}
	for s, b := range h.Bots {
		fmt.Fprintf(w, "  seat %d: %s\n", s, b)
	}
	endings := map[int][]Record{}
	for _, e := range rep.Endings {
		endings[e.N] = append(endings[e.N], e)
	}
	printEvents := func(g engine.Game, evs []engine.Event) {
		for _, e := range evs {
			switch {
			case e.Audience == engine.Everyone:
				fmt.Fprintf(w, "    %s\n", g.DescribeEvent(e))
			case hidden:
				fmt.Fprintf(w, "    (private) %s\n", g.DescribeEvent(e))
			}
		}
	}
	g0, err := engine.NewWith(h.Game, h.Seed, h.Players, h.Options)
	if err != nil {
		return err
	}
	printEvents(g0, g0.Log())
	g, err := Resimulate(rep, func(g engine.Game, evs []engine.Event, d Record) {
		for _, e := range endings[d.N] {
			fmt.Fprintf(w, "  ** seat %d (%s) forfeits: %s %s\n", e.Seat, h.Bots[e.Seat], e.Ending, e.Detail)
		}
		how := strconv.FormatFloat(float64(d.Micros)/1000, 'f', 2, 64) + " ms"
		if d.Forfeit {
			how = "fallback"
		}
		fmt.Fprintf(w, "%5d seat %d: %s (%s)\n", d.N, d.Seat, d.Text, how)
		printEvents(g, evs)
	})
	if err != nil {
		return err
	}
	r := rep.Result
	fmt.Fprintf(w, "result after %d decisions", g.Decisions())
	if r.Adjudicated {
		fmt.Fprint(w, " (adjudicated)")
	}
	fmt.Fprintln(w, ", state hash", r.Hash, "reproduced:")
	for s := range r.Place {
		fmt.Fprintf(w, "  place %d: seat %d %s (score %d)\n", r.Place[s]+1, s, h.Bots[s], r.Score[s])
	}
	return nil
}
