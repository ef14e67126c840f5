package service

import (
	"fmt"
	"math"
	"net/http"
)

func formatElo(x float64) string {
	r := math.Round(x)
	if r == 0 {
		r = 0 // no "-0"
	}
	return fmt.Sprintf("%.0f", r)
}

func formatPct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// formatSize is a size as people read it: bytes below 1 KiB, then KiB, MiB or GiB
// with a decimal only when it is not whole.
func formatSize(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB"}
	x, u := float64(n), 0
	for x >= 1024 && u < len(units)-1 {
		x, u = x/1024, u+1
	}
	if x == math.Trunc(x) {
		return fmt.Sprintf("%.0f %s", x, units[u])
	}
	return fmt.Sprintf("%.1f %s", x, units[u])
}

// tooLarge refuses a body (what) over its limit.
func tooLarge(what string, limit int64) *refusal {
	return refuse(http.StatusRequestEntityTooLarge, fmt.Sprintf("%s is larger than the limit of %s", what, formatSize(limit)))
}
