package ninjas

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/arena-games/arena/engine"
)

// Table limits.
const (
	MinPlayers = 2
	MaxPlayers = 6
	// GemsEach is the number of gems each player starts with; WinGems wins (N12).
	GemsEach = 5
	WinGems  = 10
	// HandStart is the number of cards dealt to each player.
	HandStart = 2
	// MaxTurns is the turn bound of N13, after which the game is adjudicated by gems.
	MaxTurns = 2000
)

// decisionsPerTurn bounds the decisions one turn can hold, whatever the deck:
//
//   - card plays (attack, fortify, discard, response, Highwayman) each take a card out of a
//     hand, and a card comes back into a hand during a turn only through a Princess play,
//     itself a card play: at most 2×95 = 190;
//   - "no response" answers one attack card: at most 190;
//   - "let the gems go": gems move at most once a turn (the turn then ends), and the window
//     holds at most one round of 5 passes per Highwayman played plus the closing round:
//     at most 5×(95+1) = 480;
//   - one "stop".
//
// 190+190+480+1 = 861.
const decisionsPerTurn = 861

// MaxDecisions is the decision bound registered with the arena: N13's 2,000 turns times
// the most decisions a turn can hold (decisionsPerTurn). The turn bound always ends a game
// first; the engine adjudicates at this bound too, as a second guard.
const MaxDecisions = MaxTurns * decisionsPerTurn

// Spec is the game's entry for the registry (package games registers it).
func Spec() engine.Spec {
	return engine.Spec{
		Name:         "ninjas",
		MinPlayers:   MinPlayers,
		MaxPlayers:   MaxPlayers,
		MaxDecisions: MaxDecisions,
		New: func(seed uint64, players int) (engine.Game, error) {
			g, err := New(seed, players)
			if err != nil {
				return nil, err
			}
			return g, nil
		},
	}
}

// attackCard is the attack card in play: the kind it plays as, whether it is a Jester
// named so, and how many cards (a revolt of Peasants).
type attackCard struct {
	kind   Kind
	jester bool
	count  uint8
}

// Game is a game of Of Knights and Ninjas in progress. It is a value of fixed arrays
// apart from the option buffer and the log, so Clone is a copy.
type Game struct {
	players int
	deck    Deck
	rnd     engine.Rand

	phase     Phase
	first     int // the seat that took the first turn (N2)
	turnSeat  int // the seat on turn
	turns     int // turns completed
	decisions int

	hands [MaxPlayers][NumKinds]uint8
	gems  [MaxPlayers]int8
	// forts holds the card standing in each fortification slot: the slot's kind, a
	// Jester named as it, or NoKind.
	forts [MaxPlayers][NumForts]Kind

	pile    [DeckSize]Kind // the draw pile; the top is pile[pileN-1]
	pileN   int
	discard [NumKinds]uint8

	// The attack of this turn.
	target int        // the rival chosen for the turn, or -1
	ladder Kind       // the Ladder (or Jester) standing against target, or NoKind
	att    attackCard // the attack card waiting for a response (PhaseRespond)
	hit    int        // the seat the pending attack card hits (the attacker after a Traitor)

	// The Highwayman window (N10).
	winGems   int // gems that moved
	winHolder int // the seat holding them now
	winAsk    int // the seat asked now
	winPasses int // consecutive seats that let them go

	winner      int
	adjudicated bool

	opts []engine.Option
	log  []engine.Event
}

// New starts a game for players seats with the default deck (N1).
func New(seed uint64, players int) (*Game, error) {
	return NewWithDeck(seed, players, DefaultDeck())
}

// NewWithDeck starts a game with another composition of the 95 cards.
func NewWithDeck(seed uint64, players int, deck Deck) (*Game, error) {
	if players < MinPlayers || players > MaxPlayers {
		return nil, fmt.Errorf("ninjas is played by %d to %d players, not %d", MinPlayers, MaxPlayers, players)
	}
	if err := deck.Validate(); err != nil {
		return nil, err
	}
	g := &Game{
		players: players,
		deck:    deck,
		rnd:     engine.NewRand(seed),
		target:  -1,
		ladder:  NoKind,
		att:     attackCard{kind: NoKind},
		winner:  engine.NoSeat,
		opts:    make([]engine.Option, 0, 256),
		log:     make([]engine.Event, 0, 1024),
	}
	for s := range g.forts {
		g.forts[s] = [NumForts]Kind{NoKind, NoKind, NoKind}
	}
	for k, c := range deck {
		for i := 0; i < c; i++ {
			g.pile[g.pileN] = Kind(k)
			g.pileN++
		}
	}
	shuffleKinds(&g.rnd, g.pile[:g.pileN])
	for s := 0; s < players; s++ {
		g.gems[s] = GemsEach
	}
	g.first = g.rnd.Intn(players)
	g.emit(EvFirst, engine.Everyone, g.first, 0, 0, 0)
	for i := 0; i < players; i++ {
		g.draw((g.first+i)%players, HandStart)
	}
	g.startTurn(g.first)
	g.listOptions()
	return g, nil
}

func shuffleKinds(r *engine.Rand, s []Kind) {
	for i := len(s) - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		s[i], s[j] = s[j], s[i]
	}
}

// Name is the registry name.
func (g *Game) Name() string { return "ninjas" }

// Players is the number of seats.
func (g *Game) Players() int { return g.players }

// Deck is the composition the game is played with.
func (g *Game) Deck() Deck { return g.deck }

// Phase is the kind of decision pending.
func (g *Game) Phase() Phase { return g.phase }

// ToMove is the seat owing the pending decision.
func (g *Game) ToMove() int {
	switch g.phase {
	case PhaseAction, PhaseAttacking, PhaseFortifying:
		return g.turnSeat
	case PhaseRespond:
		return g.hit
	case PhaseHighwayman:
		return g.winAsk
	}
	return engine.NoSeat
}

// Options lists the legal options; the slice is reused by the next Apply.
func (g *Game) Options() []engine.Option { return g.opts }

// Terminal reports whether the game is over.
func (g *Game) Terminal() bool { return g.phase == PhaseOver }

// Decisions is the number of options applied.
func (g *Game) Decisions() int { return g.decisions }

// Turns is the number of turns completed.
func (g *Game) Turns() int { return g.turns }

// Log is every event so far.
func (g *Game) Log() []engine.Event { return g.log }

// Gems is the number of gems seat holds.
func (g *Game) Gems(seat int) int {
	if seat < 0 || seat >= g.players {
		return 0
	}
	return int(g.gems[seat])
}

// Hand counts the cards seat holds by kind: the whole state's, hidden cards included
// (a search's evaluation of a sampled state reads it; a seat's View shows its own).
func (g *Game) Hand(seat int) [NumKinds]uint8 {
	if seat < 0 || seat >= g.players {
		return [NumKinds]uint8{}
	}
	return g.hands[seat]
}

// Forts is the card standing in each of seat's fortification slots: the slot's kind,
// a Jester named as it, or NoKind.
func (g *Game) Forts(seat int) [NumForts]Kind {
	if seat < 0 || seat >= g.players {
		return [NumForts]Kind{NoKind, NoKind, NoKind}
	}
	return g.forts[seat]
}

// TurnSeat is the seat whose turn it is.
func (g *Game) TurnSeat() int { return g.turnSeat }

// Result ranks the seats: the winner first, then by gems; ties share a place.
func (g *Game) Result() engine.Result {
	score := make([]int, g.players)
	for s := range score {
		score[s] = int(g.gems[s])
	}
	return engine.Result{Place: engine.PlacesByScore(score, g.winner), Score: score, Adjudicated: g.adjudicated}
}

// Winner is the seat that reached WinGems, or engine.NoSeat.
func (g *Game) Winner() int { return g.winner }

// Clone returns an independent copy. The log's prefix is shared: neither copy can see
// what the other appends, because the clone's capacity ends where its log ends.
func (g *Game) Clone() engine.Game {
	c := *g
	c.opts = append(make([]engine.Option, 0, cap(g.opts)), g.opts...)
	c.log = g.log[:len(g.log):len(g.log)]
	return &c
}

// Hash digests the whole state, hidden hands, draw pile order and random source included.
func (g *Game) Hash() uint64 {
	h := engine.NewHasher()
	h.Int(g.players)
	for _, c := range g.deck {
		h.Int(c)
	}
	g.rnd.Hash(&h)
	h.Int(int(g.phase))
	h.Int(g.first)
	h.Int(g.turnSeat)
	h.Int(g.turns)
	h.Int(g.decisions)
	for s := 0; s < g.players; s++ {
		h.Bytes(g.hands[s][:])
		h.Int(int(g.gems[s]))
		for _, f := range g.forts[s] {
			h.Byte(uint8(f))
		}
	}
	h.Int(g.pileN)
	for _, k := range g.pile[:g.pileN] {
		h.Byte(uint8(k))
	}
	h.Bytes(g.discard[:])
	h.Int(g.target)
	h.Byte(uint8(g.ladder))
	h.Byte(uint8(g.att.kind))
	h.Bool(g.att.jester)
	h.Byte(g.att.count)
	h.Int(g.hit)
	h.Int(g.winGems)
	h.Int(g.winHolder)
	h.Int(g.winAsk)
	h.Int(g.winPasses)
	h.Int(g.winner)
	h.Bool(g.adjudicated)
	h.Int(len(g.log))
	return h.Sum()
}

// Fallback is the cautious default for a forfeited seat: no response, let the gems go,
// stop attacking or fortifying, and on its own turn discard its least valuable card (the
// first kind it holds, Peasants first). It is always option 0.
func (g *Game) Fallback() int { return 0 }

func (g *Game) emit(k EventKind, aud engine.Audience, seat, a, b, c int) {
	e := grow(&g.log)
	e.Kind, e.Audience, e.Seat, e.A, e.B, e.C = uint8(k), aud, int8(seat), int16(a), int16(b), int16(c)
}

func flag(jester bool) int {
	if jester {
		return JesterFlag
	}
	return 0
}

// Apply plays Options()[i].
func (g *Game) Apply(i int) error {
	if i < 0 || i >= len(g.opts) {
		return engine.IllegalIndex(i, len(g.opts))
	}
	o := g.opts[i]
	g.decisions++
	switch OptionKind(o.Kind) {
	case PlayAttack:
		g.playAttack(Kind(o.A), int(o.B), int(o.C), o.D == 1)
	case PlayFortify:
		g.playFortify(Kind(o.A), o.D == 1)
	case DiscardCard:
		s := g.turnSeat
		g.hands[s][o.A]--
		g.discard[o.A]++
		g.emit(EvDiscard, engine.Everyone, s, int(o.A), 0, 0)
		g.endTurn()
	case StopTurn:
		g.emit(EvStop, engine.Everyone, g.turnSeat, 0, 0, 0)
		g.endTurn()
	case PlayResponse:
		g.playResponse(Kind(o.A), int(o.C), o.D == 1)
	case NoResponse:
		g.emit(EvDecline, engine.Everyone, g.hit, 0, 0, 0)
		g.resolve(0)
	case PlayHighwayman:
		g.playHighwayman(o.D == 1)
	case LetGemsGo:
		g.emit(EvLetGo, engine.Everyone, g.winAsk, 0, 0, 0)
		g.winPasses++
		if g.winPasses >= g.players-1 {
			g.settle()
		} else {
			g.winAsk = g.nextAsked(g.winAsk)
		}
	}
	if g.phase != PhaseOver && g.decisions >= MaxDecisions {
		g.adjudicate()
	}
	g.listOptions()
	return nil
}

// takeCards removes played cards from seat's hand: count cards of kind, or one Jester.
func (g *Game) takeCards(seat int, k Kind, count int, jester bool) {
	if jester {
		g.hands[seat][Jester]--
	} else {
		g.hands[seat][k] -= uint8(count)
	}
}

// discardCards puts played cards on the discard pile.
func (g *Game) discardCards(k Kind, count int, jester bool) {
	if jester {
		g.discard[Jester]++
	} else {
		g.discard[k] += uint8(count)
	}
}

func (g *Game) playAttack(k Kind, target, count int, jester bool) {
	s := g.turnSeat
	g.target = target
	g.takeCards(s, k, count, jester)
	g.att = attackCard{kind: k, jester: jester, count: uint8(count)}
	g.hit = target
	g.emit(EvAttack, engine.Everyone, s, int(k), target, count|flag(jester))
	if unanswered(k) {
		g.resolve(0)
		return
	}
	g.phase = PhaseRespond
}

func (g *Game) playFortify(k Kind, jester bool) {
	s := g.turnSeat
	g.takeCards(s, k, 1, jester)
	card := k
	if jester {
		card = Jester
	}
	g.forts[s][fortOf(k)] = card
	g.emit(EvFortify, engine.Everyone, s, int(k), 0, flag(jester))
	g.phase = PhaseFortifying
}

// attackPhysical is the card the pending attack card really is.
func (g *Game) attackPhysical() Kind {
	if g.att.jester {
		return Jester
	}
	return g.att.kind
}

func (g *Game) playResponse(k Kind, count int, jester bool) {
	s := g.hit
	g.takeCards(s, k, count, jester)
	g.emit(EvRespond, engine.Everyone, s, int(k), 0, count|flag(jester))
	switch k {
	case Minstrel:
		card := k
		if jester {
			card = Jester
		}
		g.discardAttack()
		g.forts[s][FortMinstrel] = card
		g.endTurn()
	case Executioner:
		g.discardCards(k, 1, jester)
		g.emit(EvExecuted, engine.Everyone, s, int(g.att.kind), 0, flag(g.att.jester))
		g.discardAttack()
		g.endTurn()
	case Princess:
		g.discardCards(k, 1, jester)
		card := g.attackPhysical()
		g.hands[s][card]++
		g.emit(EvPrincess, engine.Everyone, s, int(g.att.kind), 0, flag(g.att.jester))
		g.att = attackCard{kind: NoKind}
		g.phase = PhaseAttacking
	case Traitor:
		g.discardCards(k, 1, jester)
		g.hit = g.opponent(s)
		g.emit(EvTraitor, engine.Everyone, s, int(g.att.kind), g.hit, 0)
	default: // a value response: both cards are discarded whatever moves
		g.discardCards(k, count, jester)
		g.resolve(k.Value() * count)
	}
}

// opponent is the other side of this turn's attack.
func (g *Game) opponent(seat int) int {
	if seat == g.turnSeat {
		return g.target
	}
	return g.turnSeat
}

func (g *Game) discardAttack() {
	g.discardCards(g.att.kind, int(g.att.count), g.att.jester)
	g.att = attackCard{kind: NoKind}
}

// destroy discards the card standing in seat's slot f, if any.
func (g *Game) destroy(seat int, f Fort) {
	if c := g.forts[seat][f]; c != NoKind {
		g.forts[seat][f] = NoKind
		g.discard[c]++
		g.emit(EvDestroy, engine.Everyone, seat, int(c), int(f), 0)
	}
}

// resolve carries out the pending attack card against the seat it hits, once the
// response (worth protect gems) is known.
func (g *Game) resolve(protect int) {
	hit := g.hit
	k := g.att.kind
	switch k {
	case Archer: // both Archers are discarded (N6)
		g.destroy(hit, FortArcher)
		g.discardAttack()
		g.phase = PhaseAttacking
		return
	case Catapult: // the Castle and any Archer on it
		if g.forts[hit][FortCastle] != NoKind {
			g.destroy(hit, FortCastle)
			g.destroy(hit, FortArcher)
		}
		g.discardAttack()
		g.phase = PhaseAttacking
		return
	case Ladder: // stands for the rest of the turn
		g.ladder = g.attackPhysical()
		g.emit(EvLadder, engine.Everyone, g.turnSeat, int(g.ladder), hit, 0)
		g.att = attackCard{kind: NoKind}
		g.phase = PhaseAttacking
		return
	case Ninja:
		g.destroy(hit, FortArcher)
	case Dragon:
		g.destroy(hit, FortCastle)
	}
	take := k.takes()*int(g.att.count) - protect
	if take > int(g.gems[hit]) {
		take = int(g.gems[hit])
	}
	if take <= 0 {
		g.emit(EvNoGems, engine.Everyone, hit, int(k), 0, 0)
		g.discardAttack()
		g.phase = PhaseAttacking
		return
	}
	g.discardAttack()
	to := g.opponent(hit)
	g.gems[hit] -= int8(take)
	g.gems[to] += int8(take)
	g.emit(EvGems, engine.Everyone, to, take, hit, 0)
	if k == Ninja || k == Dragon { // no Highwayman against them (N10)
		g.settle()
		return
	}
	g.winGems, g.winHolder, g.winPasses = take, to, 0
	g.winAsk = g.nextAsked(g.turnSeat)
	g.phase = PhaseHighwayman
}

// nextAsked is the seat after after, in seat order, that does not hold the gems.
func (g *Game) nextAsked(after int) int {
	s := after
	for {
		s = (s + 1) % g.players
		if s != g.winHolder {
			return s
		}
	}
}

func (g *Game) playHighwayman(jester bool) {
	s := g.winAsk
	g.takeCards(s, Highwayman, 1, jester)
	g.discardCards(Highwayman, 1, jester)
	from := g.winHolder
	g.gems[from] -= int8(g.winGems)
	g.gems[s] += int8(g.winGems)
	g.emit(EvHighwayman, engine.Everyone, s, g.winGems, from, flag(jester))
	g.winHolder, g.winPasses = s, 0
	g.winAsk = g.nextAsked(s)
}

// settle ends a turn in which gems moved: a seat holding WinGems wins at once (N12),
// otherwise the turn ends (N4).
func (g *Game) settle() {
	g.winGems, g.winPasses = 0, 0
	for s := 0; s < g.players; s++ {
		if g.gems[s] >= WinGems {
			g.winner = s
			g.phase = PhaseOver
			g.emit(EvWin, engine.Everyone, s, int(g.gems[s]), 0, 0)
			return
		}
	}
	g.endTurn()
}

func (g *Game) endTurn() {
	if g.ladder != NoKind {
		g.discard[g.ladder]++
		g.ladder = NoKind
	}
	g.target = -1
	g.turns++
	g.emit(EvEndTurn, engine.Everyone, g.turnSeat, g.turns, 0, 0)
	if g.turns >= MaxTurns {
		g.adjudicate()
		return
	}
	g.startTurn((g.turnSeat + 1) % g.players)
}

func (g *Game) adjudicate() {
	g.adjudicated = true
	g.phase = PhaseOver
	g.emit(EvAdjudicated, engine.Everyone, engine.NoSeat, g.turns, 0, 0)
}

func (g *Game) startTurn(seat int) {
	g.turnSeat = seat
	g.emit(EvTurn, engine.Everyone, seat, g.turns+1, 0, 0)
	if c := g.forts[seat][FortMinstrel]; c != NoKind {
		g.forts[seat][FortMinstrel] = NoKind
		g.discard[c]++
		g.emit(EvMinstrelLeaves, engine.Everyone, seat, int(c), 0, 0)
	}
	n := 2
	if g.turns == 0 {
		n = 1
	}
	g.draw(seat, n)
	g.target = -1
	g.phase = PhaseAction
}

// draw deals n cards to seat, refilling the draw pile from the discards when it runs out.
func (g *Game) draw(seat, n int) {
	got := 0
	for ; got < n; got++ {
		if g.pileN == 0 && !g.reshuffle() {
			break
		}
		g.pileN--
		k := g.pile[g.pileN]
		g.hands[seat][k]++
		g.emit(EvDrawCard, engine.Only(seat), seat, int(k), 0, 0)
	}
	g.emit(EvDraw, engine.Everyone, seat, got, 0, 0)
}

func (g *Game) reshuffle() bool {
	for k := Kind(0); k < NumKinds; k++ {
		for ; g.discard[k] > 0; g.discard[k]-- {
			g.pile[g.pileN] = k
			g.pileN++
		}
	}
	if g.pileN == 0 {
		return false
	}
	shuffleKinds(&g.rnd, g.pile[:g.pileN])
	g.emit(EvReshuffle, engine.Everyone, engine.NoSeat, g.pileN, 0, 0)
	return true
}

// attackable reports whether card kind k may be played at target now, given its
// fortifications and a Ladder standing against it this turn.
func (g *Game) attackable(k Kind, target int) bool {
	f := &g.forts[target]
	if f[FortMinstrel] != NoKind {
		return false
	}
	castle, archer := f[FortCastle] != NoKind, f[FortArcher] != NoKind
	ladder := g.ladder != NoKind && g.target == target
	switch k {
	case Archer:
		return archer
	case Catapult:
		return castle
	case Ladder:
		return castle && !archer && !ladder
	case Dragon:
		return !archer
	case Ninja:
		return true
	}
	return k.IsValue() && !archer && (!castle || ladder)
}

// respondable reports whether seat may answer the pending attack card with kind k: the
// attack card's list of enemies (N8a), and at most one standing Minstrel.
func (g *Game) respondable(k Kind, seat int) bool {
	if k == Minstrel && g.forts[seat][FortMinstrel] != NoKind {
		return false
	}
	return answeredBy[g.att.kind].has(k)
}

// kindSet is a set of card kinds, one bit per kind.
type kindSet uint32

func kinds(ks ...Kind) kindSet {
	var s kindSet
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

func (s kindSet) has(k Kind) bool { return k < NumKinds && s&(1<<k) != 0 }

// valueAnswers are the responses to a value card: all of them but the Princess (N8a).
var valueAnswers = kinds(Peasant, Soldier, Knight, King, Minstrel, Executioner, Traitor)

// answeredBy is, per attack card, the responses its "Enemigos" list allows (N8a). Ladder
// and Catapult are answered by nothing: they get no response decision (see playAttack).
// The rulings name no list for an attacking Archer, so the general wording of the
// response cards holds there: a Minstrel or an Executioner (the Executioner's card spares
// only Ladders and Catapults; a Traitor has no attack value to turn).
var answeredBy = [NumKinds]kindSet{
	Peasant: valueAnswers, Soldier: valueAnswers, King: valueAnswers,
	Knight: valueAnswers | kinds(Princess),
	Ninja:  kinds(Executioner),
	Dragon: kinds(Executioner, Princess),
	Archer: kinds(Minstrel, Executioner),
}

// unanswered reports the attack cards that cannot be answered themselves (N8a): they act
// at once, and the defender answers the attack card that follows them.
func unanswered(k Kind) bool { return k == Ladder || k == Catapult }

func (g *Game) listOptions() {
	g.opts = g.opts[:0]
	switch g.phase {
	case PhaseAction:
		// Discards first: option 0, the fallback, discards the first kind held.
		s := g.turnSeat
		h := &g.hands[s]
		g.listDiscards(h)
		if len(g.opts) == 0 { // an empty hand has nothing to discard (N6)
			g.addOption(StopTurn, NoArg, NoArg, NoArg, NoArg)
		}
		for i := 1; i < g.players; i++ {
			g.listAttacks((s + i) % g.players)
		}
		g.listFortify()
	case PhaseAttacking:
		g.addOption(StopTurn, NoArg, NoArg, NoArg, NoArg)
		g.listAttacks(g.target)
	case PhaseFortifying:
		g.addOption(StopTurn, NoArg, NoArg, NoArg, NoArg)
		g.listFortify()
	case PhaseRespond:
		g.addOption(NoResponse, NoArg, NoArg, NoArg, NoArg)
		s := g.hit
		h := &g.hands[s]
		for _, k := range responseKinds {
			if !g.respondable(k, s) {
				continue
			}
			if k == Peasant {
				for c := 1; c <= int(h[Peasant]); c++ {
					g.addOption(PlayResponse, int(k), NoArg, c, 0)
				}
			} else if h[k] > 0 {
				g.addOption(PlayResponse, int(k), NoArg, 1, 0)
			}
			if h[Jester] > 0 {
				g.addOption(PlayResponse, int(k), NoArg, 1, 1)
			}
		}
	case PhaseHighwayman:
		g.addOption(LetGemsGo, NoArg, NoArg, NoArg, NoArg)
		h := &g.hands[g.winAsk]
		if h[Highwayman] > 0 {
			g.addOption(PlayHighwayman, int(Highwayman), NoArg, 1, 0)
		}
		if h[Jester] > 0 {
			g.addOption(PlayHighwayman, int(Highwayman), NoArg, 1, 1)
		}
	}
}

// listAttacks lists the attack cards the player on turn may play at target.
func (g *Game) listAttacks(target int) {
	h := &g.hands[g.turnSeat]
	allowed := g.attackSet(target)
	if h[Jester] == 0 { // only the kinds held
		var held uint16
		for i, k := range attackKinds {
			held |= uint16(nonzero(h[k])) << i
		}
		allowed &= held
	}
	for ; allowed != 0; allowed &= allowed - 1 {
		k := attackKinds[bits.TrailingZeros16(allowed)]
		if k == Peasant {
			for c := 1; c <= int(h[Peasant]); c++ {
				g.addOption(PlayAttack, int(k), target, c, 0)
			}
		} else if h[k] > 0 {
			g.addOption(PlayAttack, int(k), target, 1, 0)
		}
		if h[Jester] > 0 {
			g.addOption(PlayAttack, int(k), target, 1, 1)
		}
	}
}

// attackBit is each attack kind's bit in a set of attackKinds' indices (option order).
var attackBit = func() (b [NumKinds]uint16) {
	for i, k := range attackKinds {
		b[k] = 1 << i
	}
	return b
}()

// attackSet is attackable for every kind at once, as bits of attackBit: the options'
// lists ask it at every decision of every play-out.
func (g *Game) attackSet(target int) uint16 {
	f := &g.forts[target]
	if f[FortMinstrel] != NoKind {
		return 0
	}
	castle, archer := f[FortCastle] != NoKind, f[FortArcher] != NoKind
	ladder := g.ladder != NoKind && g.target == target
	s := attackBit[Ninja]
	if archer {
		s |= attackBit[Archer]
	} else {
		s |= attackBit[Dragon]
		if !castle || ladder {
			s |= attackBit[Peasant] | attackBit[Soldier] | attackBit[Knight] | attackBit[King]
		}
		if castle && !ladder {
			s |= attackBit[Ladder]
		}
	}
	if castle {
		s |= attackBit[Catapult]
	}
	return s
}

// listDiscards lists a discard of each kind held, in kind order, with no branch on the
// hand: every kind's option is written and kept only if held.
func (g *Game) listDiscards(h *[NumKinds]uint8) {
	n := len(g.opts)
	g.opts = slices.Grow(g.opts, int(NumKinds))
	buf := g.opts[n : n+int(NumKinds)]
	j := 0
	for k, c := range h {
		o := &buf[j]
		o.Kind, o.A, o.B, o.C, o.D = uint8(DiscardCard), int16(k), NoArg, NoArg, NoArg
		j += nonzero(c)
	}
	g.opts = g.opts[:n+j]
}

// nonzero is 1 for a count above 0, else 0, without a branch.
func nonzero(c uint8) int { return (int(c) + 255) >> 8 }

// listFortify lists the fortify cards the player on turn may put into an empty slot.
func (g *Game) listFortify() {
	s := g.turnSeat
	h := &g.hands[s]
	for f, k := range fortKinds {
		if g.forts[s][f] != NoKind {
			continue
		}
		if h[k] > 0 {
			g.addOption(PlayFortify, int(k), NoArg, NoArg, 0)
		}
		if h[Jester] > 0 {
			g.addOption(PlayFortify, int(k), NoArg, NoArg, 1)
		}
	}
}
