"""arena_bot: write a bot for the arena in Python.

    import arena_bot

    def choose(view, events, options):
        return 0  # the index of an option

    arena_bot.serve(choose)

See README.md beside this package.
"""

from . import blame
from .games import GAMES, JESTER_FLAG, NO_ARG, Card, Event, Game, Option
from .server import (APP_PROTOCOL_VERSION, COOKIE_KEY, COOKIE_VALUE, DEFAULT_THREADS, Bot, BotService,
                     Match, Outcome, serve, serve_factory)

__all__ = ["GAMES", "JESTER_FLAG", "NO_ARG", "Card", "Event", "Game", "Option", "APP_PROTOCOL_VERSION",
           "COOKIE_KEY", "COOKIE_VALUE", "DEFAULT_THREADS", "Bot", "BotService", "Match", "Outcome",
           "serve", "serve_factory"]

# A bot that fails at its top level, before it serves, dies with a last line on stderr
# (the line the arena quotes) that names the author's file and line.
blame.install()
