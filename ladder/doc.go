// Package ladder keeps bots playing each other for good: it chooses tables, has the
// match runner play them in duplicate blocks (one deal in every seat rotation), records
// every game in a Store the moment it ends, and ranks the bots.
//
// A run can stop at any moment (Ctrl-C, kill -9, a crash): games already recorded stay,
// games in flight are lost, and the next run first finishes the blocks that were left
// incomplete, so every block ends up played in all its rotations and no game is
// recorded twice.
//
// Ratings come from package rating: a live Elo updated game by game in the order of
// recording, and the official Elo, a maximum-likelihood fit of every recorded game with
// a 95% interval from a bootstrap over blocks, anchored at the built-in random bot.
package ladder
