package heuristic

import (
	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ninjas"
)

// Ninjas returns the reference heuristic for Of Knights and Ninjas. It scores every
// option in gems and plays the best: it attacks the leader where the attack is likely to
// take gems, fortifies when it has gems worth keeping, answers an attack only when the
// gems saved outweigh the card spent (so Executioners, Traitors and Princesses wait for
// big attacks), and holds a Highwayman for a big swing or a win. It keeps no state and is
// safe for concurrent use.
func Ninjas() engine.Policy { return engine.PolicyFunc(ninjasChoose) }

// ninjasKeep is what a card in hand is worth, in gems: what the heuristic gives up by playing
// or discarding it. A Jester stands for any card, so it is kept for the best uses.
var ninjasKeep = [ninjas.NumKinds]float64{
	ninjas.Peasant: 0.3, ninjas.Soldier: 0.6, ninjas.Knight: 0.9, ninjas.King: 1.2,
	ninjas.Castle: 0.9, ninjas.Archer: 0.9, ninjas.Minstrel: 1.0,
	ninjas.Dragon: 1.1, ninjas.Catapult: 0.6, ninjas.Ninja: 1.3, ninjas.Ladder: 0.5,
	ninjas.Highwayman: 1.4, ninjas.Princess: 0.8, ninjas.Executioner: 1.5, ninjas.Traitor: 1.3,
	ninjas.Jester: 2.5,
}

// Thresholds below which the heuristic would rather not act (in gems).
const (
	ninjasAttackAtLeast  = 0.35
	ninjasFortifyAtLeast = 0.5
	ninjasRespondAtLeast = 0.2
)

func ninjasChoose(view engine.View, _ []engine.Event, options []engine.Option) int {
	v, ok := view.(*ninjas.View)
	if !ok || len(options) == 0 {
		return 0
	}
	best, bestScore := 0, -1e9
	var p ninjas.Play // read in place and passed by pointer: the play-outs' inner loop
	for i, o := range options {
		p.Read(o)
		s := ninjasScoreOption(v, &p)
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

// ninjasCost is what playing p takes out of the hand.
func ninjasCost(p *ninjas.Play) float64 {
	if p.Jester {
		return ninjasKeep[ninjas.Jester]
	}
	if p.Card >= ninjas.NumKinds {
		return 0
	}
	return ninjasKeep[p.Card] * float64(max(p.Count, 1))
}

func ninjasScoreOption(v *ninjas.View, p *ninjas.Play) float64 {
	switch p.Kind {
	case ninjas.DiscardCard:
		// Discarding is the default action: worth nothing but the card lost, and a
		// second copy of a fortification already standing is worth little.
		c := ninjasKeep[p.Card]
		if slot, ok := ninjasFortSlot(p.Card); ok && v.Has(v.Seat, slot) && v.Hand[p.Card] == 1 {
			c *= 0.5
		}
		return -c
	case ninjas.StopTurn:
		if v.Phase == ninjas.PhaseAttacking {
			return ninjasAttackAtLeast
		}
		if v.Phase == ninjas.PhaseFortifying {
			return ninjasFortifyAtLeast
		}
		return 0
	case ninjas.PlayAttack:
		return ninjasScoreAttack(v, p) + ninjasActionBias(v)
	case ninjas.PlayFortify:
		return ninjasScoreFortify(v, p) + ninjasActionBias(v)
	case ninjas.NoResponse:
		return ninjasRespondAtLeast
	case ninjas.PlayResponse:
		return ninjasScoreResponse(v, p)
	case ninjas.LetGemsGo:
		return 0
	case ninjas.PlayHighwayman:
		return ninjasScoreHighwayman(v, p)
	}
	return -1e6
}

// ninjasActionBias puts attacking and fortifying above discarding on the turn's first
// choice: a discard scores minus the card lost, so an action must beat the threshold
// plus that.
func ninjasActionBias(v *ninjas.View) float64 {
	if v.Phase == ninjas.PhaseAction {
		return -ninjasAttackAtLeast
	}
	return 0
}

func ninjasFortSlot(k ninjas.Kind) (ninjas.Fort, bool) {
	switch k {
	case ninjas.Castle:
		return ninjas.FortCastle, true
	case ninjas.Archer:
		return ninjas.FortArcher, true
	case ninjas.Minstrel:
		return ninjas.FortMinstrel, true
	}
	return 0, false
}

// ninjasStrength is the gems an unanswered card takes before the defender's cap.
func ninjasStrength(k ninjas.Kind, count int) int {
	switch {
	case k.IsValue():
		return k.Value() * count
	case k == ninjas.Ninja || k == ninjas.Dragon:
		return 2
	}
	return 0
}

// ninjasLeaderWeight makes gems taken from the leader worth more than gems taken from the
// others, and gems taken from a seat about to win worth most.
func ninjasLeaderWeight(v *ninjas.View, t int) float64 {
	most := 0
	for s := 0; s < v.Players; s++ {
		if s != v.Seat && s != t {
			most = max(most, v.Gems[s])
		}
	}
	w := 1.0
	if v.Gems[t] >= most {
		w += 0.3
	}
	if v.Gems[t] >= 8 {
		w += 0.7
	}
	return w
}

func ninjasScoreAttack(v *ninjas.View, p *ninjas.Play) float64 {
	t := p.Target
	gems := v.Gems[t]
	k := p.Card
	if k == ninjas.Archer || k == ninjas.Ladder || k == ninjas.Catapult {
		return ninjasScoreBreaker(v, p)
	}
	take := min(ninjasStrength(k, p.Count), gems)
	if take == 0 {
		return -1
	}
	// A defender with cards may answer; a Ninja or a Dragon is harder to answer.
	hold := 0.8 - 0.04*float64(v.HandSizes[t])
	if k == ninjas.Ninja || k == ninjas.Dragon {
		hold = 0.9 - 0.02*float64(v.HandSizes[t])
	}
	if v.HandSizes[t] == 0 {
		hold = 1
	}
	hold = max(hold, 0.3)
	s := float64(take)*hold*ninjasLeaderWeight(v, t) - 0.5*ninjasCost(p)
	if v.Gems[v.Seat]+take >= ninjas.WinGems {
		s += 3 * hold
	}
	if k == ninjas.Dragon && v.Has(t, ninjas.FortCastle) {
		s += 0.4
	}
	if k == ninjas.Ninja && v.Has(t, ninjas.FortArcher) {
		s += 0.4
	}
	return s
}

// ninjasScoreBreaker values a card that opens a fortification by the attack it lets follow.
func ninjasScoreBreaker(v *ninjas.View, p *ninjas.Play) float64 {
	t := p.Target
	h := v.Hand
	if p.Jester {
		h[ninjas.Jester]--
	} else {
		h[p.Card]--
	}
	castle := v.Has(t, ninjas.FortCastle)
	bestValue := 0
	for k := ninjas.Peasant; k <= ninjas.King; k++ {
		if h[k] > 0 {
			bestValue = max(bestValue, ninjasStrength(k, 1))
		}
	}
	bestValue = max(bestValue, int(h[ninjas.Peasant]))
	follow := 0
	switch p.Card {
	case ninjas.Archer:
		if h[ninjas.Dragon] > 0 {
			follow = 2
		}
		if !castle || h[ninjas.Catapult] > 0 || h[ninjas.Ladder] > 0 {
			follow = max(follow, bestValue)
		}
	case ninjas.Catapult:
		follow = bestValue
		if h[ninjas.Dragon] > 0 {
			follow = max(follow, 2)
		}
	case ninjas.Ladder:
		follow = bestValue
	}
	take := min(follow, v.Gems[t])
	if take == 0 {
		return -1
	}
	return 0.7*float64(take)*ninjasLeaderWeight(v, t) - 0.5*ninjasCost(p) - 0.2
}

func ninjasScoreFortify(v *ninjas.View, p *ninjas.Play) float64 {
	me := v.Seat
	gems := v.Gems[me]
	leader := true
	for s := 0; s < v.Players; s++ {
		if s != me && v.Gems[s] > gems {
			leader = false
		}
	}
	s := 0.3 + 0.25*float64(gems-4)
	if leader {
		s += 0.4
	}
	if gems >= 8 {
		s += 0.8
	}
	if p.Card == ninjas.Minstrel {
		// It stands for one round only and is a response as well: for the rich.
		s -= 0.7
	}
	if p.Jester {
		s -= ninjasKeep[ninjas.Jester] - ninjasKeep[p.Card]
	}
	return s
}

func ninjasScoreResponse(v *ninjas.View, p *ninjas.Play) float64 {
	me := v.Seat
	att := v.Pending
	other := v.TurnSeat
	if me == v.TurnSeat {
		other = v.Target
	}
	str := ninjasStrength(att.Kind, att.Count)
	take := min(str, v.Gems[me])
	w := 1.0
	if v.Gems[other]+take >= ninjas.WinGems {
		w = 4 // the gems would win the game for the attacker
	}
	saved := 0.0
	switch p.Card {
	case ninjas.Minstrel, ninjas.Executioner:
		saved = float64(take) + 0.5
		switch att.Kind { // a Catapult is never answered (N8a)
		case ninjas.Archer:
			saved += 0.9
		case ninjas.Dragon:
			if v.Has(me, ninjas.FortCastle) {
				saved += 0.9
			}
		}
	case ninjas.Princess:
		saved = float64(take) + ninjasKeep[att.Kind]
	case ninjas.Traitor:
		saved = float64(take) + 0.4*float64(min(str, v.Gems[other]))
	default:
		r := ninjasStrength(p.Card, p.Count)
		saved = float64(take - min(max(str-r, 0), v.Gems[me]))
	}
	return ninjasRespondAtLeast + saved*w - ninjasCost(p)
}

func ninjasScoreHighwayman(v *ninjas.View, p *ninjas.Play) float64 {
	me := v.Seat
	g := v.WindowGems
	if v.Gems[me]+g >= ninjas.WinGems || v.Gems[v.WindowHolder] >= ninjas.WinGems {
		return 10
	}
	need := 2
	if p.Jester {
		need = 3
	}
	if g < need {
		return -1
	}
	return float64(g)*ninjasLeaderWeight(v, v.WindowHolder) - ninjasCost(p)
}
