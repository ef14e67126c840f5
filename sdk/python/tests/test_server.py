"""The SDK's server spoken to as the arena speaks to it: a real bot process, its
handshake line on a pipe, gRPC on its unix socket."""

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import threading
import unittest

import grpc

HERE = os.path.dirname(os.path.abspath(__file__))
SDK = os.path.join(HERE, "..")
sys.path.insert(0, SDK)

import arena_bot  # noqa: E402
from arena_bot.pb import bot_pb2, controller_pb2, health_pb2  # noqa: E402
from arena_bot.server import _REPLY_COUNTER, _REQUEST_COUNTER  # noqa: E402

# The arena's wait for a handshake is 10 s by default; a busy machine may start Python
# slowly, so the tests allow as much.
START_TIMEOUT = 10
CALL_TIMEOUT = 10


def stub(channel, service, method, req_cls, reply_cls, stream=False):
    make = channel.stream_stream if stream else channel.unary_unary
    return make(f"/{service}/{method}", request_serializer=req_cls.SerializeToString,
                response_deserializer=reply_cls.FromString)


class BotProcess:
    """A bot script started as the arena starts it."""

    def __init__(self, body, cookie=True):
        self.dir = tempfile.mkdtemp(prefix="arena-sdk-test-")
        self.script = script = os.path.join(self.dir, "bot.py")
        with open(script, "w") as f:
            f.write(f"import sys\nsys.path.insert(0, {SDK!r})\nimport arena_bot\n" + textwrap.dedent(body))
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "PLUGIN_UNIX_SOCKET_DIR": self.dir,
               "PLUGIN_PROTOCOL_VERSIONS": "1"}
        if cookie:
            env[arena_bot.COOKIE_KEY] = arena_bot.COOKIE_VALUE
        self.proc = subprocess.Popen([sys.executable, script], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)

    def handshake(self):
        line = []
        t = threading.Thread(target=lambda: line.append(self.proc.stdout.readline()))
        t.start()
        t.join(START_TIMEOUT)
        if not line:
            raise AssertionError("no handshake line (not flushed?)")
        return line[0]

    def connect(self):
        parts = self.handshake().strip().split("|")
        assert parts[0] == "1" and parts[1] == "1" and parts[2] == "unix" and parts[4] == "grpc", parts
        self.channel = grpc.insecure_channel("unix:" + parts[3])
        return self.channel

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()
        shutil.rmtree(self.dir, ignore_errors=True)  # the script and its socket


RANDOM = """
import random
arena_bot.serve(lambda view, events, options: random.choice(options).index)
"""


def decide_request(match_id, decision, n_options=3):
    return bot_pb2.DecideRequest(match_id=match_id, seat=0, **{_REQUEST_COUNTER: decision},
                                 options=[bot_pb2.Option(kind=4, a=-1, b=-1, c=-1, d=-1)] * n_options,
                                 view=bot_pb2.View(ivanhoe=bot_pb2.ivanhoe__pb2.IvanhoeView(seat=0, players=2)))


class Server(unittest.TestCase):
    def start(self, body=RANDOM):
        bot = BotProcess(body)
        self.addCleanup(bot.close)
        ch = bot.connect()
        self.addCleanup(ch.close)
        return bot, ch

    def start_match(self, ch, match_id, game="ivanhoe"):
        stub(ch, "arena.bot.v1.Bot", "StartMatch", bot_pb2.StartRequest, bot_pb2.StartReply)(
            bot_pb2.StartRequest(match_id=match_id, game=game, seat=0, players=2, seed=1), timeout=CALL_TIMEOUT)

    def test_health_match_and_shutdown(self):
        bot, ch = self.start()
        health = stub(ch, "grpc.health.v1.Health", "Check", health_pb2.HealthCheckRequest,
                      health_pb2.HealthCheckResponse)
        self.assertEqual(health(health_pb2.HealthCheckRequest(service="plugin"), timeout=CALL_TIMEOUT).status,
                         health_pb2.HealthCheckResponse.SERVING)
        self.start_match(ch, "m1")
        match = stub(ch, "arena.bot.v1.Bot", "Match", bot_pb2.DecideRequest, bot_pb2.DecideReply, stream=True)
        replies = list(match(iter([decide_request("m1", 7), decide_request("m1", 8)]), timeout=CALL_TIMEOUT))
        self.assertEqual([(r.match_id, getattr(r, _REPLY_COUNTER)) for r in replies], [("m1", 7), ("m1", 8)])
        for r in replies:
            self.assertIn(r.choice, range(3))
        stub(ch, "arena.bot.v1.Bot", "EndMatch", bot_pb2.EndRequest, bot_pb2.EndReply)(
            bot_pb2.EndRequest(match_id="m1", seat=0, place=[0, 1]), timeout=CALL_TIMEOUT)
        stub(ch, "plugin.GRPCController", "Shutdown", controller_pb2.Empty, controller_pb2.Empty)(
            controller_pb2.Empty(), timeout=CALL_TIMEOUT)
        self.assertEqual(bot.proc.wait(timeout=START_TIMEOUT), 0)

    def test_many_matches_at_once(self):
        # More streams than gRPC's default pool: every one must be answered while all are open.
        n = 40
        _, ch = self.start()
        match = stub(ch, "arena.bot.v1.Bot", "Match", bot_pb2.DecideRequest, bot_pb2.DecideReply, stream=True)
        gates = [threading.Event() for _ in range(n)]
        results = [None] * n

        def requests(i):
            yield decide_request(f"m{i}", 1)
            gates[i].wait(CALL_TIMEOUT)  # keep the stream open until every match has an answer
            yield decide_request(f"m{i}", 2)

        def run(i):
            self.start_match(ch, f"m{i}")
            replies = match(requests(i), timeout=CALL_TIMEOUT * 2)
            first = next(replies)
            results[i] = [getattr(first, _REPLY_COUNTER)]
            all_answered.wait(CALL_TIMEOUT)
            gates[i].set()
            results[i] += [getattr(r, _REPLY_COUNTER) for r in replies]

        all_answered = threading.Event()
        threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        deadline_ok = True
        for _ in range(CALL_TIMEOUT * 10):
            if all(r is not None for r in results):
                break
            threading.Event().wait(0.1)
        else:
            deadline_ok = False
        all_answered.set()
        for t in threads:
            t.join(CALL_TIMEOUT * 2)
        self.assertTrue(deadline_ok, "not every open match got its first answer")
        self.assertEqual(results, [[1, 2]] * n)

    def test_exception_fails_the_stream_and_is_on_stderr(self):
        bot, ch = self.start("""
def choose(view, events, options):
    raise ValueError("bad bot")
arena_bot.serve(choose)
""")
        self.start_match(ch, "m1")
        match = stub(ch, "arena.bot.v1.Bot", "Match", bot_pb2.DecideRequest, bot_pb2.DecideReply, stream=True)
        with self.assertRaises(grpc.RpcError) as e:
            list(match(iter([decide_request("m1", 1)]), timeout=CALL_TIMEOUT))
        self.assertEqual(e.exception.code(), grpc.StatusCode.INTERNAL)
        # The status is the forfeit's detail: what went wrong and where, in the author's file.
        self.assertIn(f"ValueError: bad bot, in choose at {bot.script} line 6", e.exception.details())
        bot.proc.kill()
        self.assertIn(f'File "{bot.script}", line 6, in choose', bot.proc.stderr.read())

    def test_exception_in_a_library_names_the_authors_line(self):
        bot, ch = self.start("""
import random
def choose(view, events, options):
    return random.choice([])
arena_bot.serve(choose)
""")
        self.start_match(ch, "m1")
        match = stub(ch, "arena.bot.v1.Bot", "Match", bot_pb2.DecideRequest, bot_pb2.DecideReply, stream=True)
        with self.assertRaises(grpc.RpcError) as e:
            list(match(iter([decide_request("m1", 1)]), timeout=CALL_TIMEOUT))
        # random.py raised it, but the line to fix is the bot's.
        self.assertIn(f"IndexError: Cannot choose from an empty sequence, in choose at {bot.script} line 7",
                      e.exception.details())

    def test_exception_starting_a_match_names_the_authors_line(self):
        _, ch = self.start("""
class Broken(arena_bot.Bot):
    def __init__(self, match):
        raise KeyError("no table")
arena_bot.serve(Broken)
""")
        with self.assertRaises(grpc.RpcError) as e:
            self.start_match(ch, "m1")
        self.assertIn("KeyError: 'no table', in __init__ at ", e.exception.details())
        self.assertIn("bot.py line 7", e.exception.details())

    def test_exception_before_serving_ends_stderr_with_the_authors_line(self):
        # The arena quotes the last line of a dead bot's stderr as its crash.
        bot = BotProcess("""
table = {}
size = table["size"]
arena_bot.serve(lambda view, events, options: 0)
""")
        self.addCleanup(bot.close)
        self.assertEqual(bot.proc.wait(timeout=START_TIMEOUT), 1)
        last = bot.proc.stderr.read().strip().splitlines()[-1]
        self.assertEqual(f"arena_bot: the bot raised KeyError: 'size', in <module> at {bot.script} line 6", last)

    def test_class_bot_keeps_state_per_match(self):
        _, ch = self.start("""
class Counter(arena_bot.Bot):
    def __init__(self, match):
        super().__init__(match)
        self.calls = 0
    def choose(self, view, events, options):
        self.calls += 1
        return self.calls
arena_bot.serve(Counter)
""")
        match = stub(ch, "arena.bot.v1.Bot", "Match", bot_pb2.DecideRequest, bot_pb2.DecideReply, stream=True)
        for m in ("a", "b"):
            self.start_match(ch, m)
        a = list(match(iter([decide_request("a", i) for i in range(3)]), timeout=CALL_TIMEOUT))
        b = list(match(iter([decide_request("b", 1)]), timeout=CALL_TIMEOUT))
        self.assertEqual([r.choice for r in a], [1, 2, 3])
        self.assertEqual([r.choice for r in b], [1])

    def test_match_options_reach_the_bot(self):
        _, ch = self.start("""
class Board(arena_bot.Bot):
    def choose(self, view, events, options):
        return len(self.match.options.get("board", ""))
arena_bot.serve(Board)
""")
        stub(ch, "arena.bot.v1.Bot", "StartMatch", bot_pb2.StartRequest, bot_pb2.StartReply)(
            bot_pb2.StartRequest(match_id="k", game="kardinal", seat=0, players=3, options={"board": "abc"}),
            timeout=CALL_TIMEOUT)
        match = stub(ch, "arena.bot.v1.Bot", "Match", bot_pb2.DecideRequest, bot_pb2.DecideReply, stream=True)
        replies = list(match(iter([bot_pb2.DecideRequest(match_id="k", seat=0)]), timeout=CALL_TIMEOUT))
        self.assertEqual([r.choice for r in replies], [3])

    def test_unstarted_match_is_refused(self):
        _, ch = self.start()
        match = stub(ch, "arena.bot.v1.Bot", "Match", bot_pb2.DecideRequest, bot_pb2.DecideReply, stream=True)
        with self.assertRaises(grpc.RpcError) as e:
            list(match(iter([decide_request("nope", 1)]), timeout=CALL_TIMEOUT))
        self.assertEqual(e.exception.code(), grpc.StatusCode.FAILED_PRECONDITION)

    def test_refuses_to_run_without_the_cookie(self):
        bot = BotProcess(RANDOM, cookie=False)
        self.addCleanup(bot.close)
        self.assertEqual(bot.proc.wait(timeout=START_TIMEOUT), 1)
        self.assertIn("it does not run by hand", bot.proc.stderr.read())
        self.assertEqual(bot.proc.stdout.read(), "")


if __name__ == "__main__":
    unittest.main()
