package ivanhoe

import (
	"fmt"

	"github.com/arena-games/arena/engine"
)

// Limits of the game.
const (
	MinPlayers = 2
	MaxPlayers = 5
	// MaxDecisions is the decision bound of R27.
	MaxDecisions = 20000
	// HandSize is the number of cards dealt to each player (R1).
	HandSize = 8
	// maxDisplay bounds a display: only the 90 colour and supporter cards can be in one.
	maxDisplay = 90
	// maxFailedStarts guards the R7 rotation; see the package doc.
	maxFailedStarts = 1000
)

// Spec is the game's entry for the registry (package games registers it).
func Spec() engine.Spec {
	return engine.Spec{
		Name: "ivanhoe", MinPlayers: MinPlayers, MaxPlayers: MaxPlayers, MaxDecisions: MaxDecisions,
		New: func(seed uint64, players int) (engine.Game, error) { return New(seed, players) },
	}
}

type display struct {
	n     uint8
	cards [maxDisplay]Card
}

func (d *display) slice() []Card { return d.cards[:d.n] }

func (d *display) push(c Card) {
	d.cards[d.n] = c
	d.n++
}

// remove takes out the card at position i, keeping the order of the others.
func (d *display) remove(i int) Card {
	c := d.cards[i]
	copy(d.cards[i:d.n], d.cards[i+1:d.n])
	d.n--
	return c
}

func (d *display) hasMaiden() bool {
	for _, c := range d.slice() {
		if c == Maiden {
			return true
		}
	}
	return false
}

// Game is one game of Ivanhoe. The zero value is not usable; call New.
type Game struct {
	players int
	rnd     engine.Rand
	phase   Phase
	toMove  int

	dealer  int
	starter int
	// turn is the seat whose turn it is; during a reaction or Adapt it is the actor.
	turn        int
	colour      Colour
	lastPurple  bool
	tournaments int

	hands    [MaxPlayers][NumCards]uint8
	handSize [MaxPlayers]int
	disp     [MaxPlayers]display
	in       [MaxPlayers]bool
	entered  [MaxPlayers]bool
	tokens   [MaxPlayers][NumColours]bool
	pool     [NumColours]int
	shield   int
	stunned  int

	draw     [DeckSize]Card
	drawN    int
	discard  [NumCards]uint8
	discardN int

	// played and added count, for the seat on turn, cards played at all and cards put
	// into the display this turn (R3, R14); first marks a starter yet to play (R8).
	played, added int
	first         bool

	// The action waiting for an Ivanhoe answer (R23).
	pending   Card
	pendingBy int
	pendArgs  [3]int

	// Adapt (R21): the value being asked of toMove.
	adaptValue int

	winner      int
	adjudicated bool
	decisions   int

	opts      []engine.Option
	optsValid bool
	log       []engine.Event
}

// New deals a game for players seats (R1).
func New(seed uint64, players int) (*Game, error) {
	if players < MinPlayers || players > MaxPlayers {
		return nil, fmt.Errorf("ivanhoe is played by %d to %d players, not %d", MinPlayers, MaxPlayers, players)
	}
	g := &Game{}
	g.reset(seed, players)
	return g, nil
}

// Reset starts a new game in g, reusing its buffers: benchmarks and search bots replay
// many games without allocating.
func (g *Game) Reset(seed uint64) { g.reset(seed, g.players) }

func (g *Game) reset(seed uint64, players int) {
	opts, log := g.opts[:0], g.log[:0]
	*g = Game{players: players, rnd: engine.NewRand(seed), opts: opts, log: log}
	g.shield, g.stunned, g.winner = engine.NoSeat, engine.NoSeat, engine.NoSeat
	g.pending = NoCard
	for c := range g.pool {
		g.pool[c] = 5
	}
	for c := Card(0); c < NumCards; c++ {
		for i := 0; i < c.Count(); i++ {
			g.draw[g.drawN] = c
			g.drawN++
		}
	}
	engine.Shuffle(&g.rnd, g.draw[:g.drawN])
	g.dealer = g.rnd.Intn(players)
	for i := 1; i <= players; i++ {
		s := (g.dealer + i) % players
		for k := 0; k < HandSize; k++ {
			g.drawCard(s, false)
		}
		g.emit(EvDeal, engine.Everyone, s, HandSize, 0, 0)
	}
	g.startTournament(g.next(g.dealer, false))
}

// Name is "ivanhoe".
func (g *Game) Name() string { return "ivanhoe" }

// Players is the number of seats.
func (g *Game) Players() int { return g.players }

// ToMove is the seat owing the pending decision.
func (g *Game) ToMove() int {
	if g.phase == PhaseOver {
		return engine.NoSeat
	}
	return g.toMove
}

// Terminal reports whether the game is over.
func (g *Game) Terminal() bool { return g.phase == PhaseOver }

// Decisions is the number of options applied.
func (g *Game) Decisions() int { return g.decisions }

// Log is the event log.
func (g *Game) Log() []engine.Event { return g.log }

// Phase is the kind of the pending decision.
func (g *Game) Phase() Phase { return g.phase }

// Colour is the current tournament colour.
func (g *Game) Colour() Colour { return g.colour }

// Total is seat's display total under the current colour.
func (g *Game) Total(seat int) int { return total(g.disp[seat].slice(), g.colour) }

// InTournament reports whether seat is still in the present tournament.
func (g *Game) InTournament(seat int) bool { return g.in[seat] }

// Tokens reports the colours of token seat holds.
func (g *Game) Tokens(seat int) [NumColours]bool { return g.tokens[seat] }

// Held is the number of cards in seat's hand.
func (g *Game) Held(seat int) int { return g.handSize[seat] }

// Winner is the seat that won the game, or NoSeat.
func (g *Game) Winner() int { return g.winner }

// Result ranks the game winner first, then by tokens held (R28).
func (g *Game) Result() engine.Result {
	score := make([]int, g.players)
	for s := range score {
		score[s] = g.tokenCount(s)
	}
	return engine.Result{Place: engine.PlacesByScore(score, g.winner), Score: score, Adjudicated: g.adjudicated}
}

// Clone returns an independent copy.
func (g *Game) Clone() engine.Game {
	c := *g
	c.opts = make([]engine.Option, 0, cap(g.opts))
	c.optsValid = false
	c.log = append(make([]engine.Event, 0, len(g.log)+64), g.log...)
	return &c
}

func (g *Game) emit(k EventKind, aud engine.Audience, seat, a, b, c int) {
	g.log = append(g.log, engine.Event{Kind: uint8(k), Audience: aud, Seat: int8(seat), A: int16(a), B: int16(b), C: int16(c)})
}

// next is the next seat clockwise from s; inOnly skips seats out of the tournament.
func (g *Game) next(s int, inOnly bool) int {
	for i := 1; i <= g.players; i++ {
		t := (s + i) % g.players
		if !inOnly || g.in[t] {
			return t
		}
	}
	return s
}

func (g *Game) tokenCount(s int) int {
	n := 0
	for _, h := range g.tokens[s] {
		if h {
			n++
		}
	}
	return n
}

// tokensToWin is five colours with 2-3 players, four with 4-5.
func (g *Game) tokensToWin() int {
	if g.players <= 3 {
		return 5
	}
	return 4
}

// drawCard moves the top of the draw pile to seat's hand, reshuffling the discard pile
// into a new draw pile when the draw pile is empty, and skipping the draw when both are
// empty (R2).
func (g *Game) drawCard(s int, announce bool) {
	if g.drawN == 0 {
		if g.discardN == 0 {
			return
		}
		for c := Card(0); c < NumCards; c++ {
			for ; g.discard[c] > 0; g.discard[c]-- {
				g.draw[g.drawN] = c
				g.drawN++
			}
		}
		g.discardN = 0
		engine.Shuffle(&g.rnd, g.draw[:g.drawN])
		g.emit(EvReshuffle, engine.Everyone, engine.NoSeat, g.drawN, 0, 0)
	}
	g.drawN--
	c := g.draw[g.drawN]
	g.hands[s][c]++
	g.handSize[s]++
	if announce {
		g.emit(EvDraw, engine.Everyone, s, 0, 0, 0)
	}
	g.emit(EvDrawCard, engine.Only(s), s, int(c), 0, 0)
}

func (g *Game) toDiscard(c Card) {
	g.discard[c]++
	g.discardN++
}

func (g *Game) fromHand(s int, c Card) {
	g.hands[s][c]--
	g.handSize[s]--
}

func (g *Game) toHand(s int, c Card) {
	g.hands[s][c]++
	g.handSize[s]++
}

// startTournament lets s start a tournament, passing the start clockwise while the
// starter cannot name a colour (R6, R7).
func (g *Game) startTournament(s int) {
	g.tournaments++
	g.colour = NoColour
	for t := 0; t < g.players; t++ {
		g.in[t] = true
		g.entered[t] = false
	}
	for tries := 0; ; tries++ {
		if tries == maxFailedStarts {
			g.adjudicate()
			return
		}
		g.emit(EvStarter, engine.Everyone, s, g.tournaments, 0, 0)
		g.drawCard(s, true)
		if g.canStart(s) {
			g.starter, g.turn, g.toMove, g.phase = s, s, s, PhaseChooseColour
			return
		}
		for c := Card(0); c < NumCards; c++ {
			if g.hands[s][c] > 0 {
				g.emit(EvRevealHand, engine.Everyone, s, int(c), int(g.hands[s][c]), 0)
			}
		}
		s = g.next(s, false)
	}
}

func (g *Game) hasSupporter(s int) bool {
	return g.hands[s][Squire2]+g.hands[s][Squire3]+g.hands[s][Maiden] > 0
}

// colourAllowed is R6 for one colour.
func (g *Game) colourAllowed(s int, col Colour) bool {
	if col == Purple && g.lastPurple {
		return false
	}
	if g.hasSupporter(s) {
		return true
	}
	for c := Card(0); c <= Green1; c++ {
		if c.Colour() == col && g.hands[s][c] > 0 {
			return true
		}
	}
	return false
}

func (g *Game) canStart(s int) bool {
	for col := Colour(0); col < NumColours; col++ {
		if g.colourAllowed(s, col) {
			return true
		}
	}
	return false
}

// startTurn begins s's turn with a draw (R2).
func (g *Game) startTurn(s int) {
	g.turn, g.toMove, g.phase = s, s, PhaseTurn
	g.played, g.added, g.first = 0, 0, false
	g.drawCard(s, true)
}

// withdraw takes s out of the tournament (R4), asking for a token back after a maiden
// (R25).
func (g *Game) withdraw(s int) {
	g.in[s] = false
	g.emit(EvWithdraw, engine.Everyone, s, 0, 0, 0)
	if g.disp[s].hasMaiden() && g.tokenCount(s) > 0 {
		g.phase, g.toMove = PhaseGiveBack, s
		return
	}
	g.afterWithdraw(s)
}

// clearTable discards s's display, Shield and Stunned (R26).
func (g *Game) clearTable(s int) {
	for _, c := range g.disp[s].slice() {
		g.toDiscard(c)
	}
	g.disp[s].n = 0
	if g.shield == s {
		g.shield = engine.NoSeat
		g.toDiscard(Shield)
	}
	if g.stunned == s {
		g.stunned = engine.NoSeat
		g.toDiscard(Stunned)
	}
}

// afterWithdraw ends the tournament when one player is left (R5), else passes the turn.
func (g *Game) afterWithdraw(s int) {
	g.clearTable(s)
	left, last := 0, 0
	for t := 0; t < g.players; t++ {
		if g.in[t] {
			left++
			last = t
		}
	}
	if left == 1 {
		g.winTournament(last)
		return
	}
	g.startTurn(g.next(s, true))
}

// winTournament awards the token of the final colour (R24).
func (g *Game) winTournament(w int) {
	g.emit(EvWinTournament, engine.Everyone, w, int(g.colour), 0, 0)
	if g.colour == Purple {
		g.phase, g.toMove = PhaseTakeToken, w
		return
	}
	g.award(w, g.colour)
}

func (g *Game) award(w int, col Colour) {
	if g.tokens[w][col] {
		g.emit(EvNoToken, engine.Everyone, w, int(col), 0, 0)
	} else {
		g.tokens[w][col] = true
		g.pool[col]--
		g.emit(EvToken, engine.Everyone, w, int(col), 0, 0)
	}
	g.lastPurple = g.colour == Purple
	g.clearTable(w)
	if g.tokenCount(w) >= g.tokensToWin() {
		g.winner = w
		g.phase = PhaseOver
		g.toMove = engine.NoSeat
		g.emit(EvWinGame, engine.Everyone, w, 0, 0, 0)
		return
	}
	g.startTournament(w)
}

func (g *Game) adjudicate() {
	g.adjudicated = true
	g.phase = PhaseOver
	g.toMove = engine.NoSeat
	g.emit(EvAdjudicated, engine.Everyone, engine.NoSeat, g.decisions, 0, 0)
}
