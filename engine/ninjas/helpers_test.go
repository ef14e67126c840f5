package ninjas

import (
	"errors"
	"fmt"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/require"
)

// opt is an option as the engine lists it (addOption), for the tests to name one.
func opt(k OptionKind, a, b, c, d int) engine.Option {
	return engine.Option{Kind: uint8(k), A: int16(a), B: int16(b), C: int16(c), D: int16(d)}
}

// table describes a position set up by hand: the player on turn has drawn already and
// owes the turn's action.
type table struct {
	players int
	turn    int
	hands   [][]Kind // per seat
	gems    []int    // per seat; 5 each if nil
	forts   [][]Kind // per seat: fortification kinds standing (Jester entries need jforts)
	jforts  [][]Fort // per seat: slots where a Jester stands
	top     []Kind   // the next cards drawn, first drawn first
	deck    *Deck    // DefaultDeck() if nil
	turns   int      // turns completed (1 if zero: not the first turn)
	setupFn func(*Game)
}

// build makes the position, putting every card not placed in the draw pile, so the 95
// cards stay accounted for.
func (tb table) build(t testing.TB) *Game {
	t.Helper()
	deck := DefaultDeck()
	if tb.deck != nil {
		deck = *tb.deck
	}
	g := &Game{
		players: tb.players, deck: deck, rnd: engine.NewRand(99), turnSeat: tb.turn,
		turns: tb.turns, target: -1, ladder: NoKind, att: attackCard{kind: NoKind}, winner: engine.NoSeat, first: 0,
		opts: make([]engine.Option, 0, 256),
	}
	if g.turns == 0 {
		g.turns = 1
	}
	left := deck
	take := func(k Kind) {
		left[k]--
		if left[k] < 0 {
			t.Fatalf("setup uses more %s than the deck holds", k)
		}
	}
	for s := range g.forts {
		g.forts[s] = [NumForts]Kind{NoKind, NoKind, NoKind}
	}
	for s := 0; s < tb.players; s++ {
		g.gems[s] = GemsEach
		if tb.gems != nil {
			g.gems[s] = int8(tb.gems[s])
		}
		if s < len(tb.hands) {
			for _, k := range tb.hands[s] {
				take(k)
				g.hands[s][k]++
			}
		}
		if s < len(tb.forts) {
			for _, k := range tb.forts[s] {
				take(k)
				g.forts[s][fortOf(k)] = k
			}
		}
		if s < len(tb.jforts) {
			for _, f := range tb.jforts[s] {
				take(Jester)
				g.forts[s][f] = Jester
			}
		}
	}
	for _, k := range tb.top {
		take(k)
	}
	for k := Kind(0); k < NumKinds; k++ {
		for i := 0; i < left[k]; i++ {
			g.pile[g.pileN] = k
			g.pileN++
		}
	}
	shuffleKinds(&g.rnd, g.pile[:g.pileN])
	for i := len(tb.top) - 1; i >= 0; i-- {
		g.pile[g.pileN] = tb.top[i]
		g.pileN++
	}
	if tb.setupFn != nil {
		tb.setupFn(g)
	}
	g.phase = PhaseAction
	g.listOptions()
	require.NoError(t, checkInvariants(g))
	return g
}

func hand(k ...Kind) []Kind { return k }

// Options in the game's encoding, for finding them among the legal ones.
func attack(k Kind, target int) engine.Option { return opt(PlayAttack, int(k), target, 1, 0) }
func revolt(n, target int) engine.Option      { return opt(PlayAttack, int(Peasant), target, n, 0) }
func jesterAttack(k Kind, target int) engine.Option {
	return opt(PlayAttack, int(k), target, 1, 1)
}
func fortify(k Kind) engine.Option       { return opt(PlayFortify, int(k), NoArg, NoArg, 0) }
func jesterFortify(k Kind) engine.Option { return opt(PlayFortify, int(k), NoArg, NoArg, 1) }
func discardOpt(k Kind) engine.Option    { return opt(DiscardCard, int(k), NoArg, NoArg, NoArg) }
func stop() engine.Option                { return opt(StopTurn, NoArg, NoArg, NoArg, NoArg) }
func respond(k Kind) engine.Option       { return opt(PlayResponse, int(k), NoArg, 1, 0) }
func respondN(k Kind, n int) engine.Option {
	return opt(PlayResponse, int(k), NoArg, n, 0)
}
func jesterRespond(k Kind) engine.Option { return opt(PlayResponse, int(k), NoArg, 1, 1) }
func decline() engine.Option             { return opt(NoResponse, NoArg, NoArg, NoArg, NoArg) }
func highwayman() engine.Option          { return opt(PlayHighwayman, int(Highwayman), NoArg, 1, 0) }
func jesterHighwayman() engine.Option    { return opt(PlayHighwayman, int(Highwayman), NoArg, 1, 1) }
func letGo() engine.Option               { return opt(LetGemsGo, NoArg, NoArg, NoArg, NoArg) }

func legal(g *Game, o engine.Option) bool {
	_, ok := engine.Find(g, o)
	return ok
}

// play applies o, which must be legal, by the seat expected to decide.
func play(t testing.TB, g *Game, seat int, o engine.Option) {
	t.Helper()
	require.Equal(t, seat, g.ToMove(), "seat to decide before %s", g.Describe(o))
	i, ok := engine.Find(g, o)
	require.True(t, ok, "%s is not legal for seat %d; options: %s", g.Describe(o), seat, describeAll(g))
	require.NoError(t, g.Apply(i))
	require.NoError(t, checkInvariants(g))
}

// passWindow lets every seat asked in the Highwayman window let the gems go.
func passWindow(t testing.TB, g *Game) {
	t.Helper()
	for g.phase == PhaseHighwayman {
		play(t, g, g.winAsk, letGo())
	}
}

func describeAll(g *Game) string {
	s := ""
	for i, o := range g.Options() {
		s += fmt.Sprintf("\n  %d: %s", i, g.Describe(o))
	}
	return s
}

func attackTargets(g *Game) map[int]bool {
	m := map[int]bool{}
	for _, o := range g.Options() {
		if OptionKind(o.Kind) == PlayAttack {
			m[int(o.B)] = true
		}
	}
	return m
}

// eventsSince returns the kinds of the events logged from index from on.
func eventsSince(g *Game, from int) []EventKind {
	var ks []EventKind
	for _, e := range g.log[from:] {
		ks = append(ks, EventKind(e.Kind))
	}
	return ks
}

// checkInvariants is every invariant a state must keep after every decision.
func checkInvariants(g *Game) error {
	var count [NumKinds]int
	for s := 0; s < g.players; s++ {
		for k, c := range g.hands[s] {
			count[k] += int(c)
		}
		for f, c := range g.forts[s] {
			if c == NoKind {
				continue
			}
			if c != Jester && c != fortKinds[f] {
				return fmt.Errorf("seat %d: %s stands in the %s slot", s, c, fortKinds[f])
			}
			count[c]++
		}
	}
	for s := g.players; s < MaxPlayers; s++ {
		if g.hands[s] != [NumKinds]uint8{} || g.gems[s] != 0 {
			return fmt.Errorf("seat %d does not play but holds something", s)
		}
	}
	for _, k := range g.pile[:g.pileN] {
		count[k]++
	}
	for k, c := range g.discard {
		count[k] += int(c)
	}
	if g.att.kind != NoKind {
		if g.phase != PhaseRespond {
			return fmt.Errorf("attack card %s pending in phase %s", g.att.kind, g.phase)
		}
		if g.att.jester {
			count[Jester]++
		} else {
			count[g.att.kind] += int(g.att.count)
		}
	} else if g.phase == PhaseRespond {
		return errors.New("phase respond without a pending attack card")
	}
	if g.ladder != NoKind {
		count[g.ladder]++
	}
	for k := range count {
		if count[k] != g.deck[k] {
			return fmt.Errorf("%d %s cards in play, the deck has %d", count[k], Kind(k), g.deck[k])
		}
	}
	sum := 0
	for s := 0; s < g.players; s++ {
		if g.gems[s] < 0 {
			return fmt.Errorf("seat %d holds %d gems", s, g.gems[s])
		}
		sum += int(g.gems[s])
	}
	if sum != GemsEach*g.players {
		return fmt.Errorf("%d gems on the table, want %d", sum, GemsEach*g.players)
	}
	if g.Terminal() {
		if len(g.opts) != 0 || g.ToMove() != engine.NoSeat {
			return errors.New("a finished game still has a decision")
		}
		if g.winner == engine.NoSeat && !g.adjudicated {
			return errors.New("the game ended without a winner or adjudication")
		}
		return nil
	}
	if s := g.ToMove(); s < 0 || s >= g.players {
		return fmt.Errorf("seat %d to move", s)
	}
	if len(g.opts) == 0 {
		return errors.New("no options while the game goes on")
	}
	if g.turns >= MaxTurns {
		return fmt.Errorf("%d turns and still going", g.turns)
	}
	for s := 0; s < g.players; s++ {
		if g.gems[s] >= WinGems {
			if g.phase != PhaseHighwayman {
				return fmt.Errorf("seat %d holds %d gems and the game goes on", s, g.gems[s])
			}
		}
	}
	return nil
}

// checkGemsEndTurn checks that from each gem move of an attack on, nothing but the
// Highwayman window and the end of the turn (or game) happened in the log.
func checkGemsEndTurn(log []engine.Event) error {
	moved := false
	for i, e := range log {
		switch EventKind(e.Kind) {
		case EvGems:
			moved = true
		case EvTurn:
			moved = false
		case EvHighwayman, EvLetGo, EvEndTurn, EvWin, EvAdjudicated:
		default:
			if moved {
				return fmt.Errorf("event %d (%d) after gems moved and before the next turn", i, e.Kind)
			}
		}
	}
	return nil
}
