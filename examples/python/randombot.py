#!/usr/bin/env python3
"""A random bot in every game: the SDK's smallest example."""
import os, random, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "../../sdk/python"))
import arena_bot


def choose(view, events, options):
    return random.choice(options)  # an Option, or its .index


arena_bot.serve(choose)
