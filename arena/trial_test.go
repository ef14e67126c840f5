package arena

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestASandboxNoBoxCanBeMadeOfIsABadConfiguration: the run's layers are found with a
// trial box while the bots start; a sandbox of which no box can be made (a folder to
// read that holds a hidden one) still ends the run as a bad configuration, with no
// report and nothing left running.
func TestASandboxNoBoxCanBeMadeOfIsABadConfiguration(t *testing.T) {
	cfg := testConfig(t, 2, testEntrant(t, "a", "first"), testEntrant(t, "b", "first"))
	read := t.TempDir()
	secret := filepath.Join(read, "secret")
	require.NoError(t, os.Mkdir(secret, 0o700))
	cfg.Sandbox.Hide = append(cfg.Sandbox.Hide, secret)
	cfg.Sandbox.Read = []string{read}
	rep, err := Run(context.Background(), cfg)
	require.ErrorIs(t, err, ErrConfig)
	assert.Nil(t, rep)
	assert.Contains(t, err.Error(), "must not see")
	requireNoLeftovers(t)
}

// TestARunReportsTheLayersOfItsBots: the report's sandbox is what a box of the run's
// configuration gets on this machine, taken from a bot that started.
func TestARunReportsTheLayersOfItsBots(t *testing.T) {
	cfg := testConfig(t, 2, testEntrant(t, "a", "first"), testEntrant(t, "b", "first"))
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	requireNoLeftovers(t)
	want, err := cfg.Sandbox.Layers()
	require.NoError(t, err)
	assert.Equal(t, sandboxJSON(cfg.Sandbox.Level, want), rep.Sandbox)
	assert.NotEmpty(t, rep.Sandbox.Active)
}
