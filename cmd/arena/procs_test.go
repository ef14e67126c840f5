package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAMatchRunsOnAsManyCoresAsItPlaysMatchesAtOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	if runtime.NumCPU() < 2 {
		t.Skip("one core: GOMAXPROCS is 1 already")
	}
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		t.Skip("GOMAXPROCS is set for the tests")
	}
	runtime.GOMAXPROCS(runtime.NumCPU())
	playProcs(runtime.NumCPU() + 1)
	assert.Equal(t, runtime.NumCPU(), runtime.GOMAXPROCS(0), "more jobs than cores: every core")
	playProcs(1)
	assert.Equal(t, 1, runtime.GOMAXPROCS(0), "-j 1: one core")

	runtime.GOMAXPROCS(runtime.NumCPU())
	t.Setenv("GOMAXPROCS", "2")
	playProcs(1)
	assert.Equal(t, runtime.NumCPU(), runtime.GOMAXPROCS(0), "the user's GOMAXPROCS stands")
}

// A worker collects at GOGC=400 unless GOGC says otherwise.
func TestAWorkerCollectsLessOftenUnlessGOGCIsSet(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	workerGC()
	assert.Equal(t, workerGCPercent, debug.SetGCPercent(100))
	t.Setenv("GOGC", "150")
	workerGC()
	assert.Equal(t, 100, debug.SetGCPercent(100), "GOGC set: the setting is left as it is")
}
