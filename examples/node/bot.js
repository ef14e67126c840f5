#!/usr/bin/env node
// A random arena bot in Node, written from protocol/PROTOCOL.md and the .proto files
// alone: it checks the cookie, listens on a unix socket, prints go-plugin's handshake
// line, and serves the Bot service, gRPC health and go-plugin's controller.
//
//   (cd examples/node && npm ci)
//   go run ./cmd/arena bot check examples/node/bot.js
'use strict';
const path = require('path');
const grpc = require('@grpc/grpc-js');
const loader = require('@grpc/proto-loader');

if (process.env.ARENA_BOT_COOKIE !== '7f3c2a9e-arena-card-game-bot') {
  console.error('This is an arena bot: the arena starts it; it does not run by hand.');
  process.exit(1);
}

const protoDir = path.join(__dirname, '..', '..', 'protocol');
const load = (file) => grpc.loadPackageDefinition(loader.loadSync(path.join(protoDir, file), {
  includeDirs: [protoDir], keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true,
}));
const bot = load('bot.proto').arena.bot.v1;
const health = load('health.proto').grpc.health.v1;
const controller = load('controller.proto').plugin;

const server = new grpc.Server({
  'grpc.max_receive_message_length': 64 << 20, 'grpc.max_send_message_length': 64 << 20,
});
const started = new Set(); // "match/seat"

server.addService(bot.Bot.service, {
  StartMatch(call, cb) {
    started.add(`${call.request.match_id}/${call.request.seat}`);
    cb(null, {});
  },
  Match(call) {
    call.on('data', (req) => {
      if (!started.has(`${req.match_id}/${req.seat}`)) {
        call.destroy({ code: grpc.status.FAILED_PRECONDITION, details: 'match not started' });
        return;
      }
      // Echo match_id and the decision counter (field 3 of the request, field 2 of the
      // reply: seat_decision in bot.proto; decision in older copies); pick any option.
      const choice = Math.floor(Math.random() * req.options.length);
      call.write({ match_id: req.match_id, seat_decision: req.seat_decision, decision: req.decision, choice });
    });
    call.on('end', () => call.end());
  },
  EndMatch(call, cb) {
    started.delete(`${call.request.match_id}/${call.request.seat}`);
    cb(null, {});
  },
});
server.addService(health.Health.service, {
  Check(call, cb) { cb(null, { status: 'SERVING' }); },
  Watch(call) { call.destroy({ code: grpc.status.UNIMPLEMENTED, details: 'not served' }); },
});
server.addService(controller.GRPCController.service, {
  Shutdown(call, cb) {
    cb(null, {});
    setTimeout(() => server.tryShutdown(() => process.exit(0)), 20);
    setTimeout(() => process.exit(0), 500).unref();
  },
});

// PLUGIN_UNIX_SOCKET_DIR is the bot's scratch directory: the only place it may write.
const dir = process.env.PLUGIN_UNIX_SOCKET_DIR || require('os').tmpdir();
const sock = path.join(dir, `node-bot-${process.pid}.sock`);
server.bindAsync(`unix:${sock}`, grpc.ServerCredentials.createInsecure(), (err) => {
  if (err) {
    console.error(`cannot listen on ${sock}: ${err.message}`);
    process.exit(1);
  }
  // The handshake: core version 1, app protocol version 1, network, address, protocol.
  process.stdout.write(`1|1|unix|${sock}|grpc\n`);
});

// Exit if the arena dies without stopping us (we are re-parented).
const ppid = process.ppid;
setInterval(() => { if (process.ppid !== ppid) process.exit(0); }, 500).unref();
