#!/usr/bin/env python3
"""The Go examples/firstbot in Python: an Ivanhoe player that names the colour it holds
most of, plays its strongest card until it leads the tournament, then ends its turn.

    go run ./cmd/arena match examples/python/firstbot.py random --games 20

arena_bot is the SDK's package: installed (docs/authors.md), or, in the repository,
the link examples/python/arena_bot to sdk/python/arena_bot beside this file.
"""
import arena_bot

IVANHOE = arena_bot.GAMES["ivanhoe"]


def total(display, colour):
    """A display's total: in a green tournament every card counts 1."""
    if colour == "green":
        return len(display)
    return sum(IVANHOE.cards[c].value or 0 for c in display)


def colour_count(view, colour):
    return sum(n for card, n in zip(IVANHOE.cards, view.hand) if card.colour == colour)


def choose(view, events, options):
    if not hasattr(view, "tokens_to_win"):  # not Ivanhoe: any legal option will do
        return 0
    colour = IVANHOE.colours[view.colour] if view.colour < len(IVANHOE.colours) else None
    mine = total(view.seats[view.seat].display, colour)
    leading = all(s == view.seat or not seat.in_tournament or total(seat.display, colour) < mine
                  for s, seat in enumerate(view.seats))
    best, best_value = 0, -1
    for o in options:
        value = -1
        if o.kind == "CHOOSE_COLOUR":
            value = colour_count(view, o.colour)
        elif o.kind == "PLAY_CARD" and not leading:
            value = 10 + o.card.value
        elif o.kind == "END_TURN":
            value = 5
        if value > best_value:
            best, best_value = o.index, value
    return best


arena_bot.serve(choose)
