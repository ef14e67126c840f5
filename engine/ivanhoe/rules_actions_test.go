package ivanhoe

import (
	"testing"

	"github.com/arena-games/arena/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestR21_OutmaneuverTakesEveryOpponentsLastCard(t *testing.T) {
	g := fixture(t, 4)
	turnOf(g, 0, Blue)
	lay(t, g, 0, Blue2, Blue3)
	lay(t, g, 1, Blue4, Blue5)
	lay(t, g, 2, Blue3)
	lay(t, g, 3, Squire2, Squire3)
	g.shield = 3
	pull(t, g, Shield)
	deal(t, g, 0, Outmaneuver)
	do(t, g, action(Outmaneuver))
	assert.Equal(t, []Card{Blue2, Blue3}, g.disp[0].slice(), "not the actor")
	assert.Equal(t, []Card{Blue4}, g.disp[1].slice())
	assert.Equal(t, []Card{Blue3}, g.disp[2].slice(), "a single card stays (R11)")
	assert.Equal(t, []Card{Squire2, Squire3}, g.disp[3].slice(), "shielded")
}

func TestR21_ChargeAndCounterchargeHitEveryoneTheActorIncluded(t *testing.T) {
	g := fixture(t, 3)
	turnOf(g, 0, Yellow)
	lay(t, g, 0, Yellow2, Yellow4)
	lay(t, g, 1, Yellow3, Yellow2, Yellow2)
	lay(t, g, 2, Squire2)
	deal(t, g, 0, Charge, Countercharge)
	do(t, g, action(Charge))
	assert.Equal(t, []Card{Yellow4}, g.disp[0].slice())
	assert.Equal(t, []Card{Yellow3}, g.disp[1].slice())
	assert.Equal(t, []Card{Squire2}, g.disp[2].slice(), "its only card stays")
	assert.False(t, has(g, action(Countercharge)), "the only 4 is a display's only card: no effect")
	lay(t, g, 1, Yellow4)
	do(t, g, action(Countercharge))
	assert.Equal(t, []Card{Yellow4}, g.disp[0].slice(), "the actor's only card stays")
	assert.Equal(t, []Card{Yellow3}, g.disp[1].slice())
	assert.Equal(t, 3, int(g.discard[Yellow2]))
	assert.Equal(t, 1, int(g.discard[Yellow4]))
}

func TestR21_DisgraceDiscardsSupporters(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Red)
	lay(t, g, 0, Squire3, Red3)
	lay(t, g, 1, Maiden, Squire2)
	deal(t, g, 0, Disgrace)
	do(t, g, action(Disgrace))
	assert.Equal(t, []Card{Red3}, g.disp[0].slice())
	assert.Equal(t, []Card{Maiden}, g.disp[1].slice(), "all supporters: the earliest stays")
}

func TestR21_AdaptAsksEachPlayerInSeatOrderFromTheActor(t *testing.T) {
	g := fixture(t, 3)
	turnOf(g, 1, Blue)
	lay(t, g, 0, Blue3, Squire3, Blue4)
	lay(t, g, 1, Blue2, Squire2, Blue5)
	lay(t, g, 2, Blue4, Blue4)
	deal(t, g, 1, Adapt)
	do(t, g, action(Adapt))
	// The actor (seat 1) chooses first, then seat 2, then seat 0.
	require.Equal(t, PhaseAdapt, g.phase)
	assert.Equal(t, 1, g.toMove)
	assert.ElementsMatch(t, []string{"keep blue 2 (display position 0)", "keep squire 2 (display position 1)"}, describeAll(g))
	do(t, g, option(KeepCard, 1))
	assert.Equal(t, 2, g.toMove)
	assert.Len(t, g.Options(), 1, "two blue 4s side by side are one choice")
	do(t, g, option(KeepCard, 0))
	assert.Equal(t, 0, g.toMove)
	do(t, g, option(KeepCard, 1))
	assert.Equal(t, PhaseTurn, g.phase)
	assert.Equal(t, 1, g.toMove, "the turn goes back to the actor")
	assert.Equal(t, []Card{Squire3, Blue4}, g.disp[0].slice())
	assert.Equal(t, []Card{Squire2, Blue5}, g.disp[1].slice())
	assert.Equal(t, []Card{Blue4}, g.disp[2].slice())
}

func TestR22_OutwitSwapsFaceUpCardsOntoTheTop(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Red)
	lay(t, g, 0, Red3, Red4)
	lay(t, g, 1, Red5, Squire2)
	deal(t, g, 0, Outwit)
	do(t, g, action(Outwit, 1, 0, 0))
	assert.Equal(t, []Card{Red4, Red5}, g.disp[0].slice(), "the card taken goes on top")
	assert.Equal(t, []Card{Squire2, Red3}, g.disp[1].slice())
}

func TestR22_OutwitMovesShieldAndStunnedButNeverEmptiesADisplay(t *testing.T) {
	g := fixture(t, 3)
	turnOf(g, 0, Red)
	g.shield = 0
	pull(t, g, Shield)
	g.stunned = 1
	pull(t, g, Stunned)
	lay(t, g, 0, Red3)
	lay(t, g, 1, Red5)
	lay(t, g, 2, Red4)
	deal(t, g, 0, Outwit)
	assert.True(t, has(g, action(Outwit, 1, FaceShield, FaceStunned)))
	assert.False(t, has(g, action(Outwit, 1, 0, FaceStunned)), "my only display card for their Stunned would empty my display")
	assert.False(t, has(g, action(Outwit, 2, FaceShield, 0)), "their only card for my Shield would empty their display")
	assert.True(t, has(g, action(Outwit, 1, 0, 0)))
	do(t, g, action(Outwit, 1, FaceShield, FaceStunned))
	assert.Equal(t, 1, g.shield)
	assert.Equal(t, 0, g.stunned)

	// A shielded opponent cannot be outwitted, so their Shield is out of reach (package doc).
	h := fixture(t, 2)
	turnOf(h, 0, Red)
	h.shield = 1
	pull(t, h, Shield)
	lay(t, h, 0, Red3, Red4)
	lay(t, h, 1, Red5, Red3)
	deal(t, h, 0, Outwit)
	assert.False(t, has(h, action(Outwit, 1, 0, FaceShield)))
	assert.False(t, has(h, action(Outwit, 1, 0, 0)))
}

func TestR23_IvanhoeHolderMayCancelAnActionCard(t *testing.T) {
	g := fixture(t, 3)
	turnOf(g, 0, Red)
	lay(t, g, 0, Red3)
	lay(t, g, 1, Red4, Red5)
	deal(t, g, 2, Ivanhoe)
	deal(t, g, 0, Dodge)
	do(t, g, action(Dodge, 1, 1))
	require.Equal(t, PhaseReaction, g.phase)
	assert.Equal(t, 2, g.toMove, "asked of the holder")
	do(t, g, option(CancelAction))
	assert.Equal(t, []Card{Red4, Red5}, g.disp[1].slice(), "no effect")
	assert.Equal(t, 1, int(g.discard[Dodge]))
	assert.Equal(t, 1, int(g.discard[Ivanhoe]))
	assert.Equal(t, 0, g.toMove, "the actor goes on")
	assert.Equal(t, 1, g.played, "the cancelled card was still played (R3)")
}

func TestR23_IvanhoeIsAskedForShieldStunnedAndKnockDownBeforeTheTake(t *testing.T) {
	for _, c := range []Card{Shield, Stunned, KnockDown, ChangeWeapon} {
		g := fixture(t, 2)
		turnOf(g, 0, Red)
		lay(t, g, 0, Red3)
		deal(t, g, 1, Ivanhoe, Blue2)
		deal(t, g, 0, c)
		o := g.Options()[0]
		require.Equal(t, c, Card(o.A))
		do(t, g, o)
		require.Equal(t, PhaseReaction, g.phase, "%s", c)
		require.Equal(t, 2, g.handSize[1], "%s: nothing taken before the answer", c)
		do(t, g, option(CancelAction))
		assert.Equal(t, engine.NoSeat, g.shield)
		assert.Equal(t, engine.NoSeat, g.stunned)
		assert.Equal(t, 1, g.handSize[1]) // only the Ivanhoe card left the hand
		assert.Equal(t, Red, g.colour)
	}
}

func TestR23_WithdrawnPlayersCannotPlayIvanhoe(t *testing.T) {
	g := fixture(t, 3)
	turnOf(g, 0, Red)
	lay(t, g, 0, Red3)
	lay(t, g, 1, Red4, Red5)
	deal(t, g, 2, Ivanhoe)
	g.in[2] = false
	deal(t, g, 0, Dodge)
	do(t, g, action(Dodge, 1, 1))
	assert.Equal(t, PhaseTurn, g.phase)
	assert.Equal(t, []Card{Red4}, g.disp[1].slice())
	assert.False(t, has(g, action(Ivanhoe)), "and it is never an action of one's own turn")
}

func TestR24_TokensForTheFinalColourAndChoiceAfterPurple(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Purple)
	lay(t, g, 0, Purple3)
	lay(t, g, 1, Purple4)
	deal(t, g, 0, ChangeWeapon)
	g.tokens[1][Red] = true
	g.pool[Red]--
	do(t, g, option(Withdraw))
	require.Equal(t, PhaseTakeToken, g.phase)
	assert.Equal(t, 1, g.toMove)
	assert.ElementsMatch(t, []string{"take a purple token", "take a blue token", "take a yellow token", "take a green token"}, describeAll(g))
	do(t, g, option(TakeToken, int(Yellow)))
	assert.True(t, g.tokens[1][Yellow])

	// A win in a colour already held gives nothing.
	h := fixture(t, 2)
	turnOf(h, 0, Red)
	lay(t, h, 0, Red3)
	lay(t, h, 1, Red4)
	h.tokens[1][Red] = true
	h.pool[Red]--
	do(t, h, option(Withdraw))
	assert.Equal(t, 1, countKind(h, EvNoToken))
	assert.Equal(t, 4, h.pool[Red])

	// The final colour counts, not the starting one.
	k := fixture(t, 2)
	turnOf(k, 0, Red)
	lay(t, k, 0, Red3)
	lay(t, k, 1, Red4)
	deal(t, k, 0, DropWeapon)
	do(t, k, action(DropWeapon, NoArg, int(Green)))
	do(t, k, option(Withdraw))
	assert.True(t, k.tokens[1][Green])
}

func TestR25_WithdrawingWithAMaidenGivesATokenBack(t *testing.T) {
	for _, col := range []Colour{Red, Green} {
		g := fixture(t, 3)
		turnOf(g, 0, col)
		lay(t, g, 0, Maiden)
		g.tokens[0][Blue], g.tokens[0][Yellow] = true, true
		g.pool[Blue]--
		g.pool[Yellow]--
		do(t, g, option(Withdraw))
		require.Equal(t, PhaseGiveBack, g.phase, "in %s too", col)
		assert.ElementsMatch(t, []string{"give back the blue token", "give back the yellow token"}, describeAll(g))
		do(t, g, option(GiveBack, int(Yellow)))
		assert.Equal(t, [NumColours]bool{Blue: true}, g.tokens[0])
		assert.Equal(t, 5, g.pool[Yellow])
		assert.Equal(t, 1, g.toMove, "then the turn passes")
	}
}

func TestR26_WithdrawnAndWinningTablesAreDiscarded(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Red)
	lay(t, g, 0, Red3, Red4)
	lay(t, g, 1, Red5, Red3)
	g.shield, g.stunned = 0, 1
	pull(t, g, Shield)
	pull(t, g, Stunned)
	deal(t, g, 1, Red4) // the winner can start again
	do(t, g, option(Withdraw))
	assert.Equal(t, 0, int(g.disp[0].n)+int(g.disp[1].n))
	assert.Equal(t, engine.NoSeat, g.shield)
	assert.Equal(t, engine.NoSeat, g.stunned)
	assert.Equal(t, 6, g.discardN, "four display cards, Shield and Stunned")
	assert.Equal(t, 1, g.starter, "the winner starts the next tournament")
}

func TestR27_DecisionBoundAdjudicatesByTokens(t *testing.T) {
	g := fixture(t, 3)
	turnOf(g, 0, Red)
	lay(t, g, 0, Red3)
	deal(t, g, 0, Red4)
	g.tokens[2][Blue], g.tokens[2][Red] = true, true
	g.tokens[1][Blue] = true
	g.pool[Blue] -= 2
	g.pool[Red]--
	g.decisions = MaxDecisions - 1
	do(t, g, option(PlayCard, int(Red4)))
	require.True(t, g.Terminal())
	assert.Equal(t, engine.NoSeat, g.ToMove())
	assert.Empty(t, g.Options())
	r := g.Result()
	assert.True(t, r.Adjudicated)
	assert.Equal(t, []int{2, 1, 0}, r.Place)
	assert.ErrorIs(t, g.Apply(0), engine.ErrIllegal)
}

func TestR28_ResultRanksTheWinnerFirstThenByTokensWithTies(t *testing.T) {
	g := fixture(t, 4)
	g.winner = 3
	g.phase = PhaseOver
	g.tokens[3] = [NumColours]bool{true, true, true, true, false}
	g.tokens[0] = [NumColours]bool{true, true, false, false, false}
	g.tokens[1] = [NumColours]bool{false, true, false, true, false}
	g.tokens[2] = [NumColours]bool{true, false, false, false, false}
	r := g.Result()
	assert.Equal(t, []int{1, 1, 3, 0}, r.Place)
	assert.Equal(t, []int{2, 2, 1, 4}, r.Score)
	assert.False(t, r.Adjudicated)
}

func TestR12_OutwitNeverOffersASwapOfEqualCardsThatChangesNothing(t *testing.T) {
	g := fixture(t, 2)
	turnOf(g, 0, Red)
	lay(t, g, 0, Red3, Red4, Red4)
	lay(t, g, 1, Red5, Red4)
	deal(t, g, 0, Outwit)
	assert.False(t, has(g, action(Outwit, 1, 1, 1)), "my red 4 for their red 4 leaves both displays as they were")
	assert.True(t, has(g, action(Outwit, 1, 1, 0)), "my red 4 for their red 5 changes both")
	assert.True(t, has(g, action(Outwit, 1, 0, 1)), "my red 3 for their red 4 changes both")

	// An equal swap that reorders one display changes something, so it stays legal.
	h := fixture(t, 2)
	turnOf(h, 0, Red)
	lay(t, h, 0, Red4, Red4, Red3)
	lay(t, h, 1, Red5, Red4)
	deal(t, h, 0, Outwit)
	do(t, h, action(Outwit, 1, 0, 1))
	assert.Equal(t, []Card{Red4, Red3, Red4}, h.disp[0].slice())
	assert.Equal(t, []Card{Red5, Red4}, h.disp[1].slice())
}

// TestR12_NoOutwitOptionInRandomGamesLeavesBothDisplaysUnchanged plays every Outwit option
// offered in seeded random games on a copy and checks that it changed a display or who
// holds Shield or Stunned.
func TestR12_NoOutwitOptionInRandomGamesLeavesBothDisplaysUnchanged(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 100
	}
	tried := 0
	for i := 0; i < games; i++ {
		players := MinPlayers + i%(MaxPlayers-MinPlayers+1)
		g, err := New(uint64(7000+i), players)
		require.NoError(t, err)
		r := engine.NewRand(uint64(i))
		for !g.Terminal() {
			for _, o := range g.Options() {
				if OptionKind(o.Kind) == PlayAction && Card(o.A) == Outwit {
					requireOutwitChanges(t, g, o)
					tried++
				}
			}
			require.NoError(t, g.Apply(r.Intn(len(g.Options()))))
		}
	}
	t.Logf("%d Outwit options played", tried)
	assert.Greater(t, tried, 100, "too few Outwit options to mean anything")
}

// requireOutwitChanges plays o on a copy of g, lets any Ivanhoe holder decline, and
// requires that the displays or the Shield and Stunned holders changed.
func requireOutwitChanges(t *testing.T, g *Game, o engine.Option) {
	t.Helper()
	w := g.Clone().(*Game)
	i, ok := engine.Find(w, o)
	require.True(t, ok)
	require.NoError(t, w.Apply(i))
	for w.phase == PhaseReaction {
		j, ok := engine.Find(w, option(LetStand))
		require.True(t, ok)
		require.NoError(t, w.Apply(j))
	}
	same := w.disp == g.disp && w.shield == g.shield && w.stunned == g.stunned
	require.False(t, same, "decision %d: %q changed nothing", g.decisions, g.Describe(o))
}

// TestR23a_EveryPlayerInTheTournamentIsAskedHolderOrNot: after an action card each other
// player still in the tournament is asked in seat order from the actor's left, whoever
// holds Ivanhoe (nobody, a player in the tournament, one who withdrew), so the seats
// asked and their order tell nobody where the card is. Without it, letting the action
// stand is the one option.
func TestR23a_EveryPlayerInTheTournamentIsAskedHolderOrNot(t *testing.T) {
	for _, holder := range []int{engine.NoSeat, 1, 2, 3} {
		g := fixture(t, 4)
		turnOf(g, 0, Red)
		lay(t, g, 0, Red3)
		lay(t, g, 1, Red4, Red5)
		lay(t, g, 3, Red3)
		g.in[2] = false
		if holder != engine.NoSeat {
			deal(t, g, holder, Ivanhoe)
		}
		deal(t, g, 0, Dodge)
		i, ok := engine.Find(g, action(Dodge, 1, 1))
		require.True(t, ok)
		require.NoError(t, g.Apply(i))
		var asked []int
		for g.phase == PhaseReaction {
			want := []string{"let Dodge stand"}
			if g.toMove == holder {
				want = []string{"play Ivanhoe to cancel Dodge", "let Dodge stand"}
			}
			require.Equal(t, want, describeAll(g), "holder %d, seat %d asked", holder, g.toMove)
			asked = append(asked, g.toMove)
			require.NoError(t, g.Apply(len(want)-1))
		}
		assert.Equal(t, []int{1, 3}, asked, "holder %d: seat 2 withdrew, the actor is not asked", holder)
		assert.Equal(t, []Card{Red4}, g.disp[1].slice(), "holder %d: the Dodge took effect", holder)
	}
}

// TestR23a_ACancelEndsTheQuestions: once the holder cancels, nobody after it is asked.
func TestR23a_ACancelEndsTheQuestions(t *testing.T) {
	g := fixture(t, 4)
	turnOf(g, 0, Red)
	lay(t, g, 0, Red3)
	lay(t, g, 1, Red4, Red5)
	deal(t, g, 2, Ivanhoe)
	deal(t, g, 0, Dodge)
	do(t, g, action(Dodge, 1, 1)) // seat 1 lets it stand
	require.Equal(t, 2, g.toMove)
	do(t, g, option(CancelAction))
	assert.Equal(t, PhaseTurn, g.phase)
	assert.Equal(t, 0, g.toMove, "seat 3 is not asked; the actor goes on")
	assert.Equal(t, []Card{Red4, Red5}, g.disp[1].slice())
}
