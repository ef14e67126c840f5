package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// botPATH is the PATH every bot process gets (protocol.Launch): a script's interpreter
// must be found there.
const botPATH = "/usr/local/bin:/usr/bin:/bin"

// requireOrSkip skips a test whose language runtime is missing, except under CI
// (.ci/run sets ARENA_REQUIRE_BOT_LANGS=1 after installing them), where it fails.
func requireOrSkip(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv("ARENA_REQUIRE_BOT_LANGS") != "" {
		t.Fatalf("%s is missing but ARENA_REQUIRE_BOT_LANGS is set: %v", what, err)
	}
	t.Skipf("%s is missing (%v); .ci/run installs it", what, err)
}

func interpreterHas(t *testing.T, interp string, args ...string) error {
	t.Helper()
	cmd := exec.Command("/usr/bin/env", append([]string{interp}, args...)...)
	cmd.Env = []string{"PATH=" + botPATH}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v: %s", interp, err, out)
	}
	return nil
}

// TestOtherLanguageBotsPassCheckAndPlayEveryGame runs the Python SDK's examples and the
// Node example as a bot author would: `arena bot check` passes, a match in every game
// ends with every seat ok, and so does one at every sandbox level.
func TestOtherLanguageBotsPassCheckAndPlayEveryGame(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	bots := []struct {
		name, path string
		ready      func() error
	}{
		{"python random", "examples/python/randombot.py", func() error {
			return interpreterHas(t, "python3", "-c", "import grpc, google.protobuf")
		}},
		{"python firstbot", "examples/python/firstbot.py", func() error {
			return interpreterHas(t, "python3", "-c", "import grpc, google.protobuf")
		}},
		{"node", "examples/node/bot.js", func() error {
			if err := interpreterHas(t, "node", "-e", "0"); err != nil {
				return err
			}
			_, err := os.Stat(filepath.Join(root, "examples/node/node_modules/@grpc/grpc-js"))
			return err
		}},
	}
	for _, b := range bots {
		t.Run(b.name, func(t *testing.T) {
			requireOrSkip(t, b.name+"'s runtime", b.ready())
			path := filepath.Join(root, b.path)
			dir := t.TempDir()
			// Interpreters start in a fraction of a second on an idle machine but may
			// take over ten on a loaded 2-core one; the test is about the protocol, not
			// speed, so the clocks are generous (a slow answer still ends the run).
			clocks := []string{"--startup", "60s", "--decision", "10s"}
			r := runArena(t, dir, append([]string{"bot", "check"}, append(clocks, path)...)...)
			require.Equal(t, 0, r.code, r.stdout+r.stderr)
			assert.Contains(t, r.stdout, "PASS  shutdown")
			for game, others := range map[string][]string{"ivanhoe": {"random"}, "kardinal": {"random", "random"}, "ninjas": {"random"}} {
				args := append(append([]string{"match", path}, others...), "--game", game, "--games", "6", "-j", "2", "--no-replays", "--json", "--bank", "10m")
				args = append(args, clocks...)
				r := runArena(t, dir, args...)
				require.Equal(t, 0, r.code, r.stderr)
				var rep report
				require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
				assert.Equal(t, rep.Bots[0].Games, rep.Bots[0].Endings["ok"], "%s in %s: %v", b.name, game, rep.Bots[0].Endings)
			}
			// The matches above ran at auto; the interpreter, its libraries and the
			// bot's own folder must be readable at the other levels too.
			for _, level := range []string{"none", "basic"} {
				args := append([]string{"match", path, "random", "--games", "2", "--no-replays", "--json", "--sandbox", level}, clocks...)
				r := runArena(t, dir, args...)
				require.Equal(t, 0, r.code, "%s at %s: %s", b.name, level, r.stderr)
				var rep report
				require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
				assert.Equal(t, 2, rep.Bots[0].Endings["ok"], "%s at %s: %v", b.name, level, rep.Bots[0].Endings)
			}
			requireNoLeftovers(t)
		})
	}
}
