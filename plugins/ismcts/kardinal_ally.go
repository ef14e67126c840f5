package ismcts

import "github.com/arena-games/arena/engine/kardinal"

// KardinalAllies is KardinalPotential crediting also the alliances still contested:
// a seat leading the advisors of one country of an alliance, not scoring it yet, and
// at most one advisor behind the leaders of the other, where one more advisor fits,
// gains ally points per advisor of both countries (one more counted for its own next).
// KardinalPotential credits only an alliance whose other country has no advisor yet;
// alliances score only at the end (K11), so a play-out cut off mid-game sees a
// majority one advisor from tying, which counts as leading, as worth nothing.
func KardinalAllies(t, ally float64) Evaluate {
	return potentialWith(t, func(k *kardinal.Game, score []float64) {
		contestedAlliances(k.Table(), k.Board(), ally, score)
	})
}

// contestedAlliances adds to score ally points per advisor (plus one) of every
// alliance a seat leads one side of and is at most one advisor from leading the
// other, whose other side has advisors already and room for one more.
func contestedAlliances(tab *kardinal.Table, b *kardinal.Board, ally float64, score []float64) {
	n := len(score)
	for _, a := range b.Alliances() {
		la, lb := tab.AdvisorLeaders(a.A, n), tab.AdvisorLeaders(a.B, n)
		credit := ally * float64(tab.AdvisorsIn(a.A)+tab.AdvisorsIn(a.B)+1)
		for s := 0; s < n; s++ {
			switch {
			case la[s] && !lb[s] && within(tab, a.B, s, n):
				score[s] += credit
			case lb[s] && !la[s] && within(tab, a.A, s, n):
				score[s] += credit
			}
		}
	}
}

// within reports whether seat s is one advisor from the lead of country c, which has
// advisors and room for one more.
func within(tab *kardinal.Table, c kardinal.Country, s, n int) bool {
	if tab.AdvisorsIn(c) == 0 || !tab.CanTakeAdvisor(c) {
		return false
	}
	most := uint8(0)
	for o := 0; o < n; o++ {
		most = max(most, tab.Advisors[c][o])
	}
	return tab.Advisors[c][s]+1 >= most
}
