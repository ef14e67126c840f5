package builtin

import (
	"testing"

	"github.com/arena-games/arena/protocol"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSettingsAfterTheName: a built-in bot's settings follow a colon; bots without
// settings refuse any, and a wrong setting is an error that names it.
func TestSettingsAfterTheName(t *testing.T) {
	for _, ok := range []string{"random", "heuristic", "ismcts", "ismcts:time=100ms", "ismcts:iterations=2000,c=1"} {
		assert.True(t, Has(ok), ok)
	}
	for bad, want := range map[string]string{
		"random:x=1":      "takes no settings",
		"ismcts:time=0s":  "must be positive",
		"ismcts:fast=yes": `unknown setting "fast"`,
		"deep-blue":       "unknown built-in bot",
	} {
		assert.False(t, Has(bad), bad)
		assert.ErrorContains(t, Check(bad), want, bad)
	}
	assert.True(t, IsBuiltinName("ismcts:fast=yes"))
	assert.False(t, IsBuiltinName("deep-blue"))
}

// TestIsmctsRefusesAGameWithoutASampler: a policy for every game with a sampler, none
// (the match is refused) for another.
func TestIsmctsRefusesAGameWithoutASampler(t *testing.T) {
	f, err := lookup("ismcts:iterations=10")
	require.NoError(t, err)
	for _, g := range []string{"ivanhoe", "kardinal", "ninjas"} {
		assert.NotNil(t, f(protocol.Match{Game: g, Players: 3}), g)
	}
	assert.Nil(t, f(protocol.Match{Game: "chess"}))
}
