package rating

import (
	"fmt"
	"math"
)

// DefaultK is the live Elo's step: the most one game can move a player's rating.
const DefaultK = 24

// Live is the running Elo of a ladder: every result moves the ratings of its players at
// once, so it answers "how is this bot doing lately" while the official fit answers "how
// strong is it". It depends on the order of games by nature.
type Live struct {
	// K is the largest change one game can make to one player's rating.
	K float64
	// Elo holds each player's rating, indexed like the seats passed to Update.
	Elo []float64
	// Games counts each player's updates.
	Games []int
}

// NewLive starts players at 0 with step k.
func NewLive(players int, k float64) *Live {
	return &Live{K: k, Elo: make([]float64, players), Games: make([]int, players)}
}

// Grow adds players at 0, up to players in all (never fewer than before).
func (l *Live) Grow(players int) {
	for len(l.Elo) < players {
		l.Elo = append(l.Elo, 0)
		l.Games = append(l.Games, 0)
	}
}

// Points is seat's score in a game with the given places: the fraction of the other
// seats it finished ahead of, ties counting half.
func Points(places []int, seat int) float64 {
	if len(places) < 2 {
		return 0
	}
	p := 0.0
	for j, pl := range places {
		switch {
		case j == seat:
		case places[seat] < pl:
			p++
		case places[seat] == pl:
			p += 0.5
		}
	}
	return p / float64(len(places)-1)
}

// Update applies one game: seats[i] is the player in seat i and places[i] its place (0
// first, ties share a place). Each pair of seats is scored as a game of its own against
// the ratings before this game, and each of the n-1 pairs of a player counts K/(n-1), so
// a table of any size moves a player by at most K.
func (l *Live) Update(seats, places []int) error {
	if err := checkGame(len(l.Elo), seats, places); err != nil {
		return err
	}
	n := len(seats)
	k := l.K / float64(n-1)
	delta := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			e := Expected(l.Elo[seats[i]] - l.Elo[seats[j]])
			d := k * (pairScore(places[i], places[j]) - e)
			delta[i] += d
			delta[j] -= d
		}
	}
	for i, p := range seats {
		l.Elo[p] += delta[i]
		l.Games[p]++
	}
	return nil
}

// Expected is the expected score of a player rated d Elo above its opponent.
func Expected(d float64) float64 { return 1 / (1 + math.Pow(10, -d/400)) }

// pairScore is the score of the player in place a against the one in place b.
func pairScore(a, b int) float64 {
	switch {
	case a < b:
		return 1
	case a == b:
		return 0.5
	}
	return 0
}

// checkGame rejects a game that cannot be rated.
func checkGame(players int, seats, places []int) error {
	if len(seats) < 2 {
		return fmt.Errorf("a game needs at least 2 seats, got %d", len(seats))
	}
	if len(places) != len(seats) {
		return fmt.Errorf("%d seats but %d places", len(seats), len(places))
	}
	for i, p := range seats {
		if p < 0 || p >= players {
			return fmt.Errorf("seat %d: player %d is not one of the %d players", i, p, players)
		}
		if places[i] < 0 || places[i] >= len(seats) {
			return fmt.Errorf("seat %d: place %d is outside 0..%d", i, places[i], len(seats)-1)
		}
		for j := 0; j < i; j++ {
			if seats[j] == p {
				return fmt.Errorf("player %d sits in seats %d and %d of one game", p, j, i)
			}
		}
	}
	return nil
}
