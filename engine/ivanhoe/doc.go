// Package ivanhoe is Reiner Knizia's Ivanhoe (GMT, 2000) for 2 to 5 players, as a pure
// decision machine meeting engine.Game.
//
// The English rulebook is the reference and docs/rules/ivanhoe.md fixes every point
// it leaves open; rule numbers R1..R28 below and in the tests are that page's. Start a
// game with New(seed, players) and drive it with Options and Apply.
//
// Every choice a rule gives a player is a decision of that seat: the tournament colour
// (R6), each card played, ending the turn (legal only as R3 allows) or withdrawing (R4),
// the Ivanhoe card against a pending action (R23, asked of every other player still in
// the tournament, holder or not: R23a), each Adapt
// keep (R21), the token given back after withdrawing with a maiden (R25) and the token
// chosen after a purple win (R24). A decision is asked even when it has one option, so
// that every rule-given choice shows up the same way to bots and in replays.
//
// Cards of one kind are interchangeable, so hands and piles are counts per kind and
// options name kinds: a hand of three green 1s offers "play green 1" once.
//
// Choices the rulings leave to the engine, and what it does:
//   - The dealer (R1) is drawn with the seed; the draw pile is reshuffled from the discard
//     pile at the moment a draw finds it empty (R2).
//   - A starter's first decision offers only cards of the chosen colour and supporters
//     (R8): no action card and no withdrawing before the first card.
//   - Action cards are listed only where they change the state (R12). Dodge, Retreat and
//     Outwit list display positions, but two positions holding the same kind next to each
//     other give the same result and are listed once. An Outwit of two equal cards is
//     listed only if it reorders a display (a run of equal cards reaching both tops would
//     come back as it was).
//   - Outwit needs an unshielded opponent (R22 with R13), so an opponent's Shield can
//     never be taken by it; one's own Shield can be given away.
//   - A starter who cannot name a colour reveals the hand (R7); the rotation goes on until
//     someone can, which the deck guarantees. As a guard against a broken invariant the
//     game is adjudicated if 1,000 starters in a row cannot start.
//   - The fallback for a forfeited seat withdraws when it may and otherwise takes the first
//     option (the first playable card, letting actions stand, the first Adapt keep, the
//     first colour or token).
//   - The bound (R27) is 20,000 decisions; the result (R28) ranks the game winner first,
//     then everyone by tokens held, ties sharing a place.
package ivanhoe
