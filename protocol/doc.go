// Package protocol is the wire between the arena and its bots: the gRPC service
// (bot.proto and one .proto per game, generated into botpb), the go-plugin handshake
// that starts a bot process and checks its protocol version, the host side that launches
// and kills bot processes, and the Go SDK a bot author uses (Serve). Every bot process
// is confined by the layers of package protocol/sandbox (LaunchConfig.Sandbox).
//
// A bot is any program that answers go-plugin's handshake and serves the Bot service.
// In Go that is a short main:
//
//	func main() { protocol.Serve(myPolicy) }
//
// where myPolicy is an engine.Policy: it receives the game's own view type (for
// example *ivanhoe.View), the events its seat saw since its previous decision and the
// legal options, and returns an index.
//
// The bot side (Serve, ServeMatches, the views and options) builds on every system Go
// does, so an author on macOS or Windows compiles and tests a bot natively (and builds
// it for Linux with GOOS=linux to run it in an arena). The host side (Launch, Process,
// Seat, and the sandbox under them) is Linux's alone: those files carry a build tag.
// It implements package bot's interface (Launcher), through which the match runner
// starts bots and plays matches without seeing gRPC: every message a bot receives is
// built here (StartRequest, SeatRequests, EndRequest).
//
// Views travel as typed messages per game (a oneof in View); converting a game's view
// to and from its message lives in one file per game (ivanhoe.go), registered with
// RegisterCodec, so adding a game is that file plus its .proto messages.
//
// Regenerate the Go code after editing a .proto file (needs protoc from Debian's
// protobuf-compiler, and `go install google.golang.org/protobuf/cmd/protoc-gen-go@latest
// google.golang.org/grpc/cmd/protoc-gen-go-grpc@latest`):
//
//	cd protocol && protoc -I . --go_out=. --go_opt=module=github.com/arena-games/arena/protocol \
//	  --go-grpc_out=. --go-grpc_opt=module=github.com/arena-games/arena/protocol \
//	  bot.proto ivanhoe.proto kardinal.proto ninjas.proto testgame.proto internal/benchpb/bench.proto
package protocol
