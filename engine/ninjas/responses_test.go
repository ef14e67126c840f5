package ninjas

import (
	"fmt"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestN8a_EachAttackCardIsAnsweredByItsOwnEnemies plays every attack card (as itself,
// as a Jester named so, and a revolt of Peasants) against a defender holding one
// response card (as itself, or a Jester named so), and checks that the response may be
// played exactly when the attack card's list of enemies names it (ruling N8a).
func TestN8a_EachAttackCardIsAnsweredByItsOwnEnemies(t *testing.T) {
	value := []Kind{Peasant, Soldier, Knight, King, Minstrel, Executioner, Traitor}
	answers := map[Kind][]Kind{
		Peasant: value, Soldier: value, King: value,
		Knight: append([]Kind{Princess}, value...),
		Ninja:  {Executioner},
		Dragon: {Executioner, Princess},
		// Not in the rulings' lists: the response cards' general wording (package doc).
		Archer: {Minstrel, Executioner},
	}
	needs := map[Kind][]Kind{Archer: {Archer}, Ladder: {Castle}, Catapult: {Castle}}
	type attackCase struct {
		name   string
		kind   Kind
		cards  []Kind
		option engine.Option
	}
	var attacks []attackCase
	for _, k := range attackKinds {
		attacks = append(attacks,
			attackCase{"a " + k.String(), k, hand(k), attack(k, 1)},
			attackCase{"a Jester named " + k.String(), k, hand(Jester), jesterAttack(k, 1)})
	}
	attacks = append(attacks, attackCase{"a revolt of 2 Peasants", Peasant, hand(Peasant, Peasant), revolt(2, 1)})

	for _, a := range attacks {
		for _, r := range responseKinds {
			for _, jester := range []bool{false, true} {
				want := contains(answers[a.kind], r)
				defender, o, name := hand(r), respond(r), r.String()
				if jester {
					defender, o, name = hand(Jester), jesterRespond(r), "a Jester named "+r.String()
				}
				verb := map[bool]string{true: "answers", false: "does not answer"}[want]
				t.Run(fmt.Sprintf("%s %s %s", name, verb, a.name), func(t *testing.T) {
					g := table{players: 2, hands: [][]Kind{a.cards, defender}, forts: [][]Kind{nil, needs[a.kind]}}.build(t)
					play(t, g, 0, a.option)
					if a.kind == Ladder || a.kind == Catapult {
						assert.Equal(t, 0, g.ToMove(), "no response decision: the attacker goes on")
						assert.Equal(t, PhaseAttacking, g.phase)
						return
					}
					require.Equal(t, 1, g.ToMove(), "the defender is asked")
					assert.Equal(t, want, legal(g, o))
					if want {
						play(t, g, 1, o)
					}
				})
			}
		}
	}
}

// TestN8a_TheCardAfterALadderOrCatapultIsAnswered: the defender cannot answer the
// Catapult, so the Castle falls, but answers the King that follows it.
func TestN8a_TheCardAfterALadderOrCatapultIsAnswered(t *testing.T) {
	for _, breaker := range []Kind{Ladder, Catapult} {
		g := table{players: 2, hands: [][]Kind{hand(breaker, King), hand(Minstrel, Executioner)},
			forts: [][]Kind{nil, {Castle}}}.build(t)
		play(t, g, 0, attack(breaker, 1))
		require.Equal(t, 0, g.ToMove(), "%s: no response", breaker)
		assert.Equal(t, breaker == Ladder, g.forts[1][FortCastle] != NoKind, "%s: the Castle", breaker)
		play(t, g, 0, attack(King, 1))
		assert.Equal(t, []engine.Option{decline(), respond(Minstrel), respond(Executioner)}, g.Options())
		play(t, g, 1, respond(Minstrel))
		assert.Equal(t, 5, g.Gems(1))
		assert.Equal(t, 1, g.turnSeat, "the Minstrel ended the attacker's turn")
	}
}

func contains(ks []Kind, k Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}
