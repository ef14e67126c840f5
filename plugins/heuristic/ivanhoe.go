package heuristic

import (
	"github.com/arena-games/arena/engine"
	iv "github.com/arena-games/arena/engine/ivanhoe"
)

// Ivanhoe returns the rules-of-thumb Ivanhoe player:
//   - open in the colour it can back best, favouring colours whose token it lacks;
//   - in a turn, take the lead with as few cards as it can, or withdraw when it cannot,
//     or when the colour's token is already its own and the lead would cost cards;
//   - play an action card when it alone turns a losing position into the lead;
//   - keep maidens back unless they decide the tournament and no token is at stake;
//   - cancel with Ivanhoe what hurts its own display or hand;
//   - after a purple win take the hardest colour to win (purple, then the rarest).
func Ivanhoe() engine.Policy { return engine.PolicyFunc(chooseIvanhoe) }

func chooseIvanhoe(view engine.View, _ []engine.Event, opts []engine.Option) int {
	v, ok := view.(*iv.View)
	if !ok || len(opts) == 0 {
		return 0
	}
	switch v.Phase {
	case iv.PhaseChooseColour:
		return best(opts, func(o engine.Option) int { return colourStrength(v, iv.Colour(o.A)) })
	case iv.PhaseTurn:
		return ivanhoeTurn(v, opts)
	case iv.PhaseReaction:
		return find(opts, func(o engine.Option) bool {
			return iv.OptionKind(o.Kind) == iv.CancelAction && hurtsMe(v)
		}, iv.LetStand)
	case iv.PhaseTakeToken:
		return best(opts, func(o engine.Option) int { return tokenWant(v, iv.Colour(o.A)) })
	case iv.PhaseGiveBack:
		return best(opts, func(o engine.Option) int { return -tokenWant(v, iv.Colour(o.A)) })
	}
	return 0
}

// colourStrength scores how well v's hand backs a tournament in col.
func colourStrength(v *iv.View, col iv.Colour) int {
	score := 0
	for c := iv.Card(0); c <= iv.Green1; c++ {
		if c.Colour() == col {
			score += int(v.Hand[c]) * c.Value() * 2
			if col == iv.Green {
				score += int(v.Hand[c]) * 3 // one per card, but nobody else can do better
			}
		}
	}
	score += int(v.Hand[iv.Squire2])*2 + int(v.Hand[iv.Squire3])*3
	if !v.Tokens[v.Seat][col] {
		score += 10
	}
	if col == iv.Purple {
		score += 4 // the winner picks any colour
	}
	return score
}

// tokenWant ranks token colours: purple is hardest to win, then the colours whose cards
// are scarce.
func tokenWant(v *iv.View, col iv.Colour) int {
	return [iv.NumColours]int{iv.Purple: 50, iv.Red: 30, iv.Blue: 25, iv.Yellow: 20, iv.Green: 10}[col]
}

// hurtsMe reports whether the pending action takes from v's seat.
func hurtsMe(v *iv.View) bool {
	me := v.Seat
	switch v.Pending {
	case iv.Dodge, iv.BreakLance, iv.Riposte, iv.KnockDown, iv.Stunned:
		return v.PendingArgs[0] == me
	case iv.Outwit:
		return v.PendingArgs[0] == me
	case iv.Outmaneuver, iv.Charge, iv.Countercharge, iv.Disgrace, iv.Adapt:
		return v.InTournament[me] && len(v.Displays[me]) >= 2 && v.Shield != me
	case iv.Unhorse, iv.ChangeWeapon, iv.DropWeapon:
		return v.InTournament[me] && leaderTotal(v, v.PendingBy) < v.Total(me)
	}
	return false
}

// leaderTotal is the highest total among the seats in the tournament other than skip.
func leaderTotal(v *iv.View, skip int) int {
	m := 0
	for s := range v.Displays {
		if s != skip && v.InTournament[s] && v.Total(s) > m {
			m = v.Total(s)
		}
	}
	return m
}

func ivanhoeTurn(v *iv.View, opts []engine.Option) int {
	me := v.Seat
	need := leaderTotal(v, me) + 1
	have := v.Total(me)
	endTurn := indexOf(opts, iv.EndTurn)
	if endTurn >= 0 {
		return endTurn
	}
	withdraw := indexOf(opts, iv.Withdraw)
	ownToken := v.Colour != iv.Purple && v.Tokens[me][v.Colour]
	reach := have + playable(v, opts)
	if ownToken && v.PlayedThisTurn == 0 && need-have > 2 && withdraw >= 0 {
		return withdraw
	}
	if reach >= need || v.PlayedThisTurn == 0 && withdraw < 0 {
		// Play the card that gets closest to the lead without overshooting much, highest
		// first; a maiden only when nothing else will do and no token is at stake.
		bestI, bestScore := -1, -1<<30
		for i, o := range opts {
			if iv.OptionKind(o.Kind) != iv.PlayCard {
				continue
			}
			c := iv.Card(o.A)
			val := c.Value()
			if v.Colour == iv.Green {
				val = 1
			}
			score := val * 10
			if have+val >= need {
				score = 1000 - (have + val - need) // just enough beats far too much
			}
			if c == iv.Maiden {
				score -= 400
				if tokens(v, me) > 0 {
					score -= 400
				}
			}
			if score > bestScore {
				bestI, bestScore = i, score
			}
		}
		if bestI >= 0 {
			return bestI
		}
	}
	if a := swingAction(v, opts, need, have); a >= 0 {
		return a
	}
	if withdraw >= 0 {
		return withdraw
	}
	return 0
}

// playable is the total v could add from its hand this turn in the current colour,
// maidens left out (kept back).
func playable(v *iv.View, opts []engine.Option) int {
	t := 0
	for _, o := range opts {
		if iv.OptionKind(o.Kind) == iv.PlayCard && iv.Card(o.A) != iv.Maiden {
			c := iv.Card(o.A)
			n := int(v.Hand[c])
			if v.Stunned == v.Seat {
				n = 1
			}
			if v.Colour == iv.Green {
				t += n
			} else {
				t += n * c.Value()
			}
		}
	}
	return t
}

// swingAction picks an action card that takes from the leader or turns the colour to
// one v can win.
func swingAction(v *iv.View, opts []engine.Option, need, have int) int {
	me := v.Seat
	leader, lt := -1, -1
	for s := range v.Displays {
		if s != me && v.InTournament[s] && v.Total(s) > lt {
			leader, lt = s, v.Total(s)
		}
	}
	bestI, bestGain := -1, 0
	for i, o := range opts {
		if iv.OptionKind(o.Kind) != iv.PlayAction {
			continue
		}
		gain := 0
		switch iv.Card(o.A) {
		case iv.Dodge:
			if int(o.B) == leader {
				gain = v.Displays[leader][o.C].Value()
			}
		case iv.Riposte:
			if int(o.B) == leader {
				d := v.Displays[leader]
				gain = 2 * d[len(d)-1].Value()
			}
		case iv.BreakLance:
			if int(o.B) == leader {
				gain = 5
			}
		case iv.Unhorse, iv.ChangeWeapon:
			gain = colourStrength(v, iv.Colour(o.C)) / 4
		case iv.Countercharge, iv.Outmaneuver:
			gain = 3
		case iv.KnockDown:
			gain = 2
		case iv.Shield:
			if have > 0 {
				gain = 2
			}
		case iv.Stunned:
			if int(o.B) == leader {
				gain = 3
			}
		}
		if gain > bestGain {
			bestI, bestGain = i, gain
		}
	}
	return bestI
}

func tokens(v *iv.View, s int) int {
	n := 0
	for _, t := range v.Tokens[s] {
		if t {
			n++
		}
	}
	return n
}

func indexOf(opts []engine.Option, k iv.OptionKind) int {
	for i, o := range opts {
		if iv.OptionKind(o.Kind) == k {
			return i
		}
	}
	return -1
}

// find returns the first option that ok accepts, else the first of kind fallback, else 0.
func find(opts []engine.Option, ok func(engine.Option) bool, fallback iv.OptionKind) int {
	for i, o := range opts {
		if ok(o) {
			return i
		}
	}
	if i := indexOf(opts, fallback); i >= 0 {
		return i
	}
	return 0
}

// best returns the index of the option with the highest score (the first on ties).
func best(opts []engine.Option, score func(engine.Option) int) int {
	bi, bs := 0, score(opts[0])
	for i := 1; i < len(opts); i++ {
		if s := score(opts[i]); s > bs {
			bi, bs = i, s
		}
	}
	return bi
}
