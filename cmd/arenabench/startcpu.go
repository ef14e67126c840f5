package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/arena-games/arena/protocol"
)

// The CPU time a bot program takes from its exec to go-plugin's handshake line, all
// its threads summed (/proc's schedstat, in nanoseconds): what a start costs a machine
// whose cores are busy, where the wall clock says more about the other work.

// botCPU is the CPU of a start of a bot program (no sandbox) to its handshake.
func botCPU(path string, args ...string) (time.Duration, error) {
	h := protocol.Handshake()
	return handshakeCPU(exec.Command(path, args...), h.MagicCookieKey+"="+h.MagicCookieValue)
}

// bareCPU is the same for the bare process.
func bareCPU(replyBytes int) (time.Duration, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, err
	}
	return handshakeCPU(exec.Command(self, bareServeArg),
		bareHandshake.MagicCookieKey+"="+bareHandshake.MagicCookieValue, bareReplyEnv+"="+strconv.Itoa(replyBytes))
}

// handshakeCPU starts cmd as go-plugin starts a plugin, reads the handshake line,
// takes the process's CPU time and kills it.
func handshakeCPU(cmd *exec.Cmd, env ...string) (time.Duration, error) {
	dir, err := os.MkdirTemp("", "arenabench-cpu-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "PLUGIN_PROTOCOL_VERSIONS=1", "PLUGIN_UNIX_SOCKET_DIR=" + dir,
		"PLUGIN_MIN_PORT=10000", "PLUGIN_MAX_PORT=25000"}, env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		return 0, fmt.Errorf("%s: no handshake: %v", cmd, err)
	}
	return cpuOf(cmd.Process.Pid)
}

// cpuOf sums the CPU time of a process's threads.
func cpuOf(pid int) (time.Duration, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("no schedstat for process %d", pid)
	}
	var sum int64
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended
		}
		v, err := strconv.ParseInt(strings.Fields(string(b))[0], 10, 64)
		if err != nil {
			return 0, err
		}
		sum += v
	}
	return time.Duration(sum), nil
}
