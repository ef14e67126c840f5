package service

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/arena-games/arena/ladder/store"
)

// A block's bots' stderr lies beside its replays, as the runner keeps it: one file
// per bot and seat (stderr-E-LABEL-seat-S.log: one game's, since a block plays each
// bot once in each seat), or, for blocks played before that, one file per bot of
// every game of the block (stderr-E-LABEL.log). LABEL is "name vN", with '/' and
// control characters as '_'.
var stderrFileName = regexp.MustCompile(`^stderr-\d+-(.+?)(?:-seat-(\d+))?\.log$`)

// stderrGames is how many of a bot's latest games its stderr download covers.
const stderrGames = 20

// keptStderr is what bot b wrote to stderr at seat of game m: the seat's own file,
// else (block true) the file of every game of its block; found is false when
// nothing was kept. Files are matched by the whole label, so that no other bot's
// file (whose name ends like b's) is ever read.
func (s *Service) keptStderr(m store.Match, seat int, b store.Bot) (data []byte, block, found bool) {
	root := filepath.Clean(s.cfg.Store.Dir()) + string(filepath.Separator)
	if m.Replay == "" || !strings.HasPrefix(filepath.Clean(m.Replay), root) {
		return nil, false, false
	}
	dir := filepath.Dir(m.Replay)
	files, err := os.ReadDir(dir)
	if err != nil {
		return nil, false, false
	}
	label := strings.Map(fileRune, fmt.Sprintf("%s v%d", b.Name, b.Version))
	var blockFile string
	for _, f := range files {
		p := stderrFileName.FindStringSubmatch(f.Name())
		if p == nil || p[1] != label {
			continue
		}
		if p[2] == strconv.Itoa(seat) {
			data, err := os.ReadFile(filepath.Join(dir, f.Name()))
			return data, false, err == nil
		}
		if p[2] == "" {
			blockFile = f.Name()
		}
	}
	if blockFile == "" {
		return nil, false, false
	}
	data, err = os.ReadFile(filepath.Join(dir, blockFile))
	return data, true, err == nil
}

// fileRune is the runner's mapping of an entrant's name into a file name.
func fileRune(r rune) rune {
	if r == '/' || r == os.PathSeparator || r < ' ' {
		return '_'
	}
	return r
}

// writeStderr writes what b wrote at seat of m under a header naming the game;
// blocks lists the blocks whose shared file was written already, so that it is
// written once.
func (s *Service) writeStderr(w io.Writer, m store.Match, seat int, b store.Bot, blocks map[int64]bool) {
	data, block, found := s.keptStderr(m, seat, b)
	switch {
	case block && blocks[m.Block]:
		fmt.Fprintf(w, "=== game %d, seat %d, %s v%d: with block %d's above ===\n\n", m.ID, seat, b.Name, b.Version, m.Block)
	case block:
		blocks[m.Block] = true
		fmt.Fprintf(w, "=== game %d, seat %d, %s v%d: every game of block %d (kept before stderr was kept per game) ===\n%s\n",
			m.ID, seat, b.Name, b.Version, m.Block, data)
	case found:
		fmt.Fprintf(w, "=== game %d, seat %d, %s v%d ===\n%s\n", m.ID, seat, b.Name, b.Version, data)
	default:
		fmt.Fprintf(w, "=== game %d, seat %d, %s v%d: nothing kept (the bot wrote nothing, or the game's files are elsewhere) ===\n\n",
			m.ID, seat, b.Name, b.Version)
	}
}

// attachText starts a plain-text attachment: a bot's own output is never rendered
// as a page.
func attachText(w http.ResponseWriter, name string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
}

// stderr sends what the author's bot wrote to stderr in its latest games, game by
// game, newest first.
func (s *Service) stderr(w http.ResponseWriter, r *http.Request, a store.Author) {
	name := r.PathValue("name")
	if rf := s.owned(r.Context(), a, name); rf != nil {
		s.fail(w, r, rf)
		return
	}
	set, rf := s.findGames(r.Context(), gameQuery{bot: name, limit: stderrGames})
	if rf != nil {
		s.fail(w, r, rf)
		return
	}
	attachText(w, name+"-stderr.txt")
	blocks := map[int64]bool{}
	for _, m := range set.games {
		for seat, st := range m.Seats {
			if set.subject[st.Bot] {
				s.writeStderr(w, m, seat, set.bots[st.Bot], blocks)
			}
		}
	}
}

// gameStderr sends what the author's bots wrote to stderr in one game. A game none
// of their bots played is, to them, a game without stderr: 404.
func (s *Service) gameStderr(w http.ResponseWriter, r *http.Request, a store.Author) {
	m, seats, rf := s.myGame(r, a)
	if rf == nil && len(seats) == 0 {
		rf = refuse(http.StatusNotFound, fmt.Sprintf("none of your bots played in game %d: its stderr is its bots' authors'", m.ID))
	}
	if rf != nil {
		s.fail(w, r, rf)
		return
	}
	attachText(w, fmt.Sprintf("game-%d-stderr.txt", m.ID))
	blocks := map[int64]bool{}
	for seat := range len(m.Seats) {
		if b, ok := seats[seat]; ok {
			s.writeStderr(w, m, seat, b, blocks)
		}
	}
}
