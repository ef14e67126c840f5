// Package deploy holds what runs the arena on machines of its own: systemd units for a
// ladder shared through PostgreSQL (systemd/), tested here.
package deploy

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/testkit"
	"github.com/arena-games/arena/internal/testlock"
	"github.com/arena-games/arena/ladder/store/pgtest"
)

const installedBin = "/usr/local/bin/arena"

// units are the shipped unit files, with the line that says their command is up.
var units = map[string]string{
	"arena-ladder.service": "coordinating the ivanhoe ladder",
	"arena-worker.service": "worker playing",
}

// env reads the example environment file as systemd does (KEY=value lines).
func env(t *testing.T) map[string]string {
	f, err := os.Open("systemd/arena.env.example")
	require.NoError(t, err)
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		require.True(t, ok, "not KEY=value: %q", line)
		out[k] = v
	}
	require.NoError(t, sc.Err())
	return out
}

// directive is the value of key= in a unit file.
func directive(t *testing.T, unit []byte, key string) string {
	m := regexp.MustCompile(`(?m)^` + key + `=(.*)$`).FindSubmatch(unit)
	require.NotNil(t, m, "no %s= in the unit", key)
	return string(m[1])
}

// arenaBin is the arena, built once for the package's tests.
var arenaBin struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

func buildArena(t *testing.T) string {
	arenaBin.once.Do(func() {
		dir, err := os.MkdirTemp("", "arena-deploy-test")
		if err != nil {
			arenaBin.err = err
			return
		}
		arenaBin.path = filepath.Join(dir, "arena")
		arenaBin.out, arenaBin.err = exec.Command("go", "build", "-o", arenaBin.path, "../cmd/arena").CombinedOutput()
	})
	require.NoError(t, arenaBin.err, "%s", arenaBin.out)
	return arenaBin.path
}

func TestMain(m *testing.M) {
	release := testlock.Heavy() // a coordinator, workers and PostgreSQL
	code := m.Run()
	release()
	if arenaBin.path != "" {
		os.RemoveAll(filepath.Dir(arenaBin.path))
	}
	os.Exit(code)
}

// TestUnitsVerify: systemd itself finds nothing wrong with the units (pointed at a
// built arena and an environment file, which verify wants to exist).
func TestUnitsVerify(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("ARENA_REQUIRE_SYSTEMD") != "" {
			t.Fatal("ARENA_REQUIRE_SYSTEMD is set but systemd-analyze is missing (apt-get install systemd)")
		}
		t.Skip("no systemd-analyze on this machine")
	}
	bin := buildArena(t)
	dir := t.TempDir()
	envFile := filepath.Join(dir, "arena.env")
	b, err := os.ReadFile("systemd/arena.env.example")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(envFile, b, 0o600))
	for name := range units {
		b, err := os.ReadFile(filepath.Join("systemd", name))
		require.NoError(t, err)
		u := strings.ReplaceAll(string(b), installedBin, bin)
		u = strings.ReplaceAll(u, "/etc/arena/arena.env", envFile)
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(u), 0o644))
		out, err := exec.Command(analyze, "verify", "--man=no", path).CombinedOutput()
		assert.NoError(t, err, "%s: %s", name, out)
		assert.Empty(t, strings.TrimSpace(string(out)), "%s: systemd-analyze verify says", name)
	}
}

// TestUnitsCommandsRun runs each unit's ExecStart as systemd would (its ${VARS} from
// the example environment file, the database a real PostgreSQL) and stops it with the
// unit's KillSignal: it must come up, and stop cleanly within its TimeoutStopSec.
func TestUnitsCommandsRun(t *testing.T) {
	db := pgtest.URL(t)
	bin := buildArena(t)
	for _, bot := range []string{"random", "heuristic"} {
		out, err := exec.Command(bin, "bot", "add", bot, "--db", db).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	vars := env(t)
	vars["ARENA_DB"], vars["PGPASSWORD"] = db, ""
	vars["ARENA_ADDR"], vars["ARENA_METRICS_ADDR"], vars["ARENA_WORKER_METRICS_ADDR"], vars["ARENA_SLOTS"] = testkit.FreeAddr(t), testkit.FreeAddr(t), testkit.FreeAddr(t), "2"
	for _, name := range []string{"arena-ladder.service", "arena-worker.service"} { // the coordinator first
		b, err := os.ReadFile(filepath.Join("systemd", name))
		require.NoError(t, err)
		args := strings.Fields(directive(t, b, "ExecStart"))
		require.Equal(t, installedBin, args[0])
		for i, a := range args {
			args[i] = os.Expand(a, func(k string) string {
				v, ok := vars[k]
				require.True(t, ok, "%s uses $%s, which arena.env.example does not set", name, k)
				return v
			})
		}
		require.Equal(t, "SIGTERM", directive(t, b, "KillSignal"))
		var stop time.Duration
		_, err = fmt.Sscanf(directive(t, b, "TimeoutStopSec"), "%d", &stop)
		require.NoError(t, err)
		runUntilUp(t, name, exec.Command(bin, args[1:]...), units[name], stop*time.Second)
	}
}

// runUntilUp starts cmd, waits for its stderr to say up, and leaves it running until
// the test ends, then sends SIGTERM and wants exit 0 within stop.
func runUntilUp(t *testing.T, name string, cmd *exec.Cmd, up string, stop time.Duration) {
	log := &testkit.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// A loaded machine starts the arena and its first bots slowly: two minutes.
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(log.String(), up) {
		select {
		case err := <-exited:
			t.Fatalf("%s exited (%v) before it was up: %s", name, err, log.String())
		case <-time.After(50 * time.Millisecond):
		}
		require.True(t, time.Now().Before(deadline), "%s not up within two minutes: %s", name, log.String())
	}
	t.Cleanup(func() {
		require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
		ctx, cancel := context.WithTimeout(context.Background(), stop)
		defer cancel()
		select {
		case err := <-exited:
			assert.NoError(t, err, "%s on SIGTERM: %s", name, log.String())
		case <-ctx.Done():
			_ = cmd.Process.Kill()
			t.Errorf("%s did not stop within TimeoutStopSec (%s): %s", name, stop, log.String())
		}
	})
}
