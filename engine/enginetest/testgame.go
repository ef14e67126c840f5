// Package enginetest is a tiny, fast, deterministic game for testing what drives games
// (the arena, the wire protocol, replays) without depending on a real game's rules.
// Importing it registers the game as "testgame"; nothing in the product imports it.
//
// The game: a pile of stones (10 to 19, from the seed) and a secret bonus of 0 to 3 per
// seat that only that seat knows. In turn, each seat takes 1, 2 or 3 stones (never more
// than are left). When the pile is empty a seat's score is the stones it took plus its
// bonus; the highest score comes first, ties share a place.
package enginetest

import (
	"fmt"
	"strings"

	"github.com/arena-games/arena/engine"
)

// Name is the registry name of the game.
const Name = "testgame"

// MaxPlayers is the most seats the game takes.
const MaxPlayers = 6

// Option kinds: Take has A = number of stones.
const Take uint8 = 1

// Event kinds. EvBonus: Seat learns its bonus A (Seat only). EvTake: Seat took A stones
// (public).
const (
	EvBonus uint8 = 1
	EvTake  uint8 = 2
)

func init() {
	engine.Register(engine.Spec{
		Name: Name, MinPlayers: 2, MaxPlayers: MaxPlayers, MaxDecisions: 64,
		New: func(seed uint64, players int) (engine.Game, error) { return New(seed, players) },
	})
}

// Game is a game of testgame in progress.
type Game struct {
	players   int
	pile      int
	toMove    int
	decisions int
	bonus     [MaxPlayers]int
	taken     [MaxPlayers]int
	rnd       engine.Rand
	opts      [3]engine.Option
	nopts     int
	log       []engine.Event
}

// New deals a game for players seats.
func New(seed uint64, players int) (*Game, error) {
	if players < 2 || players > MaxPlayers {
		return nil, fmt.Errorf("testgame is played by 2 to %d players, not %d", MaxPlayers, players)
	}
	g := &Game{players: players, rnd: engine.NewRand(seed)}
	g.pile = 10 + g.rnd.Intn(10)
	for s := 0; s < players; s++ {
		g.bonus[s] = g.rnd.Intn(4)
		g.log = append(g.log, engine.Event{Kind: EvBonus, Audience: engine.Only(s), Seat: int8(s), A: int16(g.bonus[s])})
	}
	g.toMove = g.rnd.Intn(players)
	g.list()
	return g, nil
}

func (g *Game) list() {
	g.nopts = 0
	for n := 1; n <= 3 && n <= g.pile; n++ {
		g.opts[g.nopts] = engine.Option{Kind: Take, A: int16(n)}
		g.nopts++
	}
}

// Name is "testgame".
func (g *Game) Name() string { return Name }

// Players is the number of seats.
func (g *Game) Players() int { return g.players }

// ToMove is the seat to take stones.
func (g *Game) ToMove() int {
	if g.Terminal() {
		return engine.NoSeat
	}
	return g.toMove
}

// Options are "take 1", "take 2", "take 3", as far as the pile allows.
func (g *Game) Options() []engine.Option { return g.opts[:g.nopts] }

// Apply takes Options()[i] stones.
func (g *Game) Apply(i int) error {
	if i < 0 || i >= g.nopts {
		return engine.IllegalIndex(i, g.nopts)
	}
	n := int(g.opts[i].A)
	g.pile -= n
	g.taken[g.toMove] += n
	g.log = append(g.log, engine.Event{Kind: EvTake, Audience: engine.Everyone, Seat: int8(g.toMove), A: int16(n)})
	g.toMove = (g.toMove + 1) % g.players
	g.decisions++
	g.list()
	return nil
}

// Fallback takes one stone.
func (g *Game) Fallback() int { return 0 }

// Describe puts an option into words.
func (g *Game) Describe(o engine.Option) string {
	if o.Kind != Take {
		return "unknown option"
	}
	return fmt.Sprintf("take %d", o.A)
}

// View is what a seat knows: the pile, what everyone took, its own bonus.
type View struct {
	Seat, Players, ToMove, Pile int
	Bonus                       int
	Taken                       []int
}

// ViewSeat is the seat the view belongs to.
func (v *View) ViewSeat() int { return v.Seat }

func (v *View) String() string {
	return fmt.Sprintf("seat %d of %d, pile %d, bonus %d, taken %v, seat %d to move", v.Seat, v.Players, v.Pile, v.Bonus, v.Taken, v.ToMove)
}

// View returns seat's view.
func (g *Game) View(seat int) engine.View {
	v := &View{Seat: seat, Players: g.players, ToMove: g.ToMove(), Pile: g.pile, Taken: append([]int(nil), g.taken[:g.players]...)}
	if seat >= 0 && seat < g.players {
		v.Bonus = g.bonus[seat]
	}
	return v
}

// Log is every event so far.
func (g *Game) Log() []engine.Event { return g.log }

// DescribeEvent puts an event into words.
func (g *Game) DescribeEvent(e engine.Event) string {
	switch e.Kind {
	case EvBonus:
		return fmt.Sprintf("seat %d has bonus %d", e.Seat, e.A)
	case EvTake:
		return fmt.Sprintf("seat %d takes %d", e.Seat, e.A)
	}
	return "unknown event"
}

// Terminal reports an empty pile.
func (g *Game) Terminal() bool { return g.pile == 0 }

// Result ranks seats by stones taken plus bonus.
func (g *Game) Result() engine.Result {
	score := make([]int, g.players)
	for s := range score {
		score[s] = g.taken[s] + g.bonus[s]
	}
	return engine.Result{Place: engine.PlacesByScore(score, engine.NoSeat), Score: score}
}

// Decisions is the number of options applied.
func (g *Game) Decisions() int { return g.decisions }

// Clone copies the game.
func (g *Game) Clone() engine.Game {
	c := *g
	c.log = append([]engine.Event(nil), g.log...)
	return &c
}

// Hash digests the whole state.
func (g *Game) Hash() uint64 {
	h := engine.NewHasher()
	h.Int(g.players)
	h.Int(g.pile)
	h.Int(g.toMove)
	h.Int(g.decisions)
	for s := 0; s < g.players; s++ {
		h.Int(g.bonus[s])
		h.Int(g.taken[s])
	}
	g.rnd.Hash(&h)
	return h.Sum()
}

// String renders the whole state, hidden parts included, for test failures.
func (g *Game) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pile %d, seat %d to move, taken %v, bonus %v", g.pile, g.toMove, g.taken[:g.players], g.bonus[:g.players])
	return b.String()
}
