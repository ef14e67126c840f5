package ivanhoe

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	andy = iota
	bill
	chris
	diane
)

// TestRulebookSampleTournaments replays the two sample tournaments at the end of the
// rulebook from a hand-set deal: Andy, Bill, Chris and Diane sit in seats 0-3, Diane
// dealt, so Andy starts. Every draw comes from a pile of cards nobody plays, and the
// Ivanhoe card stays in the pile, so nothing but the script happens.
func TestRulebookSampleTournaments(t *testing.T) {
	g := fixture(t, 4)
	g.dealer = diane
	deal(t, g, andy, Red3, Red5, Maiden, Blue5, Riposte, Adapt, Green1, Green1)
	deal(t, g, bill, Red5, Yellow3, Yellow3, Yellow3, Yellow3, Yellow3, Yellow3, Yellow3)
	deal(t, g, chris, Blue2, Outwit, Blue5, Purple3, Purple3, Purple3, Purple3, Yellow2)
	deal(t, g, diane, Red4, Red3, Red3, Squire2, Squire3, Blue3, Blue4, Blue3, DropWeapon, Green1, Green1)
	// About thirty draws come from cards nobody plays in the script.
	filler := []Card{Purple4, Purple4, Purple4, Purple4, Purple5, Purple5, Purple5, Purple5, Purple7, Purple7,
		Yellow2, Yellow2, Yellow2, Yellow3, Yellow4, Yellow4, Red4, Red4, Red4, Red4, Red4, Red3, Red3, Red3,
		Blue2, Blue2, Blue2, Blue4, Blue4, Blue4, Blue3, Blue3}
	stack(t, g, filler...)
	g.tournaments = 0
	g.startTournament(andy)

	// First tournament.
	do(t, g, option(ChooseColour, int(Red)))
	do(t, g, option(PlayCard, int(Red3)))
	do(t, g, option(EndTurn))
	do(t, g, option(PlayCard, int(Red5))) // Bill
	do(t, g, option(EndTurn))
	do(t, g, option(Withdraw)) // Chris
	do(t, g, option(PlayCard, int(Red4)))
	do(t, g, option(PlayCard, int(Red3)))
	do(t, g, option(EndTurn)) // Diane 7
	do(t, g, option(PlayCard, int(Red5)))
	do(t, g, option(EndTurn)) // Andy 8
	require.Equal(t, bill, g.toMove)
	do(t, g, option(Withdraw))
	require.Equal(t, diane, g.toMove, "Chris has withdrawn and is skipped")
	do(t, g, option(PlayCard, int(Red3)))
	do(t, g, option(PlayCard, int(Squire2)))
	do(t, g, option(EndTurn)) // 12
	do(t, g, option(PlayCard, int(Maiden)))
	do(t, g, option(EndTurn)) // Andy 14
	do(t, g, option(PlayCard, int(Squire3)))
	do(t, g, option(EndTurn)) // Diane 15
	require.Equal(t, andy, g.toMove)
	do(t, g, option(Withdraw)) // a maiden, but no token to give back: no decision
	assert.Equal(t, []int{3, 5, 7, 8, 12, 14, 15}, announced(g))
	assert.True(t, g.tokens[diane][Red], "Diane wins the red token")
	assert.Equal(t, 0, countKind(g, EvGiveBack))

	// Second tournament: Diane leads.
	require.Equal(t, PhaseChooseColour, g.phase)
	require.Equal(t, diane, g.toMove)
	do(t, g, option(ChooseColour, int(Blue)))
	do(t, g, option(PlayCard, int(Blue3)))
	do(t, g, option(EndTurn)) // 3
	do(t, g, option(PlayCard, int(Blue5)))
	do(t, g, option(EndTurn))  // Andy 5
	do(t, g, option(Withdraw)) // Bill
	do(t, g, option(PlayCard, int(Blue2)))
	do(t, g, action(Outwit, andy, 0, 0)) // Chris gives her blue 2 for Andy's blue 5
	do(t, g, option(EndTurn))            // 5
	assert.Equal(t, []Card{Blue2}, g.disp[andy].slice())
	do(t, g, option(PlayCard, int(Blue4)))
	do(t, g, option(EndTurn)) // Diane 7
	do(t, g, action(Riposte, diane))
	do(t, g, option(EndTurn)) // Andy 6
	assert.Equal(t, []Card{Blue2, Blue4}, g.disp[andy].slice())
	do(t, g, option(PlayCard, int(Blue5)))
	do(t, g, option(EndTurn)) // Chris 10
	do(t, g, option(PlayCard, int(Blue3)))
	do(t, g, action(DropWeapon, NoArg, int(Green)))
	do(t, g, option(PlayCard, int(Green1)))
	do(t, g, option(PlayCard, int(Green1)))
	do(t, g, option(EndTurn)) // Diane 4
	do(t, g, action(Adapt))
	// Andy has no doubles; Chris keeps one 5; Diane keeps one 1 and one 3 (lowest value first).
	require.Equal(t, chris, g.toMove)
	require.Equal(t, PhaseAdapt, g.phase)
	do(t, g, option(KeepCard, 0))
	require.Equal(t, diane, g.toMove)
	require.Equal(t, 1, g.adaptValue)
	do(t, g, option(KeepCard, 2))
	require.Equal(t, 3, g.adaptValue)
	do(t, g, option(KeepCard, 0))
	require.Equal(t, andy, g.toMove)
	assert.Equal(t, []Card{Blue3, Green1}, g.disp[diane].slice(), "Diane's display is a 3 and a 1")
	assert.Equal(t, []Card{Blue5}, g.disp[chris].slice())
	do(t, g, option(PlayCard, int(Green1)))
	do(t, g, option(PlayCard, int(Green1)))
	do(t, g, option(EndTurn))  // Andy 4
	do(t, g, option(Withdraw)) // Chris
	do(t, g, option(Withdraw)) // Diane
	assert.Equal(t, []int{3, 5, 7, 8, 12, 14, 15, 3, 5, 5, 7, 6, 10, 4, 4}, announced(g))
	assert.True(t, g.tokens[andy][Green], "Andy wins the green token")
	assert.Equal(t, andy, g.starter, "and leads the next tournament")
	assert.Equal(t, PhaseChooseColour, g.phase)
}
