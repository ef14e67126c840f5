package arena

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/arena-games/arena/engine"
)

// ReplayFormat is the version of the replay file format.
const ReplayFormat = 1

// Record is one line of a replay file (JSON lines). Type says which fields are set:
//
//	match     the header: Format, Match, Game, Options (the game's options, each in full:
//	          a board file's text), Seed (the deal's), RunSeed (the run's: --seed repeats
//	          the run), BotSeeds (each seat's bot's), Players, Deal, Rotation, Bots, Clock,
//	          Sandbox (per seat)
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
	RunSeed  uint64         `json:"run_seed,omitempty"`
	BotSeeds []uint64       `json:"bot_seeds,omitempty"`
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

// ReadReplay reads a replay file and checks every record against its header: a known
// game and player count, a bot per seat, seats in range, decisions numbered in order
// with their option, endings typed, and one result, last, with a place and a score per
// seat. A damaged file gives an error naming the line, never a panic.
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
		if line == 1 && rec.Type != "match" {
			return nil, fmt.Errorf("replay line 1: not a replay header")
		}
		if rep.Result != nil {
			return nil, fmt.Errorf("replay line %d: a record after the result", line)
		}
		if err := rep.add(rec); err != nil {
			return nil, fmt.Errorf("replay line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("replay line %d: %w", line+1, err)
	}
	switch {
	case line == 0:
		return nil, errors.New("empty replay")
	case rep.Result == nil:
		return nil, fmt.Errorf("the replay ends after %d lines without a result: the match did not finish", line)
	}
	return rep, nil
}

// add checks one record against the header and keeps it.
func (rep *Replay) add(rec Record) error {
	h := &rep.Header
	seat := func() error {
		if rec.Seat < 0 || rec.Seat >= h.Players {
			return fmt.Errorf("seat %d in a %d-player game", rec.Seat, h.Players)
		}
		return nil
	}
	switch rec.Type {
	case "match":
		if h.Type != "" {
			return errors.New("a second header")
		}
		return rep.header(rec)
	case "decision":
		if err := seat(); err != nil {
			return err
		}
		if rec.N != len(rep.Decisions) {
			return fmt.Errorf("decision %d where decision %d was due", rec.N, len(rep.Decisions))
		}
		if rec.Option == nil || rec.Choice < 0 {
			return fmt.Errorf("decision %d without its option", rec.N)
		}
		rep.Decisions = append(rep.Decisions, rec)
	case "ending":
		if err := seat(); err != nil {
			return err
		}
		if rec.Ending == nil || rec.N < 0 || rec.N > len(rep.Decisions) {
			return fmt.Errorf("an ending without its kind or at decision %d of %d", rec.N, len(rep.Decisions))
		}
		rep.Endings = append(rep.Endings, rec)
	case "result":
		n := h.Players
		if len(rec.Place) != n || len(rec.GamePlace) != n || len(rec.Score) != n {
			return fmt.Errorf("a result with %d places, %d game places and %d scores for %d players",
				len(rec.Place), len(rec.GamePlace), len(rec.Score), n)
		}
		for _, p := range append(slices.Clone(rec.Place), rec.GamePlace...) {
			if p < 0 || p >= n {
				return fmt.Errorf("place %d in a %d-player game", p, n)
			}
		}
		if rec.N != len(rep.Decisions) {
			return fmt.Errorf("a result after %d decisions, the replay has %d", rec.N, len(rep.Decisions))
		}
		r := rec
		rep.Result = &r
	default:
		return fmt.Errorf("unknown record type %q", rec.Type)
	}
	return nil
}

// header checks the header (CheckHeader) and keeps it.
func (rep *Replay) header(rec Record) error {
	if err := CheckHeader(rec); err != nil {
		return err
	}
	rep.Header = rec
	return nil
}

// CheckHeader checks a replay's header: this format, a known game, a player count it
// seats and one bot per seat.
func CheckHeader(rec Record) error {
	if rec.Type != "match" {
		return errors.New("not a replay header")
	}
	if rec.Format != ReplayFormat {
		return fmt.Errorf("replay format %d, this arena reads %d", rec.Format, ReplayFormat)
	}
	spec, err := engine.Lookup(rec.Game)
	if err != nil {
		return err
	}
	if err := spec.CheckPlayers(rec.Players); err != nil {
		return err
	}
	if len(rec.Bots) != rec.Players {
		return fmt.Errorf("a header with %d bots for %d players", len(rec.Bots), rec.Players)
	}
	return nil
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
		if err := CheckDecision(g, d); err != nil {
			return g, err
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
	if fmt.Sprint(res.Place) != fmt.Sprint(rep.Result.GamePlace) || fmt.Sprint(res.Score) != fmt.Sprint(rep.Result.Score) ||
		res.Adjudicated != rep.Result.Adjudicated {
		return g, fmt.Errorf("game places %v, scores %v (adjudicated %v), recorded %v, %v (%v): the replay does not reproduce",
			res.Place, res.Score, res.Adjudicated, rep.Result.GamePlace, rep.Result.Score, rep.Result.Adjudicated)
	}
	return g, nil
}

// CheckDecision checks that d is g's next decision, as recorded: its number, its
// seat, its option and the option's words.
func CheckDecision(g engine.Game, d Record) error {
	i := g.Decisions()
	if g.Terminal() {
		return fmt.Errorf("decision %d: the game is already over", i)
	}
	if d.N != i || d.Seat != g.ToMove() {
		return fmt.Errorf("decision %d: recorded as decision %d of seat %d, but seat %d is to move", i, d.N, d.Seat, g.ToMove())
	}
	opts := g.Options()
	if d.Choice < 0 || d.Choice >= len(opts) || d.Option == nil || opts[d.Choice] != d.Option.option() {
		return fmt.Errorf("decision %d: option %d is not the recorded %+v: the replay does not reproduce", i, d.Choice, d.Option)
	}
	if text := g.Describe(opts[d.Choice]); text != d.Text {
		return fmt.Errorf("decision %d: the option reads %q, recorded %q: the replay does not reproduce", i, text, d.Text)
	}
	return nil
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

// replayWriter writes one match's replay; with no replay directory it writes nothing.
type replayWriter struct {
	enc *json.Encoder
	// out is where the records go, enc's writer; buf is a decision's record being built.
	out io.Writer
	buf []byte
	err error
	// live writes every record to the file as it is made (Config.LiveReplays).
	live bool
	// mem holds the replay with Config.ReplaysInMemory, and a file's that is not live
	// until the game ends.
	mem *bytes.Buffer
	// f is the replay's file; a file that is not live is opened beside the game and
	// arrives on opening.
	f       *os.File
	opening chan openedFile
}

// openedFile is a replay file opened beside the game, or why it could not be.
type openedFile struct {
	f   *os.File
	err error
}

func (r *runner) openReplay(m matchSpec, res *MatchResult) (*replayWriter, error) {
	rw := &replayWriter{live: r.cfg.LiveReplays}
	if r.cfg.ReplayDir == "" {
		return rw, nil
	}
	path := filepath.Join(r.cfg.ReplayDir, m.id+".jsonl")
	if r.cfg.ReplaysInMemory {
		res.Replay = path
		rw.toMemory()
	} else if err := openReplayFile(path, res, rw); err != nil {
		return nil, err
	}
	bots := make([]string, len(m.entrants))
	boxes := make([]SandboxJSON, len(m.entrants))
	seeds := make([]uint64, len(m.entrants))
	for s, e := range m.entrants {
		bots[s] = r.bots[e].entrant.Name
		boxes[s] = r.sandbox
		boxes[s].Bot = bots[s]
		seeds[s] = botSeed(r.cfg.Seed, m.deal, m.rotation, s)
	}
	c := r.cfg.Clock
	rw.write(Record{Type: "match", Format: ReplayFormat, Match: m.id, Game: r.cfg.Game, Options: r.cfg.Options, Seed: m.seed,
		RunSeed: r.cfg.Seed, BotSeeds: seeds, Players: len(m.entrants), Deal: m.deal, Rotation: m.rotation, Bots: bots, Sandbox: boxes,
		Clock: &ClockJSON{DecisionMs: c.Decision.Milliseconds(), BankMs: c.Bank.Milliseconds(), GraceMs: c.Grace.Milliseconds(), MatchMs: c.Match.Milliseconds()}})
	return rw, nil
}

// toMemory makes rw keep the replay in memory (Config.ReplaysInMemory), not live.
func (rw *replayWriter) toMemory() {
	rw.live, rw.mem = false, bytes.NewBuffer(make([]byte, 0, replayMemory))
	rw.out = rw.mem
	rw.enc = json.NewEncoder(rw.out)
}

// replayMemory is what a replay kept in memory starts with: most games' whole replay
// (6-25 KB in BenchmarkReplayBuilding), or half of it, so that building it does not
// copy it into a buffer twice its size again and again.
const replayMemory = 16 << 10

// openReplayFile opens match res's replay file at path for rw. A live replay's file
// is made at once and takes each record as it is made. Any other is built in memory
// and written whole when the game ends, into a file made on a goroutine of its own
// while the game is played: making a file is the largest part of a replay's cost
// (ext4 looking for a free inode, 7.5% of a match's CPU in a profile at load 17),
// and it need not wait on the runner's path between a bot's answer and the next
// question.
func openReplayFile(path string, res *MatchResult, rw *replayWriter) error {
	// A replay already on disk is a record of another run and is never overwritten.
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("replay %s already exists", path)
	}
	// Written under a temporary name, it takes its own once the match is committed
	// (commitReplay), so that a match cut short leaves nothing that looks like a
	// replay. A temporary file left by a killed run is a leftover and is overwritten.
	temp := path + TempReplaySuffix
	create := func() (*os.File, error) { return os.OpenFile(temp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644) }
	if !rw.live {
		rw.toMemory()
		rw.opening = make(chan openedFile, 1)
		go func() {
			f, err := create()
			rw.opening <- openedFile{f, err}
		}()
		res.Replay, res.replayTemp = path, temp
		return nil
	}
	f, err := create()
	if err != nil {
		return err
	}
	res.Replay, res.replayTemp = path, temp
	rw.f, rw.out = f, f
	rw.enc = json.NewEncoder(rw.out)
	return nil
}

func (rw *replayWriter) write(rec Record) {
	if !rw.writing() {
		return
	}
	rw.err = rw.enc.Encode(rec)
}

// decision writes the record of g's pending decision, answered by option choice (the
// game's fallback's when fallback) after took. It is called before the choice is
// applied: the option's words depend on the state.
func (rw *replayWriter) decision(g engine.Game, choice int, took time.Duration, fallback bool) {
	if !rw.writing() {
		return
	}
	o := g.Options()[choice]
	rw.buf = appendDecision(rw.buf[:0], g.Decisions(), g.ToMove(), choice, o, g.Describe(o), took.Microseconds(), fallback)
	_, rw.err = rw.out.Write(rw.buf)
}

// writing reports whether records are written: a run without replays skips building
// them (a decision's text costs more than the rest of the runner's work on it).
func (rw *replayWriter) writing() bool { return rw.enc != nil && rw.err == nil }

// close ends the replay's file: one that is not live gets the replay whole (once it is
// made, if it is still being made), then it is closed. A replay kept in memory stays
// there (Config.ReplaysInMemory); closing again does nothing.
func (rw *replayWriter) close() error {
	if rw.opening != nil {
		o := <-rw.opening
		rw.opening, rw.f = nil, o.f
		if rw.err == nil {
			rw.err = o.err
		}
		if rw.err == nil {
			_, rw.err = rw.f.Write(rw.mem.Bytes())
		}
		rw.mem = nil // in its file, not the match's ReplayData
	}
	if rw.f == nil {
		return rw.err
	}
	if err := rw.f.Close(); err != nil && rw.err == nil {
		rw.err = err
	}
	// Nothing is written after the file is closed.
	rw.f, rw.out, rw.enc = nil, nil, nil
	return rw.err
}

// TempReplaySuffix ends the name of a replay still being written, or of a match that
// was never committed: not a replay.
const TempReplaySuffix = ".tmp"

// ReplayFile is where the match's replay is now: under its temporary name until the
// match is committed (Config.Commit has returned), then Replay.
func (m *MatchResult) ReplayFile() string {
	if m.replayTemp != "" {
		return m.replayTemp
	}
	return m.Replay
}

// discardReplay removes the replay of a match that is not committed (played while
// the run stopped, or abandoned).
func discardReplay(m *MatchResult) {
	if m.replayTemp != "" {
		_ = os.Remove(m.replayTemp)
		m.replayTemp = ""
	}
}

// commitReplay moves a finished match's replay from its temporary name to its own,
// refusing to replace a file already there (a link, then the temporary name removed).
func commitReplay(m *MatchResult) error {
	if m.replayTemp == "" {
		return nil
	}
	if err := os.Link(m.replayTemp, m.Replay); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("replay %s already exists", m.Replay)
		}
		return fmt.Errorf("replay: %w", err)
	}
	if err := os.Remove(m.replayTemp); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	m.replayTemp = ""
	return nil
}
