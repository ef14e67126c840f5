// Package poll waits in tests for something another process or goroutine does, with a
// deadline instead of a fixed sleep.
package poll

import (
	"testing"
	"time"
)

// Limit is how long Until waits: what the tests wait for takes milliseconds on an idle
// machine, and 10 s is far beyond the delays of a 2-core machine at a load of 16.
const Limit = 10 * time.Second

// Until polls cond every 10 ms until it holds, failing the test after Limit.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !Eventually(cond) {
		t.Fatalf("waited %s for %s", Limit, what)
	}
}

// Eventually polls cond every 10 ms for at most Limit and says whether it held.
func Eventually(cond func() bool) bool { return Within(Limit, cond) }

// Within polls cond every 10 ms for at most d and says whether it held: for what
// takes longer than Limit by design (a lease running out, a queue draining).
func Within(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
