// Command gen writes the Grafana dashboards of package dashboards from their specs:
// go run ./dashboards/gen (from the repository root).
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/arena-games/arena/dashboards"
)

func main() {
	files, err := dashboards.Generate()
	if err == nil {
		for name, b := range files {
			if err = os.WriteFile(filepath.Join("dashboards", "grafana", name), b, 0o644); err != nil {
				break
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
