package service

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/watch"
)

// Live games are the games the ladder is playing now, seen through the replays its
// runner writes as it plays (Config.Replays): a game's replay stays under its
// temporary name, record by record, until the game is recorded. The service only
// reads those files; nothing goes back to a playing bot, and what it sends is the
// public point of view (watch.Follower), held back by Config.LiveDelay.

// livePoll is how often a stream looks for the next records: a move shows within a
// fifth of a second, and a look is a read of a file that has not grown.
const livePoll = 200 * time.Millisecond

// liveKeepAlive is how often a quiet stream sends a comment, so that a viewer gone
// away is noticed (the write fails) while a bot thinks for long.
const liveKeepAlive = 15 * time.Second

// LiveGame is a game in progress as the API lists it.
type LiveGame struct {
	Block    int64    `json:"block"`
	Rotation int      `json:"rotation"`
	Game     string   `json:"game"`
	Bots     []string `json:"bots"`
	// Page is its live page; Events its stream of server-sent events.
	Page   string `json:"page"`
	Events string `json:"events"`
	// Moved is when its replay last grew.
	Moved time.Time `json:"moved"`
	path  string
}

// liveRoutes mounts the live games' list, page and stream.
func (s *Service) liveRoutes(mux *routes) {
	mux.mux.HandleFunc("GET /live", s.livePage)
	mux.mux.HandleFunc("GET /live/{block}/{rotation}", s.liveGamePage)
	mux.handle("GET /api/live", func(w http.ResponseWriter, r *http.Request) {
		games, err := s.liveGames()
		if err != nil {
			s.fail(w, r, internal(err))
			return
		}
		writeJSON(w, http.StatusOK, games)
	})
	mux.handle("GET /api/live/{block}/{rotation}/events", s.liveEvents)
}

// liveGames lists the games in progress: the temporary replays under the ladder's
// replay folder (a local run's, and those of workers sharing this machine's folder)
// that have their header written.
func (s *Service) liveGames() ([]LiveGame, error) {
	if s.cfg.Replays == "" {
		return nil, nil
	}
	var paths []string
	for _, pattern := range []string{
		filepath.Join(s.cfg.Replays, s.cfg.Game, "block-*", "*.jsonl"+arena.TempReplaySuffix),
		filepath.Join(s.cfg.Replays, "worker-*", s.cfg.Game, "block-*", "*.jsonl"+arena.TempReplaySuffix),
	} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			return nil, err
		}
		paths = append(paths, m...)
	}
	games := []LiveGame{}
	for _, p := range paths {
		g, ok := s.readLive(p)
		if ok {
			games = append(games, g)
		}
	}
	slices.SortFunc(games, func(a, b LiveGame) int {
		if a.Block != b.Block {
			return int(a.Block - b.Block)
		}
		return a.Rotation - b.Rotation
	})
	return games, nil
}

// readLive reads a temporary replay's header; a file just opened, not yet with its
// header, or gone meanwhile, is no live game yet.
func (s *Service) readLive(path string) (LiveGame, bool) {
	var block int64
	if _, err := fmt.Sscanf(filepath.Base(filepath.Dir(path)), "block-%d", &block); err != nil {
		return LiveGame{}, false
	}
	f, err := os.Open(path)
	if err != nil {
		return LiveGame{}, false
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, 64<<10).ReadBytes('\n')
	var h arena.Record
	if err != nil || json.Unmarshal(line, &h) != nil || arena.CheckHeader(h) != nil {
		return LiveGame{}, false
	}
	g := LiveGame{Block: block, Rotation: h.Rotation, Game: h.Game, Bots: h.Bots, path: path}
	if fi, err := f.Stat(); err == nil {
		g.Moved = fi.ModTime()
	}
	g.Page = fmt.Sprintf("/live/%d/%d", block, h.Rotation)
	g.Events = fmt.Sprintf("/api/live/%d/%d/events", block, h.Rotation)
	return g, true
}

// liveGame finds the game in progress the path names; found is false when it is not
// (or no longer) in progress.
func (s *Service) liveGame(r *http.Request) (g LiveGame, found bool, rf *refusal) {
	block, err := strconv.ParseInt(r.PathValue("block"), 10, 64)
	rot, rerr := strconv.Atoi(r.PathValue("rotation"))
	if err != nil || rerr != nil || block <= 0 || rot < 0 {
		return g, false, refuse(http.StatusBadRequest, "a live game is /live/BLOCK/ROTATION, two numbers")
	}
	games, err := s.liveGames()
	if err != nil {
		return g, false, internal(err)
	}
	for _, g := range games {
		if g.Block == block && g.Rotation == rot {
			return g, true, nil
		}
	}
	return LiveGame{Block: block, Rotation: rot}, false, nil
}

// recordedAs finds the recorded game of a block's rotation (0 when there is none).
func (s *Service) recordedAs(ctx context.Context, block int64, rot int) (int64, error) {
	var id int64
	stop := errors.New("found")
	err := s.cfg.Store.Matches(ctx, s.cfg.Game, func(m store.Match) error {
		if m.Block == block && m.Rotation == rot {
			id = m.ID
			return stop
		}
		return nil
	})
	if err != nil && !errors.Is(err, stop) {
		return 0, err
	}
	return id, nil
}

// liveData is what the live list shows.
type liveData struct {
	Games []LiveGame
	Delay time.Duration
}

func (s *Service) livePage(w http.ResponseWriter, r *http.Request) {
	games, err := s.liveGames()
	if err != nil {
		s.errorPage(w, r, internal(err))
		return
	}
	s.renderWatch(w, r, "live", liveData{Games: games, Delay: s.cfg.LiveDelay})
}

// liveGamePage is a game in progress on the watch page, fed by its stream; a game
// already recorded is its replay's page.
func (s *Service) liveGamePage(w http.ResponseWriter, r *http.Request) {
	g, found, rf := s.liveGame(r)
	if rf == nil && !found {
		rf = s.finishedLive(w, r, g)
	}
	if rf != nil {
		s.errorPage(w, r, rf)
		return
	}
	if found {
		s.renderWatch(w, r, "watch", watchData{Game: g.Game, Bots: g.Bots, Seat: watch.Public, Live: g.Events,
			Block: g.Block, Rotation: g.Rotation, Delay: s.cfg.LiveDelay})
	}
}

// finishedLive sends a browser asking for a game no longer in progress to its replay,
// or says there is none.
func (s *Service) finishedLive(w http.ResponseWriter, r *http.Request, g LiveGame) *refusal {
	id, err := s.recordedAs(r.Context(), g.Block, g.Rotation)
	if err != nil {
		return internal(err)
	}
	if id == 0 {
		return refuse(http.StatusNotFound, fmt.Sprintf("no game of block %d rotation %d is in progress or recorded", g.Block, g.Rotation))
	}
	http.Redirect(w, r, fmt.Sprintf("/games/%d/watch", id), http.StatusSeeOther)
	return nil
}

// liveEvents streams a game in progress as server-sent events: "game" (its header),
// "step", "forfeit" and "result" as they are played, each LiveDelay after the service
// read it, and last "recorded" (the replay's page) or "gone" (the game was dropped).
// A stream holds no request slot (see stream) but one of Limits.Streams.
func (s *Service) liveEvents(w http.ResponseWriter, r *http.Request) {
	g, found, rf := s.liveGame(r)
	if rf == nil && !found {
		rf = refuse(http.StatusNotFound, fmt.Sprintf("no game of block %d rotation %d is in progress", g.Block, g.Rotation))
	}
	if rf != nil {
		s.fail(w, r, rf)
		return
	}
	fd, err := s.feeds.open(g.path)
	if err != nil {
		s.fail(w, r, refuse(http.StatusNotFound, "the game has just ended: open its page again"))
		return
	}
	defer s.feeds.leave(fd)
	ev, rf := s.stream(w, r)
	if rf != nil {
		s.fail(w, r, rf)
		return
	}
	defer ev.close()
	tick := time.NewTicker(livePoll)
	defer tick.Stop()
	for sent := 0; ; {
		ups, gone, err := fd.poll()
		now := time.Now()
		for ; sent < len(ups) && !ups[sent].read.Add(s.cfg.LiveDelay).After(now); sent++ {
			if !ev.send(updateEvent(ups[sent].u)) {
				return
			}
		}
		if err != nil {
			s.cfg.Log.Error("live game", "path", g.path, "err", err)
			ev.send("gone", "the game's record could not be read")
			return
		}
		if gone && sent == len(ups) {
			s.endLive(r.Context(), ev, g)
			return
		}
		if !ev.wait(r.Context(), tick.C) {
			return
		}
	}
}

// endLive tells a stream where the game it followed went.
func (s *Service) endLive(ctx context.Context, ev *events, g LiveGame) {
	id, err := s.recordedAs(ctx, g.Block, g.Rotation)
	switch {
	case err != nil:
		s.cfg.Log.Error("live game", "block", g.Block, "rotation", g.Rotation, "err", err)
		ev.send("gone", "the game's record could not be found")
	case id == 0:
		ev.send("gone", "the game was not recorded (the ladder stopped during it; it will be played again)")
	default:
		ev.send("recorded", map[string]any{"id": id, "page": fmt.Sprintf("/games/%d/watch", id)})
	}
}

// updateEvent is an update as an event: its kind and what it carries.
func updateEvent(u watch.Update) (string, any) {
	switch {
	case u.Game != nil:
		return "game", u.Game
	case u.Step != nil:
		return "step", u.Step
	case u.Forfeit != nil:
		return "forfeit", u.Forfeit
	}
	return "result", u.Result
}

// liveSource is the live games' list, of the watch page's template set.
const liveSource = `
{{define "live"}}{{template "head" .}}{{with .Data}}<h2>Games in progress</h2>
{{if .Games}}<table id="livegames"><tr><th>block</th><th>game</th><th>seats</th><th>last move</th></tr>
{{range .Games}}<tr><td>{{.Block}}</td><td><a href="{{.Page}}">game {{.Rotation}}</a></td><td>{{range $i, $b := .Bots}}{{if $i}}, {{end}}{{$b}}{{end}}</td><td>{{time .Moved}}</td></tr>
{{end}}</table>{{else}}<p id="nolive">No game is being played at this moment.</p>{{end}}
<p class="note">Each game is shown from the public point of view, as it is played{{if .Delay}}, {{.Delay}} late{{end}}; a finished game becomes its replay.</p>
{{end}}{{template "foot"}}{{end}}
`
