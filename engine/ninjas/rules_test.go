package ninjas

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestN1_DefaultDeckIsTheRulingsTableAndReplaceable(t *testing.T) {
	want := map[Kind]int{Peasant: 17, Soldier: 14, Knight: 8, King: 4, Castle: 6, Archer: 6,
		Minstrel: 4, Dragon: 3, Catapult: 4, Ninja: 4, Ladder: 5, Highwayman: 5, Princess: 4,
		Executioner: 4, Traitor: 5, Jester: 2}
	for k := Kind(0); k < NumKinds; k++ {
		assert.Equal(t, want[k], DefaultDeck()[k], "%s", k)
	}
	assert.Equal(t, 95, DefaultDeck().Total())
	require.NoError(t, DefaultDeck().Validate())

	t.Run("a fresh game holds exactly the deck", func(t *testing.T) {
		g, err := New(5, 4)
		require.NoError(t, err)
		require.NoError(t, checkInvariants(g))
		assert.Equal(t, DefaultDeck(), g.Deck())
	})
	t.Run("a deck of another size is refused", func(t *testing.T) {
		d := DefaultDeck()
		d[Jester]--
		_, err := NewWithDeck(1, 3, d)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "94 cards in all, want 95")
		d[Jester] = -1
		d[Peasant] += 3
		_, err = NewWithDeck(1, 3, d)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "-1 cards of kind Jester")
	})
	t.Run("a replaced deck is the one played", func(t *testing.T) {
		var d Deck
		d[Soldier], d[Highwayman] = 90, 5
		g, err := NewWithDeck(3, 2, d)
		require.NoError(t, err)
		r := engine.NewRand(3)
		for !g.Terminal() {
			require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
			require.NoError(t, checkInvariants(g))
			for s := 0; s < 2; s++ {
				for k, c := range g.hands[s] {
					if Kind(k) != Soldier && Kind(k) != Highwayman {
						require.Zero(t, c, "seat %d holds a %s", s, Kind(k))
					}
				}
			}
		}
	})
	t.Run("player counts outside 2..6 are refused", func(t *testing.T) {
		for _, p := range []int{0, 1, 7} {
			_, err := New(1, p)
			require.Error(t, err)
		}
		require.Error(t, Spec().CheckPlayers(7))
		g, err := Spec().New(1, 6)
		require.NoError(t, err)
		assert.Equal(t, 6, g.Players())
	})
}

func TestN2_FirstPlayerComesFromTheSeed(t *testing.T) {
	var firsts [3]int
	for seed := uint64(0); seed < 600; seed++ {
		g, err := New(seed, 3)
		require.NoError(t, err)
		firsts[g.first]++
		again, _ := New(seed, 3)
		require.Equal(t, g.first, again.first, "seed %d", seed)
		require.Equal(t, g.first, g.ToMove())
		require.Equal(t, EvFirst, EventKind(g.log[0].Kind))
		require.Equal(t, g.first, int(g.log[0].Seat))
	}
	for s, n := range firsts {
		assert.Greater(t, n, 150, "seat %d went first %d times in 600", s, n)
	}
}

func TestN3_DrawTwoButOneOnTheFirstTurn(t *testing.T) {
	g, err := New(11, 4)
	require.NoError(t, err)
	first := g.ToMove()
	for s := 0; s < 4; s++ {
		want := HandStart
		if s == first {
			want = HandStart + 1
		}
		assert.Equal(t, want, handSize(&g.hands[s]), "seat %d", s)
	}
	// Only attack, fortify or discard (no stop with cards in hand, no special action).
	for _, o := range g.Options() {
		k := OptionKind(o.Kind)
		assert.Contains(t, []OptionKind{PlayAttack, PlayFortify, DiscardCard}, k, g.Describe(o))
	}
	require.Equal(t, DiscardCard, OptionKind(g.opts[0].Kind))
	require.NoError(t, g.Apply(0))
	next := (first + 1) % 4
	require.Equal(t, next, g.ToMove())
	assert.Equal(t, HandStart+2, handSize(&g.hands[next]), "a later turn draws two")
	var draws []int
	for _, e := range g.log {
		if EventKind(e.Kind) == EvDraw {
			draws = append(draws, int(e.A))
		}
	}
	assert.Equal(t, []int{2, 2, 2, 2, 1, 2}, draws, "four deals of two, then the first turn's one, then two")
}

func TestN4_OneRivalForTheTurnAndGemsEndIt(t *testing.T) {
	t.Run("after a first attack only the same rival can be attacked", func(t *testing.T) {
		g := table{players: 3, hands: [][]Kind{hand(Soldier, Knight, Soldier), hand(Soldier), nil}}.build(t)
		assert.Equal(t, map[int]bool{1: true, 2: true}, attackTargets(g))
		play(t, g, 0, attack(Soldier, 1))
		play(t, g, 1, respond(Soldier))
		require.Equal(t, PhaseAttacking, g.phase)
		assert.Equal(t, map[int]bool{1: true}, attackTargets(g))
		assert.True(t, legal(g, stop()), "the attacker may stop")
		play(t, g, 0, attack(Knight, 1))
		play(t, g, 1, decline())
		assert.Equal(t, 8, g.Gems(0))
		passWindow(t, g)
		assert.Equal(t, 1, g.turnSeat, "the turn ended at once when gems moved")
		assert.Equal(t, uint8(1), g.hands[0][Soldier], "the unplayed Soldier stays in hand")
	})
	t.Run("a revolt plays any number of Peasants at once", func(t *testing.T) {
		g := table{players: 2, hands: [][]Kind{hand(Peasant, Peasant, Peasant), hand(Peasant)}}.build(t)
		for n := 1; n <= 3; n++ {
			assert.True(t, legal(g, revolt(n, 1)), "a revolt of %d", n)
		}
		assert.False(t, legal(g, revolt(4, 1)))
		play(t, g, 0, revolt(3, 1))
		play(t, g, 1, respondN(Peasant, 1))
		assert.Equal(t, 3, g.Gems(1))
		assert.Equal(t, uint8(4), g.discard[Peasant], "the revolt and the response are discarded")
	})
	t.Run("the attacker may stop without discarding", func(t *testing.T) {
		g := table{players: 2, hands: [][]Kind{hand(Soldier, Peasant), hand(King)}}.build(t)
		play(t, g, 0, attack(Soldier, 1))
		play(t, g, 1, respond(King))
		play(t, g, 0, stop())
		assert.Equal(t, uint8(1), g.hands[0][Peasant])
		assert.Equal(t, 1, g.turnSeat)
	})
}

func TestN5_FortifyWithAtMostOneCastleAndOneArcher(t *testing.T) {
	g := table{players: 2, hands: [][]Kind{hand(Castle, Castle, Archer, Archer, Minstrel, Soldier), nil}}.build(t)
	play(t, g, 0, fortify(Castle))
	assert.False(t, legal(g, fortify(Castle)), "a second Castle")
	assert.Empty(t, attackTargets(g), "no attack after fortifying")
	play(t, g, 0, fortify(Archer))
	assert.False(t, legal(g, fortify(Archer)), "a second Archer")
	play(t, g, 0, fortify(Minstrel))
	assert.Equal(t, []engine.Option{stop()}, g.Options())
	play(t, g, 0, stop())
	assert.Equal(t, [NumForts]Kind{Castle, Archer, Minstrel}, g.forts[0])
	assert.Equal(t, uint8(1), g.hands[0][Castle])

	t.Run("a standing Castle leaves only the other slots", func(t *testing.T) {
		g := table{players: 2, hands: [][]Kind{hand(Castle, Archer), nil}, forts: [][]Kind{{Castle}}}.build(t)
		assert.False(t, legal(g, fortify(Castle)))
		assert.True(t, legal(g, fortify(Archer)))
	})
}

func TestN6_APlayerWhoNeitherAttacksNorFortifiesDiscards(t *testing.T) {
	g := table{players: 2, hands: [][]Kind{hand(Castle, Princess, Princess), hand(Soldier)}}.build(t)
	assert.False(t, legal(g, stop()), "no passing with cards in hand")
	assert.Equal(t, []engine.Option{discardOpt(Castle), discardOpt(Princess), fortify(Castle)}, g.Options())
	play(t, g, 0, discardOpt(Princess))
	assert.Equal(t, uint8(1), g.discard[Princess])
	assert.Equal(t, 1, g.turnSeat, "discarding ends the turn")

	empty := table{players: 2, hands: [][]Kind{nil, hand(Soldier)}}.build(t)
	assert.Equal(t, []engine.Option{stop()}, empty.Options(), "an empty hand can only end the turn")
}

func TestN7_TheArcherFallsBeforeTheCastle(t *testing.T) {
	attacker := hand(Soldier, Ladder, Archer, Dragon, Catapult, Ninja)
	build := func(t *testing.T) *Game {
		return table{players: 2, hands: [][]Kind{attacker, nil}, forts: [][]Kind{nil, {Castle, Archer}}}.build(t)
	}
	g := build(t)
	for k, want := range map[Kind]bool{Soldier: false, Ladder: false, Dragon: false, Archer: true, Catapult: true, Ninja: true} {
		assert.Equal(t, want, legal(g, attack(k, 1)), "%s against Castle and Archer", k)
	}
	t.Run("an Archer removes the Archer, then a Ladder climbs the Castle", func(t *testing.T) {
		g := build(t)
		play(t, g, 0, attack(Archer, 1))
		play(t, g, 1, decline())
		assert.Equal(t, [NumForts]Kind{Castle, NoKind, NoKind}, g.forts[1])
		assert.Equal(t, uint8(2), g.discard[Archer], "both Archers are discarded")
		assert.False(t, legal(g, attack(Soldier, 1)), "the Castle still stands")
		assert.True(t, legal(g, attack(Dragon, 1)), "no Archer now")
		play(t, g, 0, attack(Ladder, 1))
		assert.True(t, legal(g, attack(Soldier, 1)), "over the Ladder")
		assert.False(t, legal(g, attack(Ladder, 1)), "one Ladder is enough")
		play(t, g, 0, attack(Soldier, 1))
		play(t, g, 1, decline())
		passWindow(t, g)
		assert.Equal(t, uint8(1), g.discard[Ladder], "the Ladder is discarded at the end of the turn")
		assert.Equal(t, Castle, g.forts[1][FortCastle])
	})
	t.Run("a Catapult takes the Castle and the Archer on it", func(t *testing.T) {
		g := build(t)
		play(t, g, 0, attack(Catapult, 1))
		assert.Equal(t, [NumForts]Kind{NoKind, NoKind, NoKind}, g.forts[1])
		assert.True(t, legal(g, attack(Soldier, 1)))
	})
	t.Run("a Ninja kills the Archer and climbs the Castle", func(t *testing.T) {
		g := build(t)
		play(t, g, 0, attack(Ninja, 1))
		play(t, g, 1, decline())
		assert.Equal(t, [NumForts]Kind{Castle, NoKind, NoKind}, g.forts[1])
		assert.Equal(t, 7, g.Gems(0))
		assert.Equal(t, 1, g.turnSeat, "gems moved: the turn is over")
	})
}

func TestN8_GemsTakenAreAttackMinusResponseWithinTheDefendersGems(t *testing.T) {
	cases := []struct {
		name        string
		attack      engine.Option
		response    engine.Option
		defender    []Kind
		defGems     int
		taken       int
		turnGoesOn  bool
		discardedAt int // cards on the discard pile afterwards
	}{
		{"King against a Peasant takes 3", attack(King, 1), respond(Peasant), hand(Peasant), 5, 3, false, 2},
		{"Knight against a Soldier takes 1", attack(Knight, 1), respond(Soldier), hand(Soldier), 5, 1, false, 2},
		{"Soldier against a King takes none, both discarded", attack(Soldier, 1), respond(King), hand(King), 5, 0, true, 2},
		{"Knight against one gem takes 1", attack(Knight, 1), decline(), nil, 1, 1, false, 1},
		{"a revolt of 4 against 2 Peasants takes 2", revolt(4, 1), respondN(Peasant, 2), hand(Peasant, Peasant), 5, 2, false, 6},
		{"King against no gems takes none", attack(King, 1), decline(), nil, 0, 0, true, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := table{players: 3, hands: [][]Kind{hand(Peasant, Peasant, Peasant, Peasant, Soldier, Knight, King), c.defender},
				gems: []int{15 - c.defGems - min(9, 10-c.defGems), c.defGems, min(9, 10-c.defGems)}}.build(t)
			play(t, g, 0, c.attack)
			play(t, g, 1, c.response)
			assert.Equal(t, c.defGems-c.taken, g.Gems(1))
			assert.Equal(t, c.discardedAt, handSize(&g.discard))
			if c.turnGoesOn {
				assert.Equal(t, PhaseAttacking, g.phase)
				assert.Equal(t, 0, g.ToMove())
			} else {
				passWindow(t, g)
				if !g.Terminal() {
					assert.Equal(t, 1, g.turnSeat)
				}
			}
		})
	}
}

func TestN9_OneResponsePerAttackCardAlwaysAskedOfTheDefender(t *testing.T) {
	g := table{players: 2, hands: [][]Kind{hand(Soldier, Soldier), nil}}.build(t)
	play(t, g, 0, attack(Soldier, 1))
	assert.Equal(t, 1, g.ToMove(), "the defender decides even with an empty hand")
	assert.Equal(t, []engine.Option{decline()}, g.Options())

	h := table{players: 2, hands: [][]Kind{hand(Soldier, Soldier), hand(Peasant, Peasant)}}.build(t)
	play(t, h, 0, attack(Soldier, 1))
	assert.Equal(t, []engine.Option{decline(), respondN(Peasant, 1), respondN(Peasant, 2)}, h.Options())
	play(t, h, 1, respondN(Peasant, 2))
	assert.Equal(t, 0, h.ToMove(), "one response: the attacker goes on")
	assert.Equal(t, PhaseAttacking, h.phase)
}

func TestN9_ResponseCards(t *testing.T) {
	t.Run("a Princess takes a Knight and the attacker may go on", func(t *testing.T) {
		g := table{players: 2, hands: [][]Kind{hand(Knight, Soldier), hand(Princess)}}.build(t)
		play(t, g, 0, attack(Soldier, 1))
		assert.False(t, legal(g, respond(Princess)), "a Princess answers only a Knight or a Dragon")
		play(t, g, 1, decline())
		passWindow(t, g)

		g = table{players: 2, hands: [][]Kind{hand(Knight, Soldier), hand(Princess)}}.build(t)
		play(t, g, 0, attack(Knight, 1))
		play(t, g, 1, respond(Princess))
		assert.Equal(t, uint8(1), g.hands[1][Knight])
		assert.Equal(t, 5, g.Gems(1))
		assert.Equal(t, PhaseAttacking, g.phase)
		assert.True(t, legal(g, attack(Soldier, 1)))
	})
	t.Run("a Princess tames a Dragon", func(t *testing.T) {
		g := table{players: 2, hands: [][]Kind{hand(Dragon), hand(Princess)}, forts: [][]Kind{nil, {Castle}}}.build(t)
		play(t, g, 0, attack(Dragon, 1))
		play(t, g, 1, respond(Princess))
		assert.Equal(t, uint8(1), g.hands[1][Dragon])
		assert.Equal(t, Castle, g.forts[1][FortCastle], "tamed before it burns anything")
	})
	t.Run("an Executioner ends the turn; what was destroyed stays destroyed", func(t *testing.T) {
		g := table{players: 2, hands: [][]Kind{hand(Catapult, King), hand(Executioner)}, forts: [][]Kind{nil, {Castle}}}.build(t)
		play(t, g, 0, attack(Catapult, 1))
		require.Equal(t, 0, g.ToMove(), "no response at all to a Catapult (N8a)")
		play(t, g, 0, attack(King, 1))
		play(t, g, 1, respond(Executioner))
		assert.Equal(t, 5, g.Gems(1))
		assert.Equal(t, NoKind, g.forts[1][FortCastle])
		assert.Equal(t, 1, g.turnSeat)
		assert.Equal(t, uint8(1), g.discard[King])
	})
	t.Run("an Executioner kills a Dragon before it burns the Castle", func(t *testing.T) {
		g := table{players: 2, hands: [][]Kind{hand(Dragon), hand(Executioner)}, forts: [][]Kind{nil, {Castle}}}.build(t)
		play(t, g, 0, attack(Dragon, 1))
		play(t, g, 1, respond(Executioner))
		assert.Equal(t, Castle, g.forts[1][FortCastle])
		assert.Equal(t, 5, g.Gems(1))
	})
	t.Run("a Minstrel ends the turn and stands until the defender's next turn", func(t *testing.T) {
		g := table{players: 3, hands: [][]Kind{hand(King), hand(Soldier), hand(Minstrel)}}.build(t)
		play(t, g, 0, attack(King, 2))
		play(t, g, 2, respond(Minstrel))
		assert.Equal(t, 5, g.Gems(2))
		assert.Equal(t, 1, g.turnSeat, "the attacker's turn ended")
		assert.Equal(t, Minstrel, g.forts[2][FortMinstrel])
		assert.False(t, attackTargets(g)[2], "no attack reaches a Minstrel")
		assert.True(t, legal(g, attack(Soldier, 0)))
		play(t, g, 1, g.opts[0]) // seat 1 discards
		require.Equal(t, 2, g.turnSeat)
		assert.Equal(t, NoKind, g.forts[2][FortMinstrel], "discarded at the start of the owner's turn")
		assert.Equal(t, uint8(1), g.discard[Minstrel])
	})
	t.Run("a Traitor turns the card on the attacker past their fortifications", func(t *testing.T) {
		g := table{players: 2, hands: [][]Kind{hand(Knight, Soldier), hand(Traitor)},
			forts: [][]Kind{{Castle, Archer}, nil}}.build(t)
		play(t, g, 0, attack(Knight, 1))
		play(t, g, 1, respond(Traitor))
		require.Equal(t, 0, g.ToMove(), "the attacker answers the turned card")
		play(t, g, 0, respond(Soldier))
		assert.Equal(t, 4, g.Gems(0))
		assert.Equal(t, 6, g.Gems(1))
		passWindow(t, g)
		assert.Equal(t, 1, g.turnSeat, "gems moved: the turn is over")
	})
	t.Run("a Traitor on a Traitor turns the card back", func(t *testing.T) {
		g := table{players: 2, hands: [][]Kind{hand(King, Traitor), hand(Traitor, Peasant)}}.build(t)
		play(t, g, 0, attack(King, 1))
		play(t, g, 1, respond(Traitor))
		play(t, g, 0, respond(Traitor))
		require.Equal(t, 1, g.ToMove())
		assert.False(t, legal(g, respond(Traitor)), "seat 1 has no Traitor left")
		play(t, g, 1, respond(Peasant))
		assert.Equal(t, 2, g.Gems(1))
		assert.Equal(t, 8, g.Gems(0))
	})
	t.Run("no Traitor against a Ninja or a Dragon", func(t *testing.T) {
		for _, k := range []Kind{Ninja, Dragon} {
			g := table{players: 2, hands: [][]Kind{hand(k), hand(Traitor, King)}}.build(t)
			play(t, g, 0, attack(k, 1))
			assert.Equal(t, []engine.Option{decline()}, g.Options(), "%s", k)
		}
	})
}

func TestN10_HighwaymanWindow(t *testing.T) {
	t.Run("asked in seat order from the attacker's left, the receiver skipped", func(t *testing.T) {
		g := table{players: 4, turn: 1, hands: [][]Kind{nil, hand(Soldier), nil, nil}}.build(t)
		play(t, g, 1, attack(Soldier, 3))
		play(t, g, 3, decline())
		for _, s := range []int{2, 3, 0} {
			require.Equal(t, PhaseHighwayman, g.phase)
			play(t, g, s, letGo())
		}
		assert.Equal(t, 2, g.turnSeat)
		assert.Equal(t, 7, g.Gems(1))
	})
	t.Run("the robbed seat may take them back and the window reopens for all but the new holder", func(t *testing.T) {
		g := table{players: 4, turn: 1, hands: [][]Kind{nil, hand(Soldier, Highwayman), nil, hand(Highwayman)}}.build(t)
		play(t, g, 1, attack(Soldier, 3))
		play(t, g, 3, decline())
		play(t, g, 2, letGo())
		play(t, g, 3, highwayman())
		assert.Equal(t, 5, g.Gems(3))
		assert.Equal(t, 5, g.Gems(1))
		play(t, g, 0, letGo())
		play(t, g, 1, highwayman())
		assert.Equal(t, 7, g.Gems(1))
		assert.Equal(t, 3, g.Gems(3))
		for _, s := range []int{2, 3, 0} {
			play(t, g, s, letGo())
		}
		assert.Equal(t, 2, g.turnSeat)
		assert.Equal(t, uint8(2), g.discard[Highwayman])
	})
	t.Run("no Highwayman against a Ninja or a Dragon", func(t *testing.T) {
		for _, k := range []Kind{Ninja, Dragon} {
			g := table{players: 3, hands: [][]Kind{hand(k), nil, hand(Highwayman)}}.build(t)
			play(t, g, 0, attack(k, 1))
			play(t, g, 1, decline())
			assert.Equal(t, 7, g.Gems(0))
			assert.Equal(t, PhaseAction, g.phase, "%s: no window", k)
			assert.Equal(t, 1, g.turnSeat)
		}
	})
	t.Run("a Jester as Highwayman steals the win, checked when the window closes", func(t *testing.T) {
		g := table{players: 3, hands: [][]Kind{hand(Knight), nil, hand(Jester)}, gems: []int{4, 3, 8}}.build(t)
		play(t, g, 0, attack(Knight, 1))
		play(t, g, 1, decline())
		assert.Equal(t, 7, g.Gems(0))
		assert.False(t, legal(g, highwayman()), "seat 1 holds none")
		play(t, g, 1, letGo())
		play(t, g, 2, jesterHighwayman())
		assert.Equal(t, 11, g.Gems(2))
		assert.False(t, g.Terminal(), "another Highwayman could still stop the win")
		play(t, g, 0, letGo())
		play(t, g, 1, letGo())
		require.True(t, g.Terminal())
		assert.Equal(t, 2, g.Winner())
		assert.Equal(t, []int{1, 2, 0}, g.Result().Place)
	})
}

func TestN11_Jester(t *testing.T) {
	t.Run("a Jester named Knight taken by a Princess is a Jester again", func(t *testing.T) {
		g := table{players: 2, hands: [][]Kind{hand(Jester), hand(Princess)}}.build(t)
		play(t, g, 0, jesterAttack(Knight, 1))
		e := g.log[len(g.log)-1]
		assert.Equal(t, EvAttack, EventKind(e.Kind))
		assert.Equal(t, "seat 0 attacks seat 1 with a Jester named Knight", g.DescribeEvent(e))
		play(t, g, 1, respond(Princess))
		assert.Equal(t, uint8(1), g.hands[1][Jester])
		assert.Equal(t, uint8(0), g.hands[1][Knight])
		e = g.log[len(g.log)-1]
		assert.Equal(t, EvPrincess, EventKind(e.Kind))
		assert.Equal(t, engine.Everyone, e.Audience, "the taken card was face up")
	})
	t.Run("a Jester fortifies as a Castle and is discarded as a Jester", func(t *testing.T) {
		g := table{players: 2, hands: [][]Kind{hand(Jester), hand(Catapult)}}.build(t)
		play(t, g, 0, jesterFortify(Castle))
		assert.Equal(t, Jester, g.forts[0][FortCastle])
		play(t, g, 0, stop())
		assert.False(t, legal(g, attack(Soldier, 0)))
		play(t, g, 1, attack(Catapult, 0))
		assert.Equal(t, uint8(1), g.discard[Jester])
	})
	t.Run("a Jester named anything answers as that card", func(t *testing.T) {
		g := table{players: 2, hands: [][]Kind{hand(King), hand(Jester)}}.build(t)
		play(t, g, 0, attack(King, 1))
		for _, k := range []Kind{Peasant, Soldier, Knight, King, Minstrel, Executioner, Traitor} {
			assert.True(t, legal(g, jesterRespond(k)), "Jester as %s", k)
		}
		assert.False(t, legal(g, jesterRespond(Princess)), "not against a King")
		play(t, g, 1, jesterRespond(King))
		assert.Equal(t, 5, g.Gems(1))
	})
}

func TestN12_TenGemsWinAtOnce(t *testing.T) {
	g := table{players: 3, hands: [][]Kind{hand(Soldier, Soldier), nil, nil}, gems: []int{8, 4, 3}}.build(t)
	play(t, g, 0, attack(Soldier, 2))
	play(t, g, 2, decline())
	passWindow(t, g)
	require.True(t, g.Terminal())
	assert.Equal(t, 0, g.Winner())
	r := g.Result()
	assert.Equal(t, []int{0, 1, 2}, r.Place)
	assert.Equal(t, []int{10, 4, 1}, r.Score)
	assert.False(t, r.Adjudicated)

	t.Run("two players: all ten gems", func(t *testing.T) {
		g := table{players: 2, hands: [][]Kind{hand(King, Soldier), nil}, gems: []int{6, 4}}.build(t)
		play(t, g, 0, attack(Soldier, 1))
		play(t, g, 1, decline())
		passWindow(t, g)
		assert.False(t, g.Terminal(), "8 of 10 gems")
		g = table{players: 2, hands: [][]Kind{hand(King), nil}, gems: []int{6, 4}}.build(t)
		play(t, g, 0, attack(King, 1))
		play(t, g, 1, decline())
		passWindow(t, g)
		require.True(t, g.Terminal())
		assert.Equal(t, 0, g.Winner())
	})
	t.Run("a Ninja's gems win without a window", func(t *testing.T) {
		g := table{players: 3, hands: [][]Kind{hand(Ninja), nil, hand(Highwayman)}, gems: []int{8, 4, 3}}.build(t)
		play(t, g, 0, attack(Ninja, 1))
		play(t, g, 1, decline())
		require.True(t, g.Terminal())
		assert.Equal(t, 0, g.Winner())
	})
}

func TestN13_TheTurnBoundAdjudicatesByGems(t *testing.T) {
	g := table{players: 3, hands: [][]Kind{hand(Soldier), nil, nil}, gems: []int{6, 3, 6}, turns: MaxTurns - 1}.build(t)
	play(t, g, 0, discardOpt(Soldier))
	require.True(t, g.Terminal())
	r := g.Result()
	assert.True(t, r.Adjudicated)
	assert.Equal(t, []int{0, 2, 0}, r.Place, "ties share first place")
	assert.Equal(t, engine.NoSeat, g.Winner())
	assert.Equal(t, EvAdjudicated, EventKind(g.log[len(g.log)-1].Kind))

	spec := Spec()
	assert.Equal(t, MaxTurns*decisionsPerTurn, spec.MaxDecisions)
	assert.Equal(t, 2, spec.MinPlayers)
	assert.Equal(t, 6, spec.MaxPlayers)

	t.Run("a game of endless zero-gem exchanges still ends", func(t *testing.T) {
		// Only Soldiers: every attack is answered, nothing moves, the bound ends it.
		var d Deck
		d[Soldier] = 95
		g, err := NewWithDeck(1, 2, d)
		require.NoError(t, err)
		for !g.Terminal() {
			opts := g.Options()
			i := len(opts) - 1 // attack with everything, answer with everything
			require.NoError(t, g.Apply(i))
		}
		assert.True(t, g.Result().Adjudicated)
		assert.Equal(t, MaxTurns, g.Turns())
	})
}

// The rulebook's worked example: Soldier against Soldier, Knight against King, Knight
// against Peasant for 2 gems; then the next player's King takes 4 from the unprotected
// kingdom.
func TestRulebookWorkedExample(t *testing.T) {
	g := table{players: 3, hands: [][]Kind{
		hand(Soldier, Knight, Knight),
		hand(King),
		hand(Soldier, King, Peasant),
	}, top: []Kind{Castle, Castle}}.build(t)
	play(t, g, 0, attack(Soldier, 2))
	play(t, g, 2, respond(Soldier))
	assert.Equal(t, uint8(2), g.discard[Soldier], "both Soldiers are discarded")
	assert.Equal(t, PhaseAttacking, g.phase, "no gems moved: you may go on")
	play(t, g, 0, attack(Knight, 2))
	play(t, g, 2, respond(King))
	assert.Equal(t, 5, g.Gems(2), "the King's extra strength is wasted")
	play(t, g, 0, attack(Knight, 2))
	play(t, g, 2, respond(Peasant))
	assert.Equal(t, 7, g.Gems(0))
	assert.Equal(t, 3, g.Gems(2))
	play(t, g, 1, letGo())
	play(t, g, 2, letGo())
	require.Equal(t, 1, g.turnSeat, "gems moved: your turn is over")
	play(t, g, 1, attack(King, 0))
	assert.Equal(t, []engine.Option{decline()}, g.Options(), "no response cards left")
	play(t, g, 0, decline())
	assert.Equal(t, 3, g.Gems(0))
	assert.Equal(t, 9, g.Gems(1))
}
