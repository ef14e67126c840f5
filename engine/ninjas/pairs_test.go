package ninjas

import (
	"fmt"
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFortificationAgainstEveryAttack plays every attack kind, as itself and as a Jester
// named so, against every fortification: whether it may be played, and what it does when
// the defender does not respond (N5-N7 and the cards' own rules).
func TestFortificationAgainstEveryAttack(t *testing.T) {
	type effect struct {
		legal     bool
		taken     int  // gems taken (value cards: their strength)
		castle    bool // a Castle still stands afterwards
		archer    bool // an Archer still stands afterwards
		ladder    bool // a Ladder stands for the rest of the turn
		thenValue bool // a Soldier may be played at the rival afterwards
	}
	const value = -1 // taken: the attack's own strength
	no := effect{}
	forts := []struct {
		name  string
		kinds []Kind
		want  map[Kind]effect
	}{
		{"no fortification", nil, map[Kind]effect{
			Peasant: {legal: true, taken: value}, Soldier: {legal: true, taken: value},
			Knight: {legal: true, taken: value}, King: {legal: true, taken: value},
			Archer: no, Ladder: no, Catapult: no,
			Dragon: {legal: true, taken: 2}, Ninja: {legal: true, taken: 2},
		}},
		{"Castle", []Kind{Castle}, map[Kind]effect{
			Peasant: no, Soldier: no, Knight: no, King: no, Archer: no,
			Ladder:   {legal: true, castle: true, ladder: true, thenValue: true},
			Catapult: {legal: true, thenValue: true},
			Dragon:   {legal: true, taken: 2},
			Ninja:    {legal: true, taken: 2, castle: true},
		}},
		{"Archer", []Kind{Archer}, map[Kind]effect{
			Peasant: no, Soldier: no, Knight: no, King: no,
			Archer: {legal: true, thenValue: true},
			Ladder: no, Catapult: no, Dragon: no,
			Ninja: {legal: true, taken: 2},
		}},
		{"Castle and Archer", []Kind{Castle, Archer}, map[Kind]effect{
			Peasant: no, Soldier: no, Knight: no, King: no,
			Archer:   {legal: true, castle: true},
			Ladder:   no,
			Catapult: {legal: true, thenValue: true},
			Dragon:   no,
			Ninja:    {legal: true, taken: 2, castle: true},
		}},
		{"Minstrel", []Kind{Minstrel}, map[Kind]effect{
			Peasant: no, Soldier: no, Knight: no, King: no, Archer: no, Ladder: no,
			Catapult: no, Dragon: no, Ninja: no,
		}},
		{"Castle, Archer and Minstrel", []Kind{Castle, Archer, Minstrel}, map[Kind]effect{
			Peasant: no, Soldier: no, Knight: no, King: no, Archer: no, Ladder: no,
			Catapult: no, Dragon: no, Ninja: no,
		}},
	}
	for _, f := range forts {
		for _, k := range attackKinds {
			for _, jester := range []bool{false, true} {
				want := f.want[k]
				name := fmt.Sprintf("%s against %s", cardsPhrase(k, 1, jester), f.name)
				if k == Peasant && !jester {
					name = "2 Peasants against " + f.name
				}
				t.Run(name, func(t *testing.T) {
					attacker := hand(Soldier)
					o := attack(k, 1)
					strength := k.takes()
					switch {
					case jester:
						attacker = append(attacker, Jester)
						o = jesterAttack(k, 1)
					case k == Peasant:
						attacker = append(attacker, Peasant, Peasant)
						o = revolt(2, 1)
						strength = 2
					default:
						attacker = append(attacker, k)
					}
					g := table{players: 3, hands: [][]Kind{attacker, nil, nil}, forts: [][]Kind{nil, f.kinds}}.build(t)
					require.Equal(t, want.legal, legal(g, o), "may it be played")
					if !want.legal {
						return
					}
					before := g.discard
					play(t, g, 0, o)
					if unanswered(k) {
						require.Equal(t, 0, g.ToMove(), "a Ladder or a Catapult gets no response (N8a)")
					} else {
						play(t, g, 1, decline())
					}
					taken := want.taken
					if taken == value {
						taken = strength
					}
					assert.Equal(t, GemsEach-taken, g.Gems(1), "gems left")
					assert.Equal(t, want.castle, g.forts[1][FortCastle] != NoKind, "Castle standing")
					assert.Equal(t, want.archer, g.forts[1][FortArcher] != NoKind, "Archer standing")
					if taken > 0 {
						passWindow(t, g)
						assert.Equal(t, 1, g.turnSeat, "gems moved: the turn ends")
						return
					}
					assert.Equal(t, PhaseAttacking, g.phase)
					assert.Equal(t, want.ladder, g.ladder != NoKind, "Ladder standing")
					assert.Equal(t, want.thenValue, legal(g, attack(Soldier, 1)), "a Soldier may follow")
					card := k
					if jester {
						card = Jester
					}
					if !want.ladder {
						assert.Greater(t, g.discard[card], before[card], "the attacking card is discarded")
					}
					play(t, g, 0, stop())
					assert.Equal(t, NoKind, g.ladder)
				})
			}
		}
	}
}

// TestChoice_AnAttackingArcherIsAnsweredByAnExecutionerOrAMinstrel: the rulings name
// no list of enemies for an attacking Archer, so the response cards' own wording holds:
// an Executioner kills it (only Ladders and Catapults are spared) and ends the turn.
func TestChoice_AnAttackingArcherIsAnsweredByAnExecutionerOrAMinstrel(t *testing.T) {
	g := table{players: 2, hands: [][]Kind{hand(Archer), hand(Executioner, Minstrel, Traitor, King)}, forts: [][]Kind{nil, {Archer}}}.build(t)
	play(t, g, 0, attack(Archer, 1))
	assert.Equal(t, []engine.Option{decline(), respond(Minstrel), respond(Executioner)}, g.Options())
	play(t, g, 1, respond(Executioner))
	assert.Equal(t, Archer, g.forts[1][FortArcher])
	assert.Equal(t, 1, g.turnSeat)
}
