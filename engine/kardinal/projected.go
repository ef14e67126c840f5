package kardinal

// ProjectedScores writes into score each seat's points if the scorings still to come
// were held on the table as it stands: the points so far, the interim scoring of the
// monasteries (K8) if the pile has not run out yet, and the final scoring of K10
// (monasteries, alliances, chains). Search bots use it to judge a position without
// playing it out. A finished game has no scoring to come: its points are its score.
func (g *Game) ProjectedScores(score []int) {
	n := int(g.players)
	for s := 0; s < n; s++ {
		score[s] = int(g.score[s])
	}
	if g.over {
		return
	}
	times := 1
	if g.exhaustions == 0 {
		times = 2
	}
	for _, c := range g.board.order {
		pts := g.table.CountryPoints(c, n)
		for s := 0; s < n; s++ {
			score[s] += times * pts[s]
		}
	}
	for _, a := range g.board.alliances {
		pts := g.table.AlliancePoints(a, n)
		for s := 0; s < n; s++ {
			score[s] += pts[s]
		}
	}
	var buf [MaxSpaces]int
	for s := 0; s < n; s++ {
		for _, k := range g.table.Chains(g.board, s, buf[:0]) {
			if k >= MinChain {
				score[s] += k
			}
		}
	}
}

// Table is the pieces on the board now, for search bots that judge a position beyond
// ProjectedScores without copying it. It is the game's own: read it, never change it.
func (g *Game) Table() *Table { return &g.table }

// InterimDone reports whether the interim scoring (K8) has been held: until then a
// monastery majority scores twice more, after it once.
func (g *Game) InterimDone() bool { return g.exhaustions > 0 }

// Start is the seat holding the start marker: the game's last round ends with the seat
// before it (K10), so the seats from ToMove up to it still have one turn more to come
// than those that have moved this round.
func (g *Game) Start() int { return int(g.start) }

// DrawPile is the number of cards left in the draw pile.
func (g *Game) DrawPile() int { return int(g.pileLen) }

// Hand is seat's cards by kind, for search bots that judge a position: in a state
// sampled for a search, the other seats' hands are the sample's guesses.
func (g *Game) Hand(seat int) [NumKinds]uint8 { return g.hands[seat] }

// Points is seat's points scored so far, without the scorings still to come.
func (g *Game) Points(seat int) int { return int(g.score[seat]) }
