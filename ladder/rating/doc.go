// Package rating turns recorded ladder results into ratings: a live Elo that moves
// after every game, an official Elo fitted by maximum likelihood over every recorded
// game with bootstrap intervals, and the sequential test (SPRT) and summary figures of
// a head-to-head match scored in blocks.
//
// It is the project's own code: no Go library that we keep depending on does
// Bradley-Terry fitting with block bootstrap or fishtest's generalized SPRT.
//
// Every rating is on the Elo scale: a difference d means an expected score of
// 1/(1+10^(-d/400)) for the stronger side. A game of n players is read as its n(n-1)/2
// pairwise outcomes (finishing ahead counts a win, a shared place half a win each), each
// weighted 1/(n-1) so that every player's game weighs the same at any table size.
//
// Start with Results for the official fit:
//
//	res := rating.NewResults(len(bots))
//	res.Add(blockID, seats, places) // once per recorded game
//	ratings, err := res.Fit(rating.Options{Prior: rating.DefaultPrior, Anchor: randomIdx, Resamples: 200})
//
// Live for the running Elo, and Pentanomial / SPRT for head-to-head tests.
package rating
