package protocol

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/internal/poll"
	"github.com/arena-games/arena/internal/testkit"
	"google.golang.org/grpc"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/protocol/botpb"
	"github.com/arena-games/arena/protocol/internal/benchpb"
)

// The test binary doubles as a bot: started with testBotEnv set it serves a policy that
// picks the last option, plus the benchmark-only Transport service.
const testBotEnv = "PROTOCOL_TEST_BOT=1"

func TestMain(m *testing.M) {
	if os.Getenv("PROTOCOL_TEST_BOT") == "1" {
		testkit.CoverChild(false)
		srv := NewBotServer(func(Match) engine.Policy { return lastOption{} }).(*botServer)
		plugin := serveConfig(srv, func(s *grpc.Server) { benchpb.RegisterTransportServer(s, &transport{bot: srv}) })
		servePlugin(plugin)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type lastOption struct{}

func (lastOption) Choose(v engine.View, _ []engine.Event, o []engine.Option) int {
	if _, ok := v.(*ivanhoe.View); !ok {
		return -1
	}
	return len(o) - 1
}

// transport serves the benchmark's unary variants over the same seat state as the
// Bot service's stream.
type transport struct {
	benchpb.UnimplementedTransportServer
	bot *botServer
}

func (t *transport) Ping(context.Context, *benchpb.Empty) (*benchpb.Empty, error) {
	return &benchpb.Empty{}, nil
}

func (t *transport) Decide(_ context.Context, req *botpb.DecideRequest) (*botpb.DecideReply, error) {
	v, _ := t.bot.matches.Load(matchKey{req.MatchId, req.Seat})
	choice, err := v.(*seatState).decide(req)
	if err != nil {
		return nil, err
	}
	return &botpb.DecideReply{MatchId: req.MatchId, SeatDecision: req.SeatDecision, Choice: int32(choice)}, nil
}

func launchTestBot(t testing.TB) *Process {
	exe, err := os.Executable()
	require.NoError(t, err)
	p, err := Launch(context.Background(), LaunchConfig{Path: exe, Env: append([]string{testBotEnv}, testkit.ChildEnv()...)})
	require.NoError(t, err)
	t.Cleanup(func() { p.Kill(time.Second) })
	return p
}

// sampleIvanhoe is a mid-game four-player view, the size of a real decision.
func sampleIvanhoe() *ivanhoe.View {
	v := &ivanhoe.View{Seat: 2, Players: 4, Phase: ivanhoe.PhaseTurn, ToMove: 2, Shield: 1, Stunned: -1,
		Colour: ivanhoe.Blue, Starter: 1, PlayedThisTurn: 1, AddedThisTurn: 1, DrawPile: 51,
		Pending: ivanhoe.NoCard, PendingBy: -1, PendingArgs: [3]int{-1, -1, -1}, Tournaments: 3,
		TokensToWin: 4, HandSizes: []int{7, 5, 8, 6}, InTournament: []bool{true, true, true, false},
		Displays: [][]ivanhoe.Card{{ivanhoe.Blue3, ivanhoe.Blue4}, {ivanhoe.Squire3, ivanhoe.Blue5, ivanhoe.Maiden}, {ivanhoe.Blue2}, nil},
		Tokens:   make([][ivanhoe.NumColours]bool, 4)}
	v.Hand[ivanhoe.Blue2], v.Hand[ivanhoe.Squire2], v.Hand[ivanhoe.Riposte], v.Hand[ivanhoe.Green1] = 2, 1, 1, 3
	v.Discard[ivanhoe.Red3], v.Discard[ivanhoe.Unhorse] = 4, 1
	v.Tokens[0][ivanhoe.Red], v.Tokens[1][ivanhoe.Purple], v.Tokens[1][ivanhoe.Green] = true, true, true
	return v
}

func sampleRequest(t testing.TB, decision uint32) *botpb.DecideRequest {
	pv, err := encodeIvanhoe(sampleIvanhoe())
	require.NoError(t, err)
	opts := []engine.Option{{Kind: uint8(ivanhoe.PlayCard), A: int16(ivanhoe.Blue2), B: -1, C: -1, D: -1},
		{Kind: uint8(ivanhoe.PlayCard), A: int16(ivanhoe.Squire2), B: -1, C: -1, D: -1},
		{Kind: uint8(ivanhoe.PlayAction), A: int16(ivanhoe.Riposte), B: 1, C: -1, D: -1},
		{Kind: uint8(ivanhoe.EndTurn), A: -1, B: -1, C: -1, D: -1},
		{Kind: uint8(ivanhoe.Withdraw), A: -1, B: -1, C: -1, D: -1}}
	evs := []engine.Event{{Kind: uint8(ivanhoe.EvPlay), Seat: 1, A: int16(ivanhoe.Maiden)}, {Kind: uint8(ivanhoe.EvEndTurn), Seat: 1, A: 14}}
	return &botpb.DecideRequest{MatchId: "m1", Seat: 2, SeatDecision: decision, View: pv,
		Options: AppendOptions(nil, opts), Events: AppendEvents(nil, evs), BankUs: 60e6, DeadlineUs: 1e6}
}

func TestIvanhoeViewSurvivesTheWire(t *testing.T) {
	want := sampleIvanhoe()
	pv, err := encodeIvanhoe(want)
	require.NoError(t, err)
	got, err := decodeIvanhoe(pv)
	require.NoError(t, err)
	// A seat without a display travels as an empty one.
	want.Displays[3] = []ivanhoe.Card{}
	assert.Equal(t, want, got)
}

func TestIvanhoeDecodeRejectsBadMessagesWithoutPanic(t *testing.T) {
	good := func() *botpb.IvanhoeView { pv, _ := encodeIvanhoe(sampleIvanhoe()); return pv.GetIvanhoe() }
	cases := map[string]func(m *botpb.IvanhoeView){
		"seats disagree with players": func(m *botpb.IvanhoeView) { m.Players = 5 },
		"short hand":                  func(m *botpb.IvanhoeView) { m.Hand = m.Hand[:3] },
		"card out of range":           func(m *botpb.IvanhoeView) { m.Seats[0].Display = append(m.Seats[0].Display, 77) },
		"token colour out of range":   func(m *botpb.IvanhoeView) { m.Seats[0].Tokens = append(m.Seats[0].Tokens, 9) },
		"pending arguments missing":   func(m *botpb.IvanhoeView) { m.PendingArgs = nil },
		"huge count":                  func(m *botpb.IvanhoeView) { m.Hand[0] = 1000 },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			m := good()
			mutate(m)
			_, err := decodeIvanhoe(&botpb.View{Game: &botpb.View_Ivanhoe{Ivanhoe: m}})
			assert.Error(t, err)
		})
	}
	_, err := decodeIvanhoe(&botpb.View{})
	assert.Error(t, err, "no view at all")
}

func TestDecisionRoundTripThroughAPluginProcess(t *testing.T) {
	p := launchTestBot(t)
	seat, err := p.OpenSeat(context.Background(), &botpb.StartRequest{MatchId: "m1", Game: "ivanhoe", Seat: 2, Players: 4}, time.Second)
	require.NoError(t, err)
	for d := uint32(0); d < 3; d++ {
		rep, _, err := seat.Decide(sampleRequest(t, d), 5*time.Second)
		require.NoError(t, err)
		assert.Equal(t, int32(4), rep.Choice, "the bot saw a decoded ivanhoe view and five options")
		assert.Equal(t, d, rep.SeatDecision)
	}
	require.NoError(t, seat.Close(&botpb.EndRequest{MatchId: "m1", Seat: 2}, time.Second))
}

func TestDecideOnAnUnstartedMatchIsAnError(t *testing.T) {
	p := launchTestBot(t)
	_, err := p.OpenSeat(context.Background(), &botpb.StartRequest{MatchId: "m1", Game: "no-such-game"}, time.Second)
	assert.ErrorContains(t, err, "no-such-game")
	stream, err := p.bot.Match(context.Background())
	require.NoError(t, err)
	require.NoError(t, stream.Send(sampleRequest(t, 0)))
	_, err = stream.Recv()
	assert.ErrorContains(t, err, "was not started")
}

func TestLaunchRefusesWhatIsNotABot(t *testing.T) {
	dir := t.TempDir()
	script := dir + "/talker"
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\necho hello\nsleep 30\n"), 0o755))
	plain := dir + "/plain"
	require.NoError(t, os.WriteFile(plain, []byte("x"), 0o644))
	for name, path := range map[string]string{"not a plugin": script, "not executable": plain, "missing": dir + "/none", "a directory": dir} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			_, err := Launch(context.Background(), LaunchConfig{Path: path, StartTimeout: 5 * time.Second})
			assert.Error(t, err)
			assert.Less(t, time.Since(start), 4*time.Second, "refused at once, not after the start timeout")
		})
	}
}

// BenchmarkTransport measures one decision's round trip through a real bot process over
// go-plugin's unix socket: the floor (an empty unary call), a decision as a unary call,
// and a decision on the per-seat stream that the arena uses.
func BenchmarkTransport(b *testing.B) {
	p := launchTestBot(b)
	seat, err := p.OpenSeat(context.Background(), &botpb.StartRequest{MatchId: "m1", Game: "ivanhoe", Seat: 2, Players: 4}, time.Second)
	require.NoError(b, err)
	bench := benchpb.NewTransportClient(p.conn)
	req := sampleRequest(b, 0)
	ctx := context.Background()
	b.Run("ping-unary", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := bench.Ping(ctx, &benchpb.Empty{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decide-unary", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := bench.Decide(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decide-stream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			req.SeatDecision++
			if _, _, err := seat.Decide(req, 5*time.Second); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The same stream without the seat (no clock, no reader): what the seat adds.
	_, err = p.bot.StartMatch(ctx, &botpb.StartRequest{MatchId: "m2", Game: "ivanhoe", Seat: 2, Players: 4})
	require.NoError(b, err)
	raw, err := p.bot.Match(ctx)
	require.NoError(b, err)
	req2 := sampleRequest(b, 0)
	req2.MatchId = "m2"
	b.Run("decide-stream-bare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			req2.SeatDecision++
			if err := raw.Send(req2); err != nil {
				b.Fatal(err)
			}
			if _, err := raw.Recv(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestEveryViewOfRandomGamesSurvivesTheWire(t *testing.T) {
	island, err := os.ReadFile("../engine/kardinal/testdata/island.txt")
	require.NoError(t, err)
	for _, tc := range []struct {
		name, game string
		opts       engine.Options
	}{
		{"ivanhoe", "ivanhoe", nil}, {"kardinal", "kardinal", nil}, {"ninjas", "ninjas", nil},
		{"kardinal on another board", "kardinal", engine.Options{kardinal.OptionBoard: string(island)}},
	} {
		game := tc.game
		t.Run(tc.name, func(t *testing.T) {
			spec, err := engine.Lookup(game)
			require.NoError(t, err)
			codec, err := CodecFor(game)
			require.NoError(t, err)
			decode, err := codec.Decoder(tc.opts)
			require.NoError(t, err)
			for seed := uint64(1); seed <= 4; seed++ {
				players := spec.MinPlayers + int(seed)%(spec.MaxPlayers-spec.MinPlayers+1)
				g, err := engine.NewWith(game, seed, players, tc.opts)
				require.NoError(t, err)
				rnd := engine.NewRand(seed)
				for !g.Terminal() {
					for s := 0; s < players; s++ {
						want := g.View(s)
						pv, err := codec.EncodeView(want)
						require.NoError(t, err)
						got, err := decode(pv)
						require.NoError(t, err)
						if w, ok := want.(*ivanhoe.View); ok {
							want = withEmptyDisplays(w)
						}
						require.Equal(t, want, got, "seed %d decision %d seat %d", seed, g.Decisions(), s)
					}
					require.NoError(t, g.Apply(rnd.Intn(len(g.Options()))))
				}
			}
		})
	}
}

// withEmptyDisplays is an Ivanhoe view as it comes off the wire, where a nil display
// travels as an empty one.
func withEmptyDisplays(v *ivanhoe.View) *ivanhoe.View {
	w := *v
	w.Displays = append([][]ivanhoe.Card(nil), w.Displays...)
	for i := range w.Displays {
		if w.Displays[i] == nil {
			w.Displays[i] = []ivanhoe.Card{}
		}
	}
	return &w
}

func TestDecodeRejectsBadKardinalAndNinjasMessages(t *testing.T) {
	kg, err := engine.New("kardinal", 3, 4)
	require.NoError(t, err)
	ng, err := engine.New("ninjas", 3, 4)
	require.NoError(t, err)
	kv := func() *botpb.KardinalView { pv, _ := encodeKardinal(kg.View(1)); return pv.GetKardinal() }
	nv := func() *botpb.NinjasView { pv, _ := encodeNinjas(ng.View(1)); return pv.GetNinjas() }
	kardinalCases := map[string]func(m *botpb.KardinalView){
		"another board":             func(m *botpb.KardinalView) { m.Board = "Atlantis" },
		"short owner list":          func(m *botpb.KardinalView) { m.Owner = m.Owner[1:] },
		"space owned by a stranger": func(m *botpb.KardinalView) { m.Owner[0] = 9 },
		"pieces for 3 players":      func(m *botpb.KardinalView) { m.Monasteries = m.Monasteries[:27] },
		"scores for 3 players":      func(m *botpb.KardinalView) { m.Score = m.Score[:3] },
		"country out of range":      func(m *botpb.KardinalView) { m.TurnCountry = 12 },
		"nine players":              func(m *botpb.KardinalView) { m.Players = 9 },
	}
	for name, mutate := range kardinalCases {
		t.Run("kardinal "+name, func(t *testing.T) {
			m := kv()
			mutate(m)
			_, err := decodeKardinal(&botpb.View{Game: &botpb.View_Kardinal{Kardinal: m}}, kardinal.DefaultBoard())
			assert.Error(t, err)
		})
	}
	ninjasCases := map[string]func(m *botpb.NinjasView){
		"two fort slots":       func(m *botpb.NinjasView) { m.Forts[0].Slots = m.Forts[0].Slots[:2] },
		"card out of range":    func(m *botpb.NinjasView) { m.Forts[1].Slots[0] = 40 },
		"no pending message":   func(m *botpb.NinjasView) { m.Pending = nil },
		"gems for 3 players":   func(m *botpb.NinjasView) { m.Gems = m.Gems[:3] },
		"hand of 15 kinds":     func(m *botpb.NinjasView) { m.Hand = m.Hand[:15] },
		"seven players":        func(m *botpb.NinjasView) { m.Players = 7 },
		"pending kind too big": func(m *botpb.NinjasView) { m.Pending.Kind = 99 },
	}
	for name, mutate := range ninjasCases {
		t.Run("ninjas "+name, func(t *testing.T) {
			m := nv()
			mutate(m)
			_, err := decodeNinjas(&botpb.View{Game: &botpb.View_Ninjas{Ninjas: m}})
			assert.Error(t, err)
		})
	}
	_, err = decodeKardinal(&botpb.View{}, kardinal.DefaultBoard())
	assert.Error(t, err)
	_, err = decodeNinjas(&botpb.View{})
	assert.Error(t, err)
}

type listener struct {
	lastOption
	got *Outcome
}

func (l *listener) EndMatch(o Outcome) { *l.got = o }

func TestAnEnderHearsTheResultOfItsMatch(t *testing.T) {
	var got Outcome
	var started []Match
	srv := NewBotServer(func(m Match) engine.Policy {
		started = append(started, m)
		return &listener{got: &got}
	})
	ctx := context.Background()
	_, err := srv.StartMatch(ctx, &botpb.StartRequest{MatchId: "m7", Game: "ivanhoe", Seat: 1, Players: 3, Seed: 99})
	require.NoError(t, err)
	require.Equal(t, []Match{{ID: "m7", Game: "ivanhoe", Seat: 1, Players: 3, Seed: 99}}, started)
	_, err = srv.EndMatch(ctx, &botpb.EndRequest{MatchId: "m7", Seat: 1, Place: []int32{2, 0, 1}, Score: []int32{1, 4, 2},
		Endings: []botpb.Ending{botpb.Ending_ENDING_TIMEOUT, botpb.Ending_ENDING_OK, botpb.Ending_ENDING_OK}})
	require.NoError(t, err)
	assert.Equal(t, Outcome{Place: []int{2, 0, 1}, Score: []int{1, 4, 2},
		Endings: []botpb.Ending{botpb.Ending_ENDING_TIMEOUT, botpb.Ending_ENDING_OK, botpb.Ending_ENDING_OK}}, got)

	_, err = srv.EndMatch(ctx, &botpb.EndRequest{MatchId: "m7", Seat: 1})
	assert.NoError(t, err, "a second end, or an end of an unknown match, is harmless")
	_, err = srv.StartMatch(ctx, &botpb.StartRequest{MatchId: "m8", Game: "chess"})
	assert.ErrorContains(t, err, "chess", "a game without view messages is refused at the start")
}

func TestStderrKeepsOnlyTheLastBytes(t *testing.T) {
	tail := &tailBuffer{max: 10}
	for _, s := range []string{"0123456", "789abc", "def"} {
		n, err := tail.Write([]byte(s))
		require.NoError(t, err)
		assert.Equal(t, len(s), n)
	}
	assert.Equal(t, "6789abcdef", tail.String())
}

// procsWith lists live processes whose command line contains s.
func procsWith(s string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(cmd), s) {
			out = append(out, pid)
		}
	}
	return out
}

// A launch that waits for a silent bot (a minute's start-up allowance) ends as soon as
// its context does, and leaves nothing running.
func TestLaunchEndsWithItsContext(t *testing.T) {
	silent := filepath.Join(t.TempDir(), "silent")
	require.NoError(t, os.WriteFile(silent, []byte("#!/bin/sh\nexec sleep 3029\n"), 0o755))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Launch(ctx, LaunchConfig{Path: silent, StartTimeout: time.Minute})
		done <- err
	}()
	poll.Until(t, "the silent bot to start", func() bool { return len(procsWith("3029")) > 0 })
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(10 * time.Second): // a minute without the cancellation
		t.Fatal("Launch did not end with its context")
	}
	poll.Until(t, "the silent bot to be gone", func() bool { return len(procsWith("3029")) == 0 })
	_, err := Launch(ctx, LaunchConfig{Path: silent})
	assert.ErrorIs(t, err, context.Canceled, "nothing starts after the context ended")
}

// Once a bot's leader is reaped its process ID, and so its group ID, may belong to
// anyone: the group is never signalled again. The test stands an unrelated process
// group in for the reused ID.
func TestAGroupIsNotSignalledAfterItsLeaderIsReaped(t *testing.T) {
	p := launchTestBot(t)
	require.NoError(t, syscall.Kill(p.Pid(), syscall.SIGKILL))
	<-p.Done()
	other := exec.Command("sleep", "3031")
	other.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, other.Start())
	defer func() { _ = other.Process.Kill(); _ = other.Wait() }()
	p.run.mu.Lock()
	p.run.pid = other.Process.Pid // the reaped leader's ID, reused
	p.run.mu.Unlock()
	p.Kill(0)
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(other.Process.Pid) + "/stat")
	require.NoError(t, err)
	fields := strings.Fields(string(stat))
	assert.NotEqual(t, "Z", fields[2], "the unrelated group was not signalled: it lives on, not a zombie")
}
