package protocol

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/arena-games/arena/protocol/botpb"
)

// ProtocolVersion is the version of the Bot service. go-plugin's handshake refuses a
// bot built for another version, with both versions in the error.
const ProtocolVersion = 1

// Handshake is what the arena and a bot agree on before anything else: a bot started
// without the magic cookie in its environment refuses to run (it is not meant to be
// started by hand), and the protocol versions must match. A function, so that no
// importer can change it for both sides of the process.
func Handshake() plugin.HandshakeConfig {
	return plugin.HandshakeConfig{
		ProtocolVersion:  ProtocolVersion,
		MagicCookieKey:   "ARENA_BOT_COOKIE",
		MagicCookieValue: "7f3c2a9e-arena-card-game-bot",
	}
}

// PluginName is the name of the single plugin a bot process serves.
const PluginName = "bot"

// MaxMessageBytes is the largest message either side accepts, above gRPC's 4 MiB
// default so that a large view never fails a decision.
const MaxMessageBytes = 64 << 20

// MaxReplyBytes is the largest message the arena accepts from a bot: its answers are a
// few bytes, so a larger one is hostile and fails the call (a protocol ending) before
// it costs the arena memory.
const MaxReplyBytes = 4 << 20

// MaxHeaderBytes caps the header and trailer metadata the arena accepts from a bot
// on any call: a bot has nothing to say there, so more fails the call (a protocol
// ending) before it costs the arena memory.
const MaxHeaderBytes = 64 << 10

// WindowBytes is the flow-control window of every stream and connection between the
// arena and a bot, on both sides. A fixed window turns off gRPC's bandwidth estimator,
// which otherwise pings the other side after every message it receives (a decision's
// question and answer are each far smaller than the window, so its estimate never
// settles): two more frames each way per decision, and two more wake-ups of each
// process. A megabyte lets a large view through without a window update, and bounds
// what a bot that does not read can make the arena hold per stream.
const WindowBytes = 1 << 20

// botPlugin is the go-plugin glue: the only place that joins the Bot service to
// go-plugin. On the host side it hands back the Bot client and its connection (which
// the transport benchmarks share).
type botPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	server   botpb.BotServer
	register func(*grpc.Server) // extra services, for the transport benchmarks
}

func (p *botPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	botpb.RegisterBotServer(s, p.server)
	if p.register != nil {
		p.register(s)
	}
	return nil
}

func (p *botPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (interface{}, error) {
	return &botClient{bot: botpb.NewBotClient(c), conn: c}, nil
}

// botClient is what the host side of the plugin dispenses.
type botClient struct {
	bot  botpb.BotClient
	conn *grpc.ClientConn
}
