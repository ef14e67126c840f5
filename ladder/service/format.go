package service

import (
	"fmt"
	"math"
)

func formatElo(x float64) string {
	r := math.Round(x)
	if r == 0 {
		r = 0 // no "-0"
	}
	return fmt.Sprintf("%.0f", r)
}

func formatPct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
