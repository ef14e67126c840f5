package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/arena-games/arena/engine"
	_ "github.com/arena-games/arena/games" // the engines
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/botpb"
)

// matchRun is one `arena match random random` on two-player Ivanhoe, as a user runs
// it: its own process, the default sandbox, no replays.
type matchRun struct {
	wall      time.Duration // of the whole command, from exec to exit
	cpu       time.Duration // its user and system time, its bots' included (commandCPU)
	decisions int
	games     int
	meanRT    time.Duration // the report's mean decision time: send to answer received
	first     time.Duration // the report's start of the run to its first answer
}

func (m matchRun) perDecision() time.Duration { return m.wall / time.Duration(m.decisions) }
func (m matchRun) gamesPerSec() float64       { return float64(m.games) / m.wall.Seconds() }
func (m matchRun) cpuPerGame() time.Duration  { return m.cpu / time.Duration(m.games) }
func (m matchRun) coresBusy() float64         { return m.cpu.Seconds() / m.wall.Seconds() }

// commandCPU is the user and system time of a command that ended, with that of every
// process it waited for: the bots (whose sandbox helper waits for them, and the
// arena for the helper) and anything they started.
func commandCPU(cmd *exec.Cmd) time.Duration {
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// runMatch runs the arena binary's match command, bot (a built-in name or a program's
// path) in both seats.
func runMatch(arenaBin, bot string, games, jobs int, seed uint64, extra ...string) (matchRun, error) {
	args := []string{"match", bot, bot, "--game", "ivanhoe", "--json",
		"--games", strconv.Itoa(games), "-j", strconv.Itoa(jobs), "--seed", strconv.FormatUint(seed, 10)}
	if !slices.Contains(extra, "--replays") {
		args = append(args, "--no-replays")
	}
	cmd := exec.Command(arenaBin, append(args, extra...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return matchRun{}, fmt.Errorf("%s: %v: %s", cmd, err, errb.String())
	}
	var rep struct {
		Games           int     `json:"games"`
		FirstDecisionMs float64 `json:"first_decision_ms"`
		Bots            []struct {
			Decisions     int     `json:"decisions"`
			MeanLatencyMs float64 `json:"mean_latency_ms"`
		} `json:"bots"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return matchRun{}, fmt.Errorf("%s: its report: %v", cmd, err)
	}
	m := matchRun{wall: wall, cpu: commandCPU(cmd), games: rep.Games, first: ms(rep.FirstDecisionMs)}
	var sum float64
	for _, b := range rep.Bots {
		m.decisions += b.Decisions
		sum += b.MeanLatencyMs * float64(b.Decisions)
	}
	if m.decisions == 0 || m.first == 0 {
		return matchRun{}, fmt.Errorf("%s: no decisions answered, or no first_decision_ms (an arena older than the benchmark?)", cmd)
	}
	m.meanRT = ms(sum / float64(m.decisions))
	return m, nil
}

// runMatchReplays is runMatch writing its replays, into a folder removed after.
func runMatchReplays(arenaBin string, games, jobs int, seed uint64) (matchRun, error) {
	dir, err := os.MkdirTemp("", "arenabench-replays-")
	if err != nil {
		return matchRun{}, err
	}
	defer os.RemoveAll(dir)
	return runMatch(arenaBin, "random", games, jobs, seed, "--replays", filepath.Join(dir, "r"))
}

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

// wireSizes are the sizes of the requests both seats of random two-player Ivanhoe
// games receive, in the order of play (at least n of them), and of one reply: what
// the bare stream sends, as bytes fields of the same encoded sizes.
func wireSizes(n int, seed uint64) (requests []*wrapperspb.BytesValue, structured []*botpb.DecideRequest, reply int, err error) {
	codec, err := protocol.CodecFor("ivanhoe")
	if err != nil {
		return nil, nil, 0, err
	}
	rnd := engine.NewRand(seed)
	for game := 0; len(requests) < n; game++ {
		g, err := engine.New("ivanhoe", seed+uint64(game), 2)
		if err != nil {
			return nil, nil, 0, err
		}
		id := fmt.Sprintf("d%04d-r0", game)
		wires := []*protocol.SeatRequests{protocol.NewSeatRequests(codec, id, 0), protocol.NewSeatRequests(codec, id, 1)}
		for !g.Terminal() {
			req, err := wires[g.ToMove()].Next(g)
			if err != nil {
				return nil, nil, 0, err
			}
			// The clock fields as the runner fills them in.
			req.BankUs, req.DeadlineUs = time.Minute.Microseconds(), time.Second.Microseconds()
			requests = append(requests, bytesOfSize(proto.Size(req)))
			structured = append(structured, proto.Clone(req).(*botpb.DecideRequest))
			reply = proto.Size(&botpb.DecideReply{MatchId: id, SeatDecision: req.SeatDecision, Choice: 1})
			if err := g.Apply(rnd.Intn(len(g.Options()))); err != nil {
				return nil, nil, 0, err
			}
		}
	}
	return requests, structured, reply, nil
}

// bytesOfSize is a bytes field whose message encodes to size bytes (as near as the
// length prefix allows).
func bytesOfSize(size int) *wrapperspb.BytesValue {
	m := &wrapperspb.BytesValue{}
	for n := max(size-3, 0); n <= size; n++ {
		m.Value = make([]byte, n)
		if proto.Size(m) >= size {
			break
		}
	}
	return m
}

// payload is the length of a bytes field whose message encodes to size bytes.
func payload(size int) int { return len(bytesOfSize(size).Value) }
