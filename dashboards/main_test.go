package dashboards

import (
	"os"
	"testing"

	"github.com/arena-games/arena/internal/testlock"
)

// TestMain marks these tests as heavy (Prometheus, Chromium, a ladder and its
// workers): a timing-sensitive test of another package waits for them.
func TestMain(m *testing.M) {
	release := testlock.Heavy()
	code := m.Run()
	release()
	os.Exit(code)
}
