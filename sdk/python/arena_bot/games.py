"""The meaning of each game's options and events, read from games.json.

games.json is written from the engines' own tables (the Go package protocol/gamedoc,
whose tests fail when it and the engines disagree). It names every option and event
kind, says which argument (a..d) holds a card, a colour, a seat or a position, and holds
the card tables and the Kardinal board.
"""

import json
import pkgutil
from collections import namedtuple

NO_ARG = -1
JESTER_FLAG = 256

Card = namedtuple("Card", "index enum name count value colour group countries")
Card.__doc__ = "A kind of card: index, .proto enum name, name, copies in the box, and game data."


class Game:
    """One game's description: cards, colours, countries, slots, board, option and event kinds."""

    def __init__(self, d):
        self.name = d["name"]
        self.min_players, self.max_players = d["min_players"], d["max_players"]
        self.cards = [Card(c["index"], c["enum"], c["name"], c["count"], c.get("value"),
                           c.get("colour"), c.get("group"), tuple(c.get("countries", ())))
                      for c in d["cards"]]
        self.card_by_enum = {c.enum: c for c in self.cards}
        self.colours = [c["name"] for c in d.get("colours", [])]
        self.countries = [c["name"] for c in d.get("countries", [])]
        self.slots = [c["name"] for c in d.get("slots", [])]
        self.board = d.get("board")
        self.options = {k["kind"]: k for k in d["options"]}
        self.events = {k["kind"]: k for k in d["events"]}

    def card(self, enum_or_index):
        """A card by its enum name ("RED_3") or index."""
        if isinstance(enum_or_index, str):
            return self.card_by_enum[enum_or_index]
        return self.cards[enum_or_index]

    def args(self, kind, values):
        """The (name, type, value) arguments of a kind for these a..d values."""
        arglist = kind["args"]
        case_of = kind.get("case_of")
        if case_of:
            field = next(a["field"] for a in kind["args"] if a["name"] == case_of)
            v = values.get(field, NO_ARG)
            if 0 <= v < len(self.cards):
                for case in kind["cases"]:
                    if self.cards[v].enum in case["when"]:
                        arglist = case["args"]
        return [(a["name"], a["type"], values.get(a["field"], NO_ARG)) for a in arglist]

    def value(self, typ, v):
        """An argument in words: cards as Card, colours and countries as names."""
        if typ == "card":
            return self.cards[v]
        if typ == "from":
            return None if v < 0 else self.cards[v]
        if typ == "colour":
            return self.colours[v]
        if typ == "country":
            return self.countries[v]
        if typ == "slot":
            return self.slots[v]
        if typ == "seat_or_none" or typ == "space":
            return None if v < 0 else v
        if typ == "flag":
            return bool(v)
        if typ == "jester":
            return v == JESTER_FLAG
        if typ == "count_jester":
            return v & ~JESTER_FLAG
        if typ == "pay":
            return (self.cards[v // 2], bool(v % 2))
        return v


def _load():
    # pkgutil reads it from a folder or from inside a zipapp alike.
    d = json.loads(pkgutil.get_data(__name__.rsplit(".", 1)[0], "games.json").decode("utf-8"))
    return {g["name"]: Game(g) for g in d["games"]}


GAMES = _load()


class _Named:
    """Shared by Option and Event: kind names and arguments by name."""

    __slots__ = ("kind", "text", "a", "b", "c", "d", "_args")

    def __getattr__(self, name):
        try:
            return self._args[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} {self.kind} has no argument {name!r} "
                                 f"(it has: {', '.join(self._args) or 'none'})") from None

    def args(self):
        """The arguments by name, in words."""
        return dict(self._args)


class Option(_Named):
    """One legal option: index (what to return), kind ("PLAY_CARD"), text ("play card"),
    raw a..d, and its arguments by name (option.card, option.colour, option.target...)."""

    __slots__ = ("index",)

    def __init__(self, game, index, msg):
        self.index = index
        self.a, self.b, self.c, self.d = msg.a, msg.b, msg.c, msg.d
        k = game.options.get(msg.kind) if game else None
        self.kind = k["enum"] if k else msg.kind
        self.text = k["text"] if k else ""
        vals = {"a": msg.a, "b": msg.b, "c": msg.c, "d": msg.d}
        self._args = {n: game.value(t, v) for n, t, v in game.args(k, vals)} if k else {}

    def __repr__(self):
        return f"Option({self.index}, {self.kind}, {self._args})"


class Event(_Named):
    """One event the seat saw: kind ("EV_PLAY"), seat (who it is about, -1 for none),
    text, raw a..c, and its arguments by name (event.card, event.colour...)."""

    __slots__ = ("seat",)

    def __init__(self, game, msg):
        self.seat = msg.seat
        self.a, self.b, self.c, self.d = msg.a, msg.b, msg.c, NO_ARG
        k = game.events.get(msg.kind) if game else None
        self.kind = k["enum"] if k else msg.kind
        self.text = k["text"] if k else ""
        vals = {"a": msg.a, "b": msg.b, "c": msg.c}
        self._args = {n: game.value(t, v) for n, t, v in game.args(k, vals)} if k else {}

    def __repr__(self):
        return f"Event({self.kind}, seat={self.seat}, {self._args})"
