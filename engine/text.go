package engine

import (
	"fmt"
	"strings"
)

// Counts renders a multiset of card kinds held as counts per kind, such as
// "red 3, 2×green 1", naming kind i with name(i); "(none)" when empty.
func Counts(counts []uint8, name func(kind int) string) string {
	var parts []string
	for k, n := range counts {
		switch n {
		case 0:
		case 1:
			parts = append(parts, name(k))
		default:
			parts = append(parts, fmt.Sprintf("%d×%s", n, name(k)))
		}
	}
	if len(parts) == 0 {
		return "(none)"
	}
	return strings.Join(parts, ", ")
}
