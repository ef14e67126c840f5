package kardinal

import (
	"errors"
	"fmt"

	"github.com/arena-games/arena/engine"
)

// Name is the game's registry name.
const Name = "kardinal"

// MaxDecisions is the decision bound after which a game is adjudicated (K14).
const MaxDecisions = 5000

// Spec is the game's entry for the registry (package games registers it, with Options
// and PrepareOptions).
func Spec() engine.Spec {
	return engine.Spec{
		Name:         Name,
		MinPlayers:   MinPlayers,
		MaxPlayers:   MaxPlayers,
		MaxDecisions: MaxDecisions,
		New: func(seed uint64, players int) (engine.Game, error) {
			g, err := New(seed, players)
			if err != nil {
				return nil, err // not a typed nil inside the interface
			}
			return g, nil
		},
	}
}

// state is everything that makes up a position, as value arrays so that copying it is
// a complete, independent snapshot (Clone) and hashing it needs no allocation.
type state struct {
	players, start, toMove int8
	phase                  Phase
	hands                  [MaxPlayers][NumKinds]uint8
	faceUp                 [NumKinds]uint8
	pile                   [DeckSize]uint8 // the top card is pile[pileLen-1]
	pileLen                uint8
	discard                [NumKinds]uint8
	removed                uint8 // cards of each kind left in the box (K1)
	table                  Table
	monSupply, advSupply   [MaxPlayers]uint8
	score                  [MaxPlayers]int16
	exhaustions            uint8 // how often the draw pile has run out (K8, K10)
	turnCountry            Country
	turnPieces, turnCards  uint8
	turnOpened             bool // the turn's country was empty before its first piece (K3)
	over, adjudicated      bool
	decisions              int32
	rnd                    engine.Rand
}

// Game is a game of Kardinal und König in progress; it implements engine.Game.
type Game struct {
	state
	board *Board
	log   []engine.Event
	opts  []engine.Option
}

var _ engine.Game = (*Game)(nil)

// New starts a game on the default board for 3 to 5 players (K1).
func New(seed uint64, players int) (*Game, error) {
	return NewOnBoard(DefaultBoard(), seed, players)
}

// NewOnBoard starts a game on another board.
func NewOnBoard(board *Board, seed uint64, players int) (*Game, error) {
	if players < MinPlayers || players > MaxPlayers {
		return nil, fmt.Errorf("kardinal is played by %d to %d players, not %d", MinPlayers, MaxPlayers, players)
	}
	if board == nil {
		return nil, errors.New("kardinal: no board")
	}
	g := &Game{}
	g.reset(board, seed, players)
	return g, nil
}

// reset starts a new game in g, reusing its buffers. Clones share the log's backing
// array, so only a game that was never cloned may be reset (benchmarks do).
func (g *Game) reset(board *Board, seed uint64, players int) {
	if g.log == nil {
		g.log = make([]engine.Event, 0, 1024)
		g.opts = make([]engine.Option, 0, 160)
	}
	g.state = state{}
	g.board, g.log, g.opts = board, g.log[:0], g.opts[:0]
	g.players = int8(players)
	g.rnd = engine.NewRand(seed)
	g.removed = uint8(Removed(players))
	for k := Kind(0); k < NumKinds; k++ {
		for i := 0; i < k.Count()-int(g.removed); i++ {
			g.pile[g.pileLen] = uint8(k)
			g.pileLen++
		}
	}
	g.rnd.ShuffleBytes(g.pile[:g.pileLen])
	g.start = int8(g.rnd.Intn(players))
	for s := 0; s < players; s++ {
		g.monSupply[s] = MonasteriesPerPlayer
		g.advSupply[s] = AdvisorsPerPlayer
	}
	g.emit(EvStart, engine.Everyone, int(g.start), int(g.removed), 0, 0)
	for s := 0; s < players; s++ {
		seat := (int(g.start) + s) % players
		for i := 0; i < HandSize; i++ {
			g.drawToHand(seat, EvDeal)
		}
	}
	g.refillFaceUp()
	g.beginTurn(int(g.start))
	g.computeOptions()
}

func (g *Game) emit(k EventKind, aud engine.Audience, seat, a, b, c int) {
	g.log = append(g.log, engine.Event{Kind: uint8(k), Audience: aud, Seat: int8(seat), A: int16(a), B: int16(b), C: int16(c)})
}

// Board is the board the game is played on.
func (g *Game) Board() *Board { return g.board }

// Name is "kardinal".
func (g *Game) Name() string { return Name }

// Players is the number of seats.
func (g *Game) Players() int { return int(g.players) }

// ToMove is the seat owing the pending decision, or engine.NoSeat when the game is over.
func (g *Game) ToMove() int {
	if g.over {
		return engine.NoSeat
	}
	return int(g.toMove)
}

// Options lists the legal options; the slice is reused by the next Apply.
func (g *Game) Options() []engine.Option { return g.opts }

// Terminal reports whether the game is over.
func (g *Game) Terminal() bool { return g.over }

// Decisions is the number of options applied so far.
func (g *Game) Decisions() int { return int(g.decisions) }

// Log is every event so far.
func (g *Game) Log() []engine.Event { return g.log }

// Clone returns an independent copy. The log is shared up to its current length (the
// copy appends into a fresh array), so cloning costs one state copy and the options.
func (g *Game) Clone() engine.Game {
	c := &Game{state: g.state, board: g.board, log: g.log[:len(g.log):len(g.log)]}
	c.opts = append(make([]engine.Option, 0, cap(g.opts)), g.opts...)
	return c
}

// Apply plays Options()[i].
func (g *Game) Apply(i int) error {
	if i < 0 || i >= len(g.opts) {
		return engine.IllegalIndex(i, len(g.opts))
	}
	o := g.opts[i]
	g.decisions++
	switch OptionKind(o.Kind) {
	case Place:
		p, _ := AsPlacement(o)
		g.place(p)
	case Stop:
		g.startRefill()
	case Take:
		g.take(int(o.A))
		g.continueRefill()
	case Exchange:
		seat := int(g.toMove)
		k := Kind(o.A)
		g.hands[seat][k]--
		g.discard[k]++
		g.emit(EvDiscard, engine.Everyone, seat, int(k), 0, 0)
		g.take(int(o.B))
		g.refillFaceUp()
		g.endTurn()
	case Pass:
		g.emit(EvPass, engine.Everyone, int(g.toMove), 0, 0, 0)
		g.endTurn()
	}
	if !g.over && int(g.decisions) >= MaxDecisions {
		g.adjudicate()
	}
	g.computeOptions()
	return nil
}

func (g *Game) beginTurn(seat int) {
	g.toMove = int8(seat)
	g.phase = PhaseTurn
	g.turnCountry = NoCountry
	g.turnPieces, g.turnCards, g.turnOpened = 0, 0, false
}

func (g *Game) place(p Placement) {
	seat := int(g.toMove)
	cost := uint8(p.Cards())
	g.hands[seat][p.Kind] -= cost
	g.discard[p.Kind] += cost
	g.turnCards += cost
	if g.turnPieces == 0 {
		g.turnCountry = p.Country
		g.turnOpened = g.table.Empty(p.Country)
	}
	if p.Advisor() {
		g.table.PlaceAdvisor(p.Country, seat)
		g.advSupply[seat]--
	} else {
		g.table.PlaceMonastery(g.board, seat, p.Space)
		g.monSupply[seat]--
	}
	g.turnPieces++
	pay := int(p.Kind) * 2
	if p.Joker {
		pay++
	}
	g.emit(EvPlace, engine.Everyone, seat, int(p.Country), p.Space, pay)
	// K2/K3: a second piece only in a country that had pieces before this turn. The
	// decision is asked whenever that holds and cards are left, even if only Stop is
	// legal: skipping it would tell the other seats what the hand cannot do.
	if g.turnPieces == 1 && !g.turnOpened && g.handSize(seat) > 0 {
		g.phase = PhaseSecond
		return
	}
	g.startRefill()
}

func (g *Game) startRefill() {
	g.phase = PhaseRefill
	g.continueRefill()
}

// continueRefill ends the turn once the hand is full or nothing is left to take (K6).
func (g *Game) continueRefill() {
	if g.handSize(int(g.toMove)) >= HandSize || (g.pileLen == 0 && g.faceUpSize() == 0) {
		g.refillFaceUp()
		g.endTurn()
	}
}

// take gives the seat on turn a face-up card of kind from, or the top of the pile.
func (g *Game) take(from int) {
	seat := int(g.toMove)
	if from == FromPile {
		g.drawToHand(seat, EvDraw)
		return
	}
	g.faceUp[from]--
	g.hands[seat][from]++
	g.emit(EvTakeFaceUp, engine.Everyone, seat, from, 0, 0)
}

func (g *Game) handSize(seat int) int {
	n := 0
	for _, c := range g.hands[seat] {
		n += int(c)
	}
	return n
}

func (g *Game) faceUpSize() int {
	n := 0
	for _, c := range g.faceUp {
		n += int(c)
	}
	return n
}

// drawToHand moves the top of the pile into seat's hand: everyone sees that a card was
// drawn (ev), only the seat sees which.
func (g *Game) drawToHand(seat int, ev EventKind) {
	if g.pileLen == 0 {
		return
	}
	g.pileLen--
	k := g.pile[g.pileLen]
	g.hands[seat][k]++
	g.emit(ev, engine.Everyone, seat, 0, 0, 0)
	g.emit(EvDrawCard, engine.Only(seat), seat, int(k), 0, 0)
	g.afterPileDraw()
}

// refillFaceUp turns cards from the pile until two lie face up (K6, K7).
func (g *Game) refillFaceUp() {
	for g.faceUpSize() < FaceUpSize && g.pileLen > 0 {
		g.pileLen--
		k := g.pile[g.pileLen]
		g.faceUp[k]++
		g.emit(EvFaceUp, engine.Everyone, engine.NoSeat, int(k), 0, 0)
		g.afterPileDraw()
	}
}

// afterPileDraw handles the pile running out (K8, K10).
func (g *Game) afterPileDraw() {
	if g.pileLen > 0 {
		return
	}
	g.exhaustions++
	switch g.exhaustions {
	case 1:
		g.emit(EvInterim, engine.Everyone, engine.NoSeat, 0, 0, 0)
		g.scoreMonasteries()
		g.reshuffle()
		if g.pileLen == 0 {
			// Nothing to reshuffle: the pile has run out for good.
			g.exhaustions = 2
			g.emit(EvLastRound, engine.Everyone, engine.NoSeat, 0, 0, 0)
		}
	case 2:
		g.emit(EvLastRound, engine.Everyone, engine.NoSeat, 0, 0, 0)
	}
}

func (g *Game) reshuffle() {
	n := 0
	for k := Kind(0); k < NumKinds; k++ {
		for ; g.discard[k] > 0; g.discard[k]-- {
			g.pile[n] = uint8(k)
			n++
		}
	}
	g.rnd.ShuffleBytes(g.pile[:n])
	g.pileLen = uint8(n)
	g.emit(EvReshuffle, engine.Everyone, engine.NoSeat, n, 0, 0)
}

func (g *Game) scoreMonasteries() {
	for _, c := range g.board.order {
		pts := g.table.CountryPoints(c, int(g.players))
		for s := 0; s < int(g.players); s++ {
			if pts[s] > 0 {
				g.score[s] += int16(pts[s])
				g.emit(EvCountryScore, engine.Everyone, s, pts[s], int(c), 0)
			}
		}
	}
}

func (g *Game) endTurn() {
	seat := int(g.toMove)
	n := int(g.players)
	switch {
	case g.exhaustions >= 2 && seat == (int(g.start)+n-1)%n:
		g.finish(false)
	case !g.anyoneCanPlace():
		g.finish(true)
	default:
		g.beginTurn((seat + 1) % n)
	}
}

// anyoneCanPlace reports whether some seat still has a piece that fits somewhere,
// whatever the cards (K10's "no player can place any piece").
func (g *Game) anyoneCanPlace() bool {
	for s := 0; s < int(g.players); s++ {
		for c := Country(0); c < NumCountries; c++ {
			if g.monSupply[s] > 0 && g.table.FreeSpaces(g.board, c) > 0 {
				return true
			}
			if g.advSupply[s] > 0 && g.table.CanTakeAdvisor(c) {
				return true
			}
		}
	}
	return false
}

// finish ends the game with the final scoring (K10): monasteries, alliances, chains.
func (g *Game) finish(blocked bool) {
	b := 0
	if blocked {
		b = 1
	}
	g.emit(EvGameOver, engine.Everyone, engine.NoSeat, b, 0, 0)
	g.scoreMonasteries()
	for _, a := range g.board.alliances {
		pts := g.table.AlliancePoints(a, int(g.players))
		for s := 0; s < int(g.players); s++ {
			if pts[s] > 0 {
				g.score[s] += int16(pts[s])
				g.emit(EvAllianceScore, engine.Everyone, s, pts[s], a.Number, 0)
			}
		}
	}
	var buf [MaxSpaces]int
	for s := 0; s < int(g.players); s++ {
		for _, n := range g.table.Chains(g.board, s, buf[:0]) {
			if n >= MinChain {
				g.score[s] += int16(n)
				g.emit(EvChainScore, engine.Everyone, s, n, 0, 0)
			}
		}
	}
	g.end()
}

func (g *Game) end() {
	g.over = true
	g.phase = PhaseOver
	g.toMove = engine.NoSeat
}

// adjudicate ends the game at the decision bound with the score as it stands (K14).
func (g *Game) adjudicate() {
	g.adjudicated = true
	g.emit(EvAdjudicated, engine.Everyone, engine.NoSeat, int(g.decisions), 0, 0)
	g.end()
}

// Result ranks the seats by K13: points, then pieces left in supply; remaining ties
// share a place.
func (g *Game) Result() engine.Result {
	n := int(g.players)
	key := make([]int, n)
	score := make([]int, n)
	for s := 0; s < n; s++ {
		score[s] = int(g.score[s])
		key[s] = score[s]*64 + int(g.monSupply[s]) + int(g.advSupply[s])
	}
	return engine.Result{Place: engine.PlacesByScore(key, engine.NoSeat), Score: score, Adjudicated: g.adjudicated}
}

// Fallback is the cautious default for a forfeited seat: on a turn, exchange (the
// lowest kind held, for the top of the pile when there is one) and place nothing; pass
// when even that is impossible; after a first piece, stop; when refilling, draw from
// the pile (a face-up card when the pile is empty).
func (g *Game) Fallback() int {
	for i, o := range g.opts {
		switch OptionKind(o.Kind) {
		case Exchange, Stop, Pass, Take:
			return i
		}
	}
	return 0
}

// computeOptions lists the legal options of the pending decision into the reused
// buffer, in a fixed order: placements by country, space (advisors last), payment
// (one card first, then jokers by kind); then exchanges by discarded kind, pile first.
func (g *Game) computeOptions() {
	g.opts = g.opts[:0]
	if g.over {
		return
	}
	seat := int(g.toMove)
	switch g.phase {
	case PhaseTurn:
		for c := Country(0); c < NumCountries; c++ {
			g.addPlacements(seat, c)
		}
		if g.pileLen > 0 || g.faceUpSize() > 0 {
			for k := Kind(0); k < NumKinds; k++ {
				if g.hands[seat][k] == 0 {
					continue
				}
				if g.pileLen > 0 {
					g.opts = append(g.opts, ExchangeOption(k, FromPile))
				}
				for f := Kind(0); f < NumKinds; f++ {
					if g.faceUp[f] > 0 {
						g.opts = append(g.opts, ExchangeOption(k, int(f)))
					}
				}
			}
		}
		if len(g.opts) == 0 {
			g.opts = append(g.opts, PassOption())
		}
	case PhaseSecond:
		g.addPlacements(seat, g.turnCountry)
		g.opts = append(g.opts, StopOption())
	case PhaseRefill:
		if g.pileLen > 0 {
			g.opts = append(g.opts, TakeOption(FromPile))
		}
		for f := Kind(0); f < NumKinds; f++ {
			if g.faceUp[f] > 0 {
				g.opts = append(g.opts, TakeOption(int(f)))
			}
		}
	}
}

// addPlacements lists seat's legal placements in country c (K2-K5).
func (g *Game) addPlacements(seat int, c Country) {
	type payment struct {
		kind  Kind
		joker bool
	}
	var pays [1 + NumKinds]payment
	np := 0
	budget := 3 - int(g.turnCards)
	hand := &g.hands[seat]
	if k := kindOf[c]; hand[k] > 0 && budget >= 1 {
		pays[np] = payment{k, false}
		np++
	}
	if budget >= 2 {
		for k := Kind(0); k < NumKinds; k++ {
			if hand[k] >= 2 {
				pays[np] = payment{k, true}
				np++
			}
		}
	}
	if np == 0 {
		return
	}
	if g.monSupply[seat] > 0 {
		for _, sp := range g.board.SpacesOf(c) {
			if g.table.Owner[sp] != 0 {
				continue
			}
			for _, p := range pays[:np] {
				g.opts = append(g.opts, PlaceOption(c, int(sp), p.kind, p.joker))
			}
		}
	}
	if g.advSupply[seat] > 0 && g.table.CanTakeAdvisor(c) {
		for _, p := range pays[:np] {
			g.opts = append(g.opts, PlaceOption(c, NoSpace, p.kind, p.joker))
		}
	}
}

// Hash digests the whole state, hidden cards and the random source included.
func (g *Game) Hash() uint64 {
	h := engine.NewHasher()
	s := &g.state
	if g.board.digest != defaultBoard.digest {
		// Another board is part of the state. The default board adds nothing, so that
		// replays recorded before boards were hashed still reproduce.
		h.U64(g.board.digest)
	}
	h.Byte(uint8(s.players))
	h.Byte(uint8(s.start))
	h.Byte(uint8(s.toMove))
	h.Byte(uint8(s.phase))
	for p := 0; p < int(s.players); p++ {
		h.Bytes(s.hands[p][:])
		h.Byte(s.monSupply[p])
		h.Byte(s.advSupply[p])
		h.Int(int(s.score[p]))
	}
	h.Bytes(s.faceUp[:])
	h.Bytes(s.pile[:s.pileLen])
	h.Bytes(s.discard[:])
	h.Byte(s.removed)
	h.Bytes(s.table.Owner[:g.board.spaces])
	for c := 0; c < int(NumCountries); c++ {
		h.Bytes(s.table.Advisors[c][:])
	}
	h.Byte(s.exhaustions)
	h.Byte(uint8(s.turnCountry))
	h.Byte(s.turnPieces)
	h.Byte(s.turnCards)
	h.Bool(s.turnOpened)
	h.Bool(s.over)
	h.Bool(s.adjudicated)
	h.Int(int(s.decisions))
	s.rnd.Hash(&h)
	return h.Sum()
}
