package kardinal

// Table is the pieces on the board: who owns each monastery space and how many advisors
// each seat has on each coat of arms. It is public knowledge, a plain value (copying it
// is a snapshot), and holds the scoring rules, so that bots can try a placement on a
// copy and score it the way the engine will.
type Table struct {
	// Owner is the seat owning each space plus one; 0 is a free space.
	Owner [MaxSpaces]uint8
	// Monasteries counts each seat's monasteries per country.
	Monasteries [NumCountries][MaxPlayers]uint8
	// Advisors counts each seat's advisors per country.
	Advisors [NumCountries][MaxPlayers]uint8
}

// OwnerOf is the seat owning a space, or -1 when it is free.
func (t *Table) OwnerOf(space int) int { return int(t.Owner[space]) - 1 }

// MonasteriesIn is the number of monasteries in a country, all colours.
func (t *Table) MonasteriesIn(c Country) int {
	n := 0
	for _, m := range t.Monasteries[c] {
		n += int(m)
	}
	return n
}

// AdvisorsIn is the number of advisors in a country, all colours.
func (t *Table) AdvisorsIn(c Country) int {
	n := 0
	for _, a := range t.Advisors[c] {
		n += int(a)
	}
	return n
}

// AdvisorCap is how many advisors a country holds in all (K4): the monasteries of the
// seat with the most monasteries there.
func (t *Table) AdvisorCap(c Country) int {
	m := uint8(0)
	for _, x := range t.Monasteries[c] {
		m = max(m, x)
	}
	return int(m)
}

// Empty reports a country without pieces (K3). Advisors need monasteries, so it is the
// same as having no monastery.
func (t *Table) Empty(c Country) bool { return t.MonasteriesIn(c) == 0 }

// FreeSpaces counts a country's free monastery spaces.
func (t *Table) FreeSpaces(b *Board, c Country) int {
	return len(b.SpacesOf(c)) - t.MonasteriesIn(c)
}

// CanTakeAdvisor reports whether one more advisor fits in a country (K3, K4).
func (t *Table) CanTakeAdvisor(c Country) bool { return t.AdvisorsIn(c) < t.AdvisorCap(c) }

// PlaceMonastery puts seat's monastery on a space; the caller has checked it is free.
func (t *Table) PlaceMonastery(b *Board, seat, space int) {
	t.Owner[space] = uint8(seat + 1)
	t.Monasteries[b.CountryOf(space)][seat]++
}

// PlaceAdvisor puts seat's advisor on a country's coat of arms.
func (t *Table) PlaceAdvisor(c Country, seat int) { t.Advisors[c][seat]++ }

// CountryPoints scores one country's monasteries (K9): the seats there ranked by count,
// tied seats sharing a place; first place scores the country's total, every later place
// the count of the place just above it. Seats without a monastery there score nothing.
func (t *Table) CountryPoints(c Country, players int) (pts [MaxPlayers]int) {
	total := t.MonasteriesIn(c)
	prev := 0 // count of the place above; 0 before the first place
	for {
		// The next place is the largest count below prev (or the largest at all).
		best := 0
		for s := 0; s < players; s++ {
			m := int(t.Monasteries[c][s])
			if (prev == 0 || m < prev) && m > best {
				best = m
			}
		}
		if best == 0 {
			return pts
		}
		award := prev
		if prev == 0 {
			award = total
		}
		for s := 0; s < players; s++ {
			if int(t.Monasteries[c][s]) == best {
				pts[s] = award
			}
		}
		prev = best
	}
}

// MonasteryPoints is the whole monastery scoring (K9): every country's points added up.
func (t *Table) MonasteryPoints(players int) (pts [MaxPlayers]int) {
	for c := Country(0); c < NumCountries; c++ {
		p := t.CountryPoints(c, players)
		for s := 0; s < players; s++ {
			pts[s] += p[s]
		}
	}
	return pts
}

// AdvisorLeaders marks the seats with the most advisors in a country (ties all lead);
// nobody leads a country without advisors.
func (t *Table) AdvisorLeaders(c Country, players int) (lead [MaxPlayers]bool) {
	m := uint8(0)
	for s := 0; s < players; s++ {
		m = max(m, t.Advisors[c][s])
	}
	if m == 0 {
		return lead
	}
	for s := 0; s < players; s++ {
		lead[s] = t.Advisors[c][s] == m
	}
	return lead
}

// AlliancePoints scores one alliance (K11): every seat leading the advisors of both
// countries scores the advisors of both, all colours.
func (t *Table) AlliancePoints(a Alliance, players int) (pts [MaxPlayers]int) {
	la, lb := t.AdvisorLeaders(a.A, players), t.AdvisorLeaders(a.B, players)
	n := t.AdvisorsIn(a.A) + t.AdvisorsIn(a.B)
	for s := 0; s < players; s++ {
		if la[s] && lb[s] {
			pts[s] = n
		}
	}
	return pts
}

// AllAlliancePoints adds up every alliance of the board.
func (t *Table) AllAlliancePoints(b *Board, players int) (pts [MaxPlayers]int) {
	for _, a := range b.Alliances() {
		p := t.AlliancePoints(a, players)
		for s := 0; s < players; s++ {
			pts[s] += p[s]
		}
	}
	return pts
}

// Chains returns the longest unbranched chain (simple path, in monasteries) of every
// group of seat's road-joined monasteries, into buf (K12). Groups are found from the
// lowest space upwards, so the order is deterministic.
func (t *Table) Chains(b *Board, seat int, buf []int) []int {
	var seen [MaxSpaces]bool
	own := uint8(seat + 1)
	for s := 0; s < b.Spaces(); s++ {
		if t.Owner[s] != own || seen[s] {
			continue
		}
		// Mark the group, collecting its members.
		var group [MaxSpaces]uint8
		n := 0
		group[0], seen[s], n = uint8(s), true, 1
		for i := 0; i < n; i++ {
			for _, z := range b.Roads(int(group[i])) {
				if t.Owner[z] == own && !seen[z] {
					seen[z] = true
					group[n] = z
					n++
				}
			}
		}
		best := 1
		var onPath [MaxSpaces]bool
		for i := 0; i < n && best < n; i++ {
			best = max(best, t.longestFrom(b, own, int(group[i]), &onPath, n))
		}
		buf = append(buf, best)
	}
	return buf
}

// longestFrom is the most monasteries on a simple path of own's monasteries starting at
// s, by depth-first search; it stops early once a path covers the whole group (limit).
func (t *Table) longestFrom(b *Board, own uint8, s int, onPath *[MaxSpaces]bool, limit int) int {
	onPath[s] = true
	best := 1
	for _, z := range b.Roads(s) {
		if t.Owner[z] != own || onPath[z] {
			continue
		}
		best = max(best, 1+t.longestFrom(b, own, int(z), onPath, limit-1))
		if best == limit {
			break
		}
	}
	onPath[s] = false
	return best
}

// MinChain is the shortest chain that scores (K12).
const MinChain = 4

// ChainPoints is seat's chain scoring (K12): each group's longest unbranched chain of at
// least MinChain monasteries scores one point per monastery.
func (t *Table) ChainPoints(b *Board, seat int) int {
	var buf [MaxSpaces]int
	pts := 0
	for _, n := range t.Chains(b, seat, buf[:0]) {
		if n >= MinChain {
			pts += n
		}
	}
	return pts
}
