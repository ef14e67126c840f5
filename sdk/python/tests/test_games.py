import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import arena_bot  # noqa: E402
from arena_bot.pb import bot_pb2  # noqa: E402


def opt(kind, a=-1, b=-1, c=-1, d=-1):
    return bot_pb2.Option(kind=kind, a=a, b=b, c=c, d=d)


class OptionMeaning(unittest.TestCase):
    def setUp(self):
        self.iv = arena_bot.GAMES["ivanhoe"]
        self.kd = arena_bot.GAMES["kardinal"]
        self.nj = arena_bot.GAMES["ninjas"]

    def test_ivanhoe_play_card_names_the_card(self):
        red3 = self.iv.card("RED_3")
        o = arena_bot.Option(self.iv, 4, opt(2, a=red3.index))
        self.assertEqual((o.index, o.kind, o.text), (4, "PLAY_CARD", "play card"))
        self.assertEqual(o.card.name, "red 3")
        self.assertEqual((o.card.colour, o.card.value, o.card.count), ("red", 3, 6))

    def test_ivanhoe_action_arguments_depend_on_the_card(self):
        dodge = self.iv.card("DODGE").index
        o = arena_bot.Option(self.iv, 0, opt(3, a=dodge, b=1, c=2))
        self.assertEqual((o.card.enum, o.target, o.position), ("DODGE", 1, 2))
        unhorse = self.iv.card("UNHORSE").index
        o = arena_bot.Option(self.iv, 0, opt(3, a=unhorse, c=1))
        self.assertEqual(o.colour, "red")
        with self.assertRaises(AttributeError):
            o.target

    def test_kardinal_place_and_board(self):
        o = arena_bot.Option(self.kd, 0, opt(1, a=2, b=-1, c=3, d=1))
        self.assertEqual((o.kind, o.country, o.space, o.card.enum, o.joker),
                         ("KARDINAL_PLACE", "England", None, "KARDINAL_ORANGE", True))
        board = self.kd.board
        self.assertGreater(len(board["spaces"]), 0)
        for s in board["spaces"]:
            self.assertIn(s["country"], self.kd.countries)
            for r in s["roads"]:
                self.assertIn(s["index"], board["spaces"][r]["roads"], "roads go both ways")

    def test_kardinal_take_from_pile(self):
        o = arena_bot.Option(self.kd, 0, opt(3, a=-1))
        self.assertIsNone(o.source)

    def test_ninjas_attack_and_events(self):
        knight = self.nj.card("NINJAS_KNIGHT").index
        o = arena_bot.Option(self.nj, 0, opt(1, a=knight, b=2, c=1, d=0))
        self.assertEqual((o.card.name, o.target, o.count, o.jester), ("Knight", 2, 1, False))
        e = arena_bot.Event(self.nj, bot_pb2.Event(kind=7, seat=0, a=knight, b=1, c=1 | 256))
        self.assertEqual((e.kind, e.card.name, e.target, e.count), ("NINJAS_EV_ATTACK", "Knight", 1, 1))

    def test_card_tables_are_complete(self):
        self.assertEqual(sum(c.count for c in self.iv.cards), 110)
        self.assertEqual(sum(c.count for c in self.nj.cards), 95)
        self.assertEqual(len(self.kd.countries), 9)

    def test_unknown_kind_keeps_raw_numbers(self):
        o = arena_bot.Option(self.iv, 0, opt(99, a=5))
        self.assertEqual((o.kind, o.a), (99, 5))


if __name__ == "__main__":
    unittest.main()
