#!/usr/bin/env python3
"""A random bot in every game: the SDK's smallest example."""
import random

import arena_bot


def choose(view, events, options):
    return random.choice(options)  # an Option, or its .index


arena_bot.serve(choose)
