"""Serving a bot to the arena: go-plugin's handshake, the Bot service, health and the
controller's Shutdown, on a unix socket, with a thread pool sized for many matches."""

import os
import sys
import tempfile
import threading
import time
import traceback
from concurrent import futures

import grpc

from . import blame
from .games import GAMES, Event, Option
from .pb import bot_pb2, controller_pb2, health_pb2

COOKIE_KEY = "ARENA_BOT_COOKIE"
COOKIE_VALUE = "7f3c2a9e-arena-card-game-bot"
CORE_PROTOCOL_VERSION = 1  # go-plugin's
APP_PROTOCOL_VERSION = 1  # the Bot service's
MAX_MESSAGE_BYTES = 64 << 20

# Every open match-seat holds one thread for the whole match (its Match stream), and a
# short call (StartMatch, EndMatch, health) needs one more. 64 threads serve about 60
# match-seats at once; ThreadPoolExecutor starts them only as they are needed. Threads
# count against the arena's --bot-processes limit (default 128) with gRPC's own few.
DEFAULT_THREADS = 64


# The reply echoes the request's decision counter (DecideRequest field 3 into
# DecideReply field 2), found by number so that a renamed field needs no change here.
_REQUEST_COUNTER = bot_pb2.DecideRequest.DESCRIPTOR.fields_by_number[3].name
_REPLY_COUNTER = bot_pb2.DecideReply.DESCRIPTOR.fields_by_number[2].name


class Match:
    """What a bot learns when a match starts."""

    def __init__(self, req):
        self.id, self.game, self.seat = req.match_id, req.game, req.seat
        self.players, self.seed = req.players, req.seed
        self.decision_deadline_us, self.bank_us = req.decision_deadline_us, req.bank_us
        # The game's options for this match by name, each in full (a board file's text);
        # empty for the defaults, which games.json describes.
        self.options = dict(req.options)
        self.info = GAMES.get(req.game)  # games.Game: cards, colours, board...

    def __repr__(self):
        return f"Match({self.id!r}, {self.game}, seat {self.seat} of {self.players})"


class Outcome:
    """How a match ended: per-seat place (0 first), score, endings; adjudicated."""

    def __init__(self, req):
        self.place, self.score = list(req.place), list(req.score)
        self.adjudicated = req.adjudicated
        self.endings = [bot_pb2.Ending.Name(e) for e in req.endings]


class Bot:
    """Base class for a bot with per-match state: one instance per match and seat.
    Calls for one instance come one at a time."""

    def __init__(self, match):
        self.match = match

    def choose(self, view, events, options):
        raise NotImplementedError

    def end(self, outcome):
        """Called once when the match is over (optional)."""


class _FunctionBot(Bot):
    def __init__(self, fn, match):
        super().__init__(match)
        self.fn = fn

    def choose(self, view, events, options):
        return self.fn(view, events, options)


class _Seat:
    def __init__(self, bot, match):
        self.bot, self.match, self.lock = bot, match, threading.Lock()


def _log(msg):
    print(f"arena_bot: {msg}", file=sys.stderr, flush=True)


class BotService:
    """The Bot service over a factory that makes one Bot per match and seat."""

    def __init__(self, factory, threads=DEFAULT_THREADS):
        self.factory = factory
        self.threads = threads
        self.seats = {}
        self.mu = threading.Lock()
        self.streams = 0
        self.warned = False

    def start_match(self, req, context):
        match = Match(req)
        if match.info is None:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"this SDK does not know game {req.game!r}")
        try:
            bot = self.factory(match)
        except Exception as e:
            traceback.print_exc(file=sys.stderr)
            context.abort(grpc.StatusCode.INTERNAL,
                          f"the bot failed to start its match: {blame.describe(e)} (traceback on its stderr)")
        with self.mu:
            self.seats[(req.match_id, req.seat)] = _Seat(bot, match)
        return bot_pb2.StartReply()

    def match(self, requests, context):
        with self.mu:
            self.streams += 1
            if self.streams >= self.threads - 2 and not self.warned:
                self.warned = True
                _log(f"{self.streams} matches at once use nearly all {self.threads} threads; "
                     "more will wait and time out: pass threads= to serve()")
        try:
            seat = None
            for req in requests:
                if seat is None:
                    with self.mu:
                        seat = self.seats.get((req.match_id, req.seat))
                    if seat is None:
                        context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                                      f"match {req.match_id!r} seat {req.seat} was not started")
                choice = self._decide(seat, req, context)
                reply = bot_pb2.DecideReply(match_id=req.match_id, choice=choice)
                setattr(reply, _REPLY_COUNTER, getattr(req, _REQUEST_COUNTER))
                yield reply
        finally:
            with self.mu:
                self.streams -= 1

    def _decide(self, seat, req, context):
        info = seat.match.info
        which = req.view.WhichOneof("game")
        view = getattr(req.view, which) if which else None
        options = [Option(info, i, o) for i, o in enumerate(req.options)]
        events = [Event(info, e) for e in req.events]
        with seat.lock:
            try:
                choice = seat.bot.choose(view, events, options)
            except Exception as e:
                traceback.print_exc(file=sys.stderr)
                context.abort(grpc.StatusCode.INTERNAL, f"the bot raised {blame.describe(e)} (traceback on its stderr)")
        if isinstance(choice, Option):
            choice = choice.index
        if not isinstance(choice, int) or isinstance(choice, bool):
            _log(f"choose returned {choice!r}, not an option index")
            context.abort(grpc.StatusCode.INTERNAL, "the bot returned something that is not an index")
        return choice

    def end_match(self, req, context):
        with self.mu:
            seat = self.seats.pop((req.match_id, req.seat), None)
        if seat is not None:
            try:
                with seat.lock:
                    seat.bot.end(Outcome(req))
            except Exception:
                traceback.print_exc(file=sys.stderr)
        return bot_pb2.EndReply()


def _handlers(service, stop):
    u, s = grpc.unary_unary_rpc_method_handler, grpc.stream_stream_rpc_method_handler
    bot = grpc.method_handlers_generic_handler("arena.bot.v1.Bot", {
        "StartMatch": u(service.start_match, bot_pb2.StartRequest.FromString,
                        bot_pb2.StartReply.SerializeToString),
        "Match": s(service.match, bot_pb2.DecideRequest.FromString, bot_pb2.DecideReply.SerializeToString),
        "EndMatch": u(service.end_match, bot_pb2.EndRequest.FromString, bot_pb2.EndReply.SerializeToString),
    })
    serving = health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.SERVING)

    def check(req, context):
        if req.service not in ("", "plugin"):
            context.abort(grpc.StatusCode.NOT_FOUND, f"unknown service {req.service!r}")
        return serving

    health = grpc.method_handlers_generic_handler("grpc.health.v1.Health", {
        "Check": u(check, health_pb2.HealthCheckRequest.FromString, health_pb2.HealthCheckResponse.SerializeToString),
    })

    def shutdown(req, context):
        stop.set()
        return controller_pb2.Empty()

    controller = grpc.method_handlers_generic_handler("plugin.GRPCController", {
        "Shutdown": u(shutdown, controller_pb2.Empty.FromString, controller_pb2.Empty.SerializeToString),
    })
    return (bot, health, controller)


def _check_launch():
    if os.environ.get(COOKIE_KEY) != COOKIE_VALUE:
        print("This is an arena bot: the arena starts it (arena match ./bot random, or arena bot check ./bot); "
              "it does not run by hand.", file=sys.stderr)
        sys.exit(1)
    versions = os.environ.get("PLUGIN_PROTOCOL_VERSIONS", str(APP_PROTOCOL_VERSION)).split(",")
    if str(APP_PROTOCOL_VERSION) not in versions:
        print(f"arena_bot: the arena speaks protocol versions {versions}, this SDK {APP_PROTOCOL_VERSION}",
              file=sys.stderr)
        sys.exit(1)


def _watch_parent(stop):
    # The arena may die without stopping us (SIGKILL): we are then re-parented.
    ppid = os.getppid()
    while not stop.wait(0.5):
        if os.getppid() != ppid:
            stop.set()


def serve_factory(factory, threads=DEFAULT_THREADS):
    """Serves bots made by factory(match), one per match and seat, until the arena stops
    the process. This is the whole main of a bot."""
    _check_launch()
    stop = threading.Event()
    service = BotService(factory, threads)
    opts = [("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES)]
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=threads), options=opts)
    server.add_generic_rpc_handlers(_handlers(service, stop))
    # The arena sets PLUGIN_UNIX_SOCKET_DIR to the bot's scratch directory, the only
    # place it may write; elsewhere (tests) a fresh temporary directory.
    sock_dir = os.environ.get("PLUGIN_UNIX_SOCKET_DIR") or tempfile.mkdtemp(prefix="arena-bot-")
    path = os.path.join(sock_dir, f"bot-{os.getpid()}.sock")
    if server.add_insecure_port("unix:" + path) == 0:
        _log(f"cannot listen on {path}")
        sys.exit(1)
    server.start()
    # The handshake line must be the first line on stdout, and flushed: stdout is a pipe,
    # so Python buffers it, and an unflushed line is a start-up timeout.
    sys.stdout.write(f"{CORE_PROTOCOL_VERSION}|{APP_PROTOCOL_VERSION}|unix|{path}|grpc\n")
    sys.stdout.flush()
    threading.Thread(target=_watch_parent, args=(stop,), daemon=True).start()
    stop.wait()
    # Let the Shutdown reply leave before the server goes.
    time.sleep(0.05)
    server.stop(grace=0.2).wait()
    try:
        os.unlink(path)
    except OSError:
        pass


def serve(bot, threads=DEFAULT_THREADS):
    """Serves bot: either a function (view, events, options) -> index, shared by every
    match (it must be safe to call from several threads), or a Bot subclass, made once
    per match and seat."""
    if isinstance(bot, type) and issubclass(bot, Bot):
        serve_factory(bot, threads)
    elif callable(bot):
        serve_factory(lambda match: _FunctionBot(bot, match), threads)
    else:
        raise TypeError("serve takes a function (view, events, options) -> index or a Bot subclass")
