package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// replayWorkerEnv makes the test binary a worker that takes its replay folder under
// the given parent, prints it and waits to be killed.
const replayWorkerEnv = "ARENA_CLI_REPLAY_WORKER"

func holdReplayDir(parent string) {
	dir, _, err := workerReplayDir(parent)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println(dir)
	select {}
}

// startReplayWorker starts a process holding a worker's replay folder under parent, as
// a running `arena worker` does, and returns the process and its folder.
func startReplayWorker(t *testing.T, parent string) (*exec.Cmd, string) {
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), replayWorkerEnv+"="+parent)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	dir := strings.TrimSpace(line)
	require.DirExists(t, dir, "the worker's folder")
	return cmd, dir
}

// A worker killed in the middle of a block leaves its replay folder (replays of games
// never recorded: a recorded game's replay is in the database). The next worker to
// start removes it, and leaves alone the folders of workers still running, its own,
// and one it cannot judge (no lock file: an older build's).
func TestAStartingWorkerRemovesTheReplaysOfAKilledOne(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "replays")
	killed, killedDir := startReplayWorker(t, parent)
	_, liveDir := startReplayWorker(t, parent)
	require.NoError(t, os.WriteFile(filepath.Join(killedDir, "g1.jsonl.tmp"), []byte("{}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(liveDir, "g2.jsonl.tmp"), []byte("{}\n"), 0o644))
	old := filepath.Join(parent, workerReplayPrefix+"old")
	require.NoError(t, os.Mkdir(old, 0o755))

	require.NoError(t, killed.Process.Kill())
	_ = killed.Wait()

	mine, release, err := workerReplayDir(parent)
	require.NoError(t, err)
	assert.NoDirExists(t, killedDir, "a killed worker's folder is removed")
	assert.FileExists(t, filepath.Join(liveDir, "g2.jsonl.tmp"), "a running worker's replays stay")
	assert.DirExists(t, old, "a folder without a lock is not judged")
	assert.DirExists(t, mine)

	// A second worker in this process sweeps too, and keeps the first one's folder.
	other, releaseOther, err := workerReplayDir(parent)
	require.NoError(t, err)
	assert.DirExists(t, mine, "a worker's own folder stays while it runs")
	releaseOther()
	assert.NoDirExists(t, other)
	release()
	assert.NoDirExists(t, mine, "a worker that stops removes its folder")
}
