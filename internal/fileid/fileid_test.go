package fileid

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnyChangeChangesTheIdentity: the identity stays while the file does, and changes
// with a write of the same size, with times set back, and with a replacement.
func TestAnyChangeChangesTheIdentity(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot")
	require.NoError(t, os.WriteFile(path, []byte("one"), 0o755))
	first, err := Of(path)
	require.NoError(t, err)
	again, err := Of(path)
	require.NoError(t, err)
	assert.Equal(t, first, again)

	st, err := os.Stat(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte("two"), 0o755))
	require.NoError(t, os.Chtimes(path, st.ModTime(), st.ModTime()))
	written, err := Of(path)
	require.NoError(t, err)
	assert.NotEqual(t, first, written, "the same size, the modification time set back")

	other := path + ".new"
	require.NoError(t, os.WriteFile(other, []byte("two"), 0o755))
	require.NoError(t, os.Rename(other, path))
	replaced, err := Of(path)
	require.NoError(t, err)
	assert.NotEqual(t, written, replaced)

	_, err = Of(filepath.Join(t.TempDir(), "missing"))
	assert.Error(t, err)
}
