package engine

// PlacesByScore ranks seats by descending key: a seat's place is the number of seats
// with a strictly greater key, so ties share a place. first, when not NoSeat, is put in
// place 0 alone whatever its key (a game winner ahead of everyone).
func PlacesByScore(key []int, first int) []int {
	place := make([]int, len(key))
	for s := range key {
		if s == first {
			continue
		}
		for t := range key {
			if t != s && (t == first || key[t] > key[s]) {
				place[s]++
			}
		}
	}
	return place
}
