package service

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/play"
	"github.com/arena-games/arena/watch"
)

// A person's game is an unrated game a logged-in author plays in the browser against
// active bots of the ladder, dealt as the ladder deals (fresh entropy), drawn as the
// watch page draws a seat's point of view. The bots run as the ladder runs them
// (Config.Launch, the ladder's sandbox and clock); the person has no deadline. The
// game is recorded nowhere: it counts in no standing and lives in this process until
// it stops (Close).

// keptPersonGames is how many finished games of an author stay to be looked at.
const keptPersonGames = 5

// personGame is one person's game, under way or finished.
type personGame struct {
	id      string
	author  int64
	seat    int
	game    string
	names   []string
	started time.Time
	cancel  context.CancelFunc
	// choices carry the person's choices to the game (see Choose).
	choices chan choice

	mu       sync.Mutex
	steps    []watch.Step
	forfeits []watch.LiveForfeit
	result   *watch.Result
	ended    string // why it ended early, if it did
	done     bool
	changed  chan struct{} // closed and replaced at every change
}

// choice is the person's choice of option at step, answered on reply.
type choice struct {
	step, option int
	reply        chan error
}

// people are the person games of a service.
type people struct {
	mu    sync.Mutex
	games map[string]*personGame
	wg    sync.WaitGroup
}

// startPerson starts a game of author a at seat against the bots, in seat order.
func (s *Service) startPerson(a store.Author, bots []store.Bot, seat int) (*personGame, *refusal) {
	if s.cfg.Launch == nil {
		return nil, refuse(http.StatusNotFound, "this ladder has no games for people")
	}
	game := engine.VariantGame(s.cfg.Game)
	spec, err := engine.Lookup(game)
	if err != nil {
		return nil, internal(err)
	}
	n := len(bots) + 1
	if err := spec.CheckPlayers(n); err != nil {
		return nil, refuse(http.StatusBadRequest, fmt.Sprintf("%s seats %d to %d: choose %d to %d bots", game, spec.MinPlayers, spec.MaxPlayers, spec.MinPlayers-1, spec.MaxPlayers-1))
	}
	if seat < 0 || seat >= n {
		return nil, refuse(http.StatusBadRequest, fmt.Sprintf("your seat is 0 to %d", n-1))
	}
	if under := s.people.underWay(a.ID); under >= s.cfg.Limits.PersonGames {
		return nil, refuse(http.StatusTooManyRequests, fmt.Sprintf("you have %d games under way, the most one author may have: finish or end one first", under))
	}
	cfg := play.Config{Options: s.cfg.GameOptions, Seat: seat, Seed: arena.NewSeed(), Clock: s.cfg.Clock}
	if cfg.Game, err = engine.NewWith(game, arena.NewSeed(), n, s.cfg.GameOptions); err != nil {
		return nil, internal(err)
	}
	for _, b := range bots {
		lc, err := s.cfg.Launch(b)
		if err != nil {
			return nil, internal(err)
		}
		cfg.Bots = append(cfg.Bots, play.Bot{Name: label(b), Launch: lc})
	}
	id := make([]byte, 12)
	_, _ = rand.Read(id)
	pg := &personGame{id: hex.EncodeToString(id), author: a.ID, seat: seat, game: game, names: cfg.Names(a.Name + " (you)"),
		started: time.Now(), choices: make(chan choice), changed: make(chan struct{})}
	cfg.MatchID = "unrated-" + pg.id
	g := cfg.Game
	first, err := watch.StepOf(g, g.Log(), seat, nil, pg.names)
	if err != nil {
		return nil, internal(err)
	}
	pg.steps = []watch.Step{first}
	cfg.Decided = pg.decided
	cfg.Forfeit = func(seat int, _ string) { pg.forfeit(seat) }
	ctx, cancel := context.WithCancel(context.Background())
	pg.cancel = cancel
	s.people.add(pg)
	s.people.wg.Go(func() {
		defer cancel()
		res, err := play.Play(ctx, cfg, pg)
		pg.finish(res, err)
	})
	return pg, nil
}

func label(b store.Bot) string { return fmt.Sprintf("%s v%d", b.Name, b.Version) }

// Choose waits for the person's choice at the game's current step.
func (pg *personGame) Choose(ctx context.Context, g engine.Game, _ int) (int, error) {
	for {
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case c := <-pg.choices:
			switch {
			case c.step != g.Decisions():
				c.reply <- fmt.Errorf("step %d is past: the game is at step %d", c.step, g.Decisions())
			case c.option < 0 || c.option >= len(g.Options()):
				c.reply <- fmt.Errorf("option %d of %d", c.option, len(g.Options()))
			default:
				pg.mu.Lock()
				pg.steps[c.step].Asked.Chosen = c.option
				pg.mu.Unlock()
				c.reply <- nil
				return c.option, nil
			}
		}
	}
}

// decided keeps the step after a decision.
func (pg *personGame) decided(g engine.Game, seat int, chose string, log int) {
	st, err := watch.StepOf(g, g.Log()[log:], pg.seat, &watch.Decided{Seat: seat, Text: chose}, pg.names)
	if err != nil {
		pg.cancel()
		return
	}
	pg.mu.Lock()
	pg.steps = append(pg.steps, st)
	pg.changedLocked()
	pg.mu.Unlock()
}

// forfeit keeps a bot's forfeit (its kind of failure is not told: the person plays on
// against the game's fallback in its seat).
func (pg *personGame) forfeit(seat int) {
	pg.mu.Lock()
	pg.forfeits = append(pg.forfeits, watch.LiveForfeit{N: len(pg.steps) - 1, Seat: seat, Ending: "forfeit"})
	pg.changedLocked()
	pg.mu.Unlock()
}

func (pg *personGame) finish(res engine.Result, err error) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	pg.done = true
	switch {
	case errors.Is(err, context.Canceled):
		pg.ended = "the game was ended before its end"
	case err != nil:
		pg.ended = "the game stopped: " + err.Error()
	default:
		pg.result = &watch.Result{Place: res.Place, Score: res.Score, Adjudicated: res.Adjudicated}
	}
	pg.changedLocked()
}

func (pg *personGame) changedLocked() {
	close(pg.changed)
	pg.changed = make(chan struct{})
}

// choose hands the person's choice to the game and waits for its answer.
func (pg *personGame) choose(ctx context.Context, step, option int) error {
	c := choice{step: step, option: option, reply: make(chan error, 1)}
	select {
	case pg.choices <- c:
		return <-c.reply
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(5 * time.Second):
		// Nobody took it: the game is not waiting for the person (a bot's turn, or over).
		return errors.New("it is not your turn")
	}
}

func (p *people) add(pg *personGame) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.games == nil {
		p.games = map[string]*personGame{}
	}
	var finished []*personGame
	for _, g := range p.games {
		if g.author == pg.author && g.isDone() {
			finished = append(finished, g)
		}
	}
	slices.SortFunc(finished, func(a, b *personGame) int { return a.started.Compare(b.started) })
	for len(finished) >= keptPersonGames {
		delete(p.games, finished[0].id)
		finished = finished[1:]
	}
	p.games[pg.id] = pg
}

func (pg *personGame) isDone() bool {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.done
}

func (p *people) underWay(author int64) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, g := range p.games {
		if g.author == author && !g.isDone() {
			n++
		}
	}
	return n
}

// of lists an author's games, newest first.
func (p *people) of(author int64) []*personGame {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*personGame
	for _, g := range p.games {
		if g.author == author {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b *personGame) int { return b.started.Compare(a.started) })
	return out
}

// Close ends the person games under way, stopping their bots, and waits for them.
func (s *Service) Close() {
	s.people.mu.Lock()
	for _, g := range s.people.games {
		g.cancel()
	}
	s.people.mu.Unlock()
	s.people.wg.Wait()
}

// mineToPlay finds the author's person game the path's {id} names; another's is 404.
func (s *Service) mineToPlay(r *http.Request) (*personGame, store.Author, *refusal) {
	a, rf := s.author(r)
	if rf != nil {
		return nil, a, rf
	}
	s.people.mu.Lock()
	pg := s.people.games[r.PathValue("id")]
	s.people.mu.Unlock()
	if pg == nil || pg.author != a.ID {
		return nil, a, refuse(http.StatusNotFound, "no game of yours by that name (games are kept while the ladder runs)")
	}
	return pg, a, nil
}

// personRoutes mounts the person games' pages: the start form and its post, a game's
// page, its stream and its choices. They are the browser's, by the session.
func (s *Service) personRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /play", s.playPage)
	mux.HandleFunc("POST /play", s.playStart)
	mux.HandleFunc("GET /play/{id}", s.personPage)
	mux.HandleFunc("GET /play/{id}/events", s.personEvents)
	mux.HandleFunc("POST /play/{id}/choose", s.personChoose)
	mux.HandleFunc("POST /play/{id}/end", func(w http.ResponseWriter, r *http.Request) {
		pg, _, rf := s.mineToPlay(r)
		if rf != nil {
			s.errorPage(w, r, rf)
			return
		}
		pg.cancel()
		http.Redirect(w, r, "/play/"+pg.id, http.StatusSeeOther)
	})
}

// playData is the start page: the active bots, the seats, the author's games.
type playData struct {
	Author   string
	Bots     []store.Bot
	Seats    []int
	Opponent []int // the form's opponent slots
	CSRF     string
	Games    []personView
	Limit    int
	Off      bool
}

type personView struct {
	ID, Names, State string
}

func (s *Service) playPage(w http.ResponseWriter, r *http.Request) {
	d := playData{Limit: s.cfg.Limits.PersonGames, Off: s.cfg.Launch == nil}
	a, c, rf := s.who(r)
	if rf == nil {
		d.Author = a.Name
		if c.session != "" {
			d.CSRF = s.csrf(c.session)
		}
		all, err := s.cfg.Store.Bots(r.Context(), false)
		if err != nil {
			s.errorPage(w, r, internal(err))
			return
		}
		d.Bots = all
		if spec, err := engine.Lookup(engine.VariantGame(s.cfg.Game)); err == nil {
			for i := range spec.MaxPlayers {
				d.Seats = append(d.Seats, i)
				if i < spec.MaxPlayers-1 {
					d.Opponent = append(d.Opponent, i)
				}
			}
		}
		for _, g := range s.people.of(a.ID) {
			d.Games = append(d.Games, g.view())
		}
	}
	s.renderWatch(w, r, "play", d)
}

func (pg *personGame) view() personView {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	state := fmt.Sprintf("under way, %d decisions", len(pg.steps)-1)
	switch {
	case pg.result != nil:
		state = fmt.Sprintf("finished: you placed %d", pg.result.Place[pg.seat]+1)
	case pg.done:
		state = pg.ended
	}
	names := ""
	for i, n := range pg.names {
		if i > 0 {
			names += ", "
		}
		names += n
	}
	return personView{ID: pg.id, Names: names, State: state}
}

// playStart starts a game from the form: bot (one per opponent slot, empty for none,
// the seats in order around the person's) and seat.
func (s *Service) playStart(w http.ResponseWriter, r *http.Request) {
	a, rf := s.author(r)
	if rf != nil {
		s.errorPage(w, r, rf)
		return
	}
	active, err := s.cfg.Store.Bots(r.Context(), false)
	if err != nil {
		s.errorPage(w, r, internal(err))
		return
	}
	var bots []store.Bot
	for _, v := range r.Form["bot"] {
		if v == "" {
			continue
		}
		id, _ := strconv.ParseInt(v, 10, 64)
		i := slices.IndexFunc(active, func(b store.Bot) bool { return b.ID == id })
		if i < 0 {
			s.errorPage(w, r, refuse(http.StatusBadRequest, "choose active bots of the ladder"))
			return
		}
		bots = append(bots, active[i])
	}
	seat, err := strconv.Atoi(r.FormValue("seat"))
	if err != nil {
		seat = -1
	}
	pg, rf := s.startPerson(a, bots, seat)
	if rf != nil {
		s.errorPage(w, r, rf)
		return
	}
	http.Redirect(w, r, "/play/"+pg.id, http.StatusSeeOther)
}

// personPage is the watch page of a person's game, fed by its stream.
func (s *Service) personPage(w http.ResponseWriter, r *http.Request) {
	pg, _, rf := s.mineToPlay(r)
	if rf != nil {
		s.errorPage(w, r, rf)
		return
	}
	c, _ := credentials(r)
	s.renderWatch(w, r, "watch", watchData{Game: pg.game, Bots: pg.names, Seat: pg.seat, Person: pg.id, CSRF: s.csrf(c.session)})
}

// personEvents streams a person's game from the person's seat: "game", then every
// "step" (with the person's options at their decisions) and "forfeit", and at the
// end "result" or "ended".
func (s *Service) personEvents(w http.ResponseWriter, r *http.Request) {
	pg, _, rf := s.mineToPlay(r)
	if rf != nil {
		s.fail(w, r, rf)
		return
	}
	ev, rf := s.stream(w, r)
	if rf != nil {
		s.fail(w, r, rf)
		return
	}
	defer ev.close()
	ev.send("game", watch.Game{Game: pg.game, Players: len(pg.names), Bots: pg.names, Seat: pg.seat})
	sent, told := 0, 0
	tick := time.NewTicker(liveKeepAlive)
	defer tick.Stop()
	for {
		pg.mu.Lock()
		steps, forfeits, changed := pg.steps[sent:], pg.forfeits[told:], pg.changed
		done, res, ended := pg.done, pg.result, pg.ended
		pg.mu.Unlock()
		for _, st := range steps {
			if !ev.send("step", st) {
				return
			}
		}
		for _, f := range forfeits {
			ev.send("forfeit", f)
		}
		sent, told = sent+len(steps), told+len(forfeits)
		if done {
			if res != nil {
				ev.send("result", res)
			} else {
				ev.send("ended", ended)
			}
			return
		}
		select {
		case <-changed:
		case <-tick.C:
			if !ev.keepAlive() {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}

// personChoose takes the person's choice: step and option, 204 when the game took it,
// 409 when it is not theirs to make.
func (s *Service) personChoose(w http.ResponseWriter, r *http.Request) {
	pg, _, rf := s.mineToPlay(r)
	if rf != nil {
		s.fail(w, r, rf)
		return
	}
	step, err1 := strconv.Atoi(r.FormValue("step"))
	option, err2 := strconv.Atoi(r.FormValue("option"))
	if err1 != nil || err2 != nil {
		s.fail(w, r, refuse(http.StatusBadRequest, "a choice is a step and an option, two numbers"))
		return
	}
	if err := pg.choose(r.Context(), step, option); err != nil {
		s.fail(w, r, refuse(http.StatusConflict, err.Error()))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// playSource is the start page of a person's game, of the watch page's template set.
const playSource = `
{{define "play"}}{{template "head" .}}{{with .Data}}<h2>Play the ladder's bots yourself</h2>
{{if .Off}}<p>This ladder offers no games for people.</p>
{{else if not .Author}}<p id="nologin"><a href="/login">Log in</a> as an author to play the ladder's bots in your browser.</p>
{{else}}<form method="post" action="/play" id="start"><input type="hidden" name="csrf" value="{{.CSRF}}">
<p>Your opponents, in seat order around yours (the same bot may sit more than once):</p>
{{range $i, $_ := .Opponent}}<label>opponent {{$i}} <select name="bot" id="bot{{$i}}">{{if $i}}<option value="">(none)</option>{{end}}{{range $.Data.Bots}}<option value="{{.ID}}">{{.Name}} v{{.Version}}</option>{{end}}</select></label><br>
{{end}}<label>your seat <select name="seat" id="seat">{{range .Seats}}<option value="{{.}}">seat {{.}}</option>{{end}}</select></label>
<button id="playbutton">play</button></form>
<p class="note"><b>Unrated:</b> a game of yours counts in no standing and is not recorded on the ladder. The deal is fresh; the bots run as they run on the ladder (the same sandbox and clock); you have no time limit. At most {{.Limit}} games of yours at once; your last finished ones stay here while the ladder runs.</p>
{{if .Games}}<h3>Your games</h3><table id="mygames"><tr><th>game</th><th>seats</th><th>state</th></tr>
{{range .Games}}<tr><td><a href="/play/{{.ID}}">{{printf "%.8s" .ID}}</a></td><td>{{.Names}}</td><td>{{.State}}</td></tr>{{end}}</table>{{end}}
{{end}}{{end}}{{template "foot"}}{{end}}
`
