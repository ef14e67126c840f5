package main

import (
	"os"
	"runtime"
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
