"""arena_bot: write a bot for the arena in Python.

    import arena_bot

    def choose(view, events, options):
        return 0  # the index of an option

    arena_bot.serve(choose)

See README.md beside this package.
"""

from .games import GAMES, JESTER_FLAG, NO_ARG, Card, Event, Game, Option
from .server import (APP_PROTOCOL_VERSION, COOKIE_KEY, COOKIE_VALUE, DEFAULT_THREADS, Bot, BotService,
                     Match, Outcome, serve, serve_factory)

__all__ = ["GAMES", "JESTER_FLAG", "NO_ARG", "Card", "Event", "Game", "Option", "APP_PROTOCOL_VERSION",
           "COOKIE_KEY", "COOKIE_VALUE", "DEFAULT_THREADS", "Bot", "BotService", "Match", "Outcome",
           "serve", "serve_factory"]
