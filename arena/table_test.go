package arena

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestForfeitedSeatsShareTheLastPlace(t *testing.T) {
	// The game placed seat 2 first, seat 0 second, seats 1 and 3 third; seats 2 and 3
	// forfeited, so seat 0 and seat 1 move up and the forfeits share the last place.
	place := placesAfterForfeits([]int{1, 2, 0, 2}, []bool{false, false, true, true})
	assert.Equal(t, []int{0, 1, 2, 2}, place)
	assert.Equal(t, []float64{1, 2.0 / 3, 0.5 / 3, 0.5 / 3}, placePoints(place))
}

func TestPlacePointsCountTiesHalf(t *testing.T) {
	assert.Equal(t, []float64{0.5, 0.5}, placePoints([]int{0, 0}))
	assert.Equal(t, []float64{1, 0}, placePoints([]int{0, 1}))
	assert.Equal(t, []float64{0.75, 0.75, 0}, placePoints([]int{0, 0, 2}), "a shared first place beats the third, ties half")
}
