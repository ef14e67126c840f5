package ladder

import (
	"math"
	"math/rand/v2"
	"slices"
)

// candidate is a bot the scheduler may seat.
type candidate struct {
	id int64
	// games counts recorded games plus those of blocks in flight.
	games int
	elo   float64
}

// closeness is the rating gap, in Elo, at which a bot's weight falls to 1/e of a
// bot of equal rating: wide enough that a new bot still meets the whole field.
const closeness = 250

// chooseTable picks players bots for a table: first the bot with the fewest games
// (ties broken at random), then, one seat at a time, a bot drawn with a weight that
// falls with its rating gap to the first and with how many more games it has than the
// least played bot. Everyone keeps some chance, so the field stays connected.
func chooseTable(cands []candidate, players int, rng *rand.Rand) []int64 {
	if players > len(cands) || players < 1 {
		return nil
	}
	pool := slices.Clone(cands)
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	first := 0
	for i, c := range pool {
		if c.games < pool[first].games {
			first = i
		}
	}
	least := pool[first].games
	anchor := pool[first].elo
	table := []int64{pool[first].id}
	pool = slices.Delete(pool, first, first+1)
	w := make([]float64, len(pool))
	for len(table) < players {
		total := 0.0
		for i, c := range pool {
			gap := (c.elo - anchor) / closeness
			w[i] = math.Exp(-gap*gap) / (1 + float64(c.games-least)/10)
			total += w[i]
		}
		x := rng.Float64() * total
		pick := len(pool) - 1
		for i := range pool {
			if x < w[i] {
				pick = i
				break
			}
			x -= w[i]
		}
		table = append(table, pool[pick].id)
		pool = slices.Delete(pool, pick, pick+1)
		w = w[:len(pool)]
	}
	// Seat order within the block does not matter: every rotation is played.
	return table
}
