package testkit

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

// ClockScaleEnv names the one factor that widens every time limit a test gives a
// well-behaved bot (decision clocks, banks, start-up): the tests' clocks are sized for
// a 2-core machine at a load of about 8, and a slower or busier machine, or a run under
// -race or -cover (bots several times slower), sets ARENA_TEST_CLOCK_SCALE=3 or so.
//
// A limit that is itself the subject of a test (a bank a slow bot must exhaust) is not
// scaled; where a misbehaving bot must outlast a scaled limit, its own delay is scaled
// with it, so the test keeps its meaning at every factor.
const ClockScaleEnv = "ARENA_TEST_CLOCK_SCALE"

// maxClockScale bounds the factor: a test bot that hangs for a timeout sleeps 10 s,
// which must stay past the longest scaled decision clock (300 ms x 10 plus grace).
const maxClockScale = 10

var clockScale = sync.OnceValue(func() float64 {
	f, err := parseClockScale(os.Getenv(ClockScaleEnv))
	if err != nil {
		// Read while a test binary's package variables are set up, where no test can
		// fail yet: one line and the exit code of a usage error.
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return f
})

func parseClockScale(s string) (float64, error) {
	if s == "" {
		return 1, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 1 && f <= maxClockScale) {
		return 0, fmt.Errorf("%s=%q: want a number from 1 to %d", ClockScaleEnv, s, maxClockScale)
	}
	return f, nil
}

// ClockScale is the factor from ClockScaleEnv, 1 when it is not set.
func ClockScale() float64 { return clockScale() }

// Scaled widens d by ClockScale.
func Scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) * clockScale())
}
