// Package arena runs matches between bot processes: it starts each bot once per seat
// per run and reuses it (a process never meets one deal twice), seats the bots in every rotation of every deal (duplicate format),
// keeps the clocks, turns misbehaviour into typed endings and forfeits (a bot that does
// not even start included), disqualifies a bot that forfeits too often, confines every
// bot process (Config.Sandbox, recorded in the report and every replay), writes a
// replay per match and sums up the run in a Report.
//
//	rep, err := arena.Run(ctx, arena.Config{Game: "ivanhoe", Entrants: bots, Launcher: protocol.Launcher{}, Games: 100})
//
// Scores. A seat's score in one game is the fraction of its opponents it finished ahead
// of, ties counting half: in a two-player game 1 for a win, 0.5 for a draw, 0 for a
// loss; in a four-player game the winner scores 1, the second 2/3, and so on. A seat
// that forfeits (timeout, crash, illegal choice, protocol error) is placed after every
// seat that did not, whatever the game's own result. A bot's Elo difference is the one
// its mean score implies against the rest of the field, with a 95% confidence interval
// from the spread of its per-deal scores (see arena/stats); LOS counts each opponent
// finished ahead of as a win and each opponent finished behind as a loss.
package arena
