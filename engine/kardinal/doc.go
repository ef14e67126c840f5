// Package kardinal is the rules engine of Michael Schacht's Kardinal und König for 3 to 5
// players, as a decision machine meeting engine.Game. The rules and the project's
// rulings K1..K14 are in docs/rules/kardinal.md; tests are named after the rulings.
//
// Start a game with New (the default board) or NewOnBoard:
//
//	g, err := kardinal.New(seed, 4)
//	for !g.Terminal() {
//		_ = g.Apply(pick(g.Options()))
//	}
//
// # Decisions
//
// A turn is a short sequence of decisions of the seat on turn (options.go has the
// encoding): a first placement (a country, a piece, for a monastery the space, and the
// payment: one card naming the country or a joker of two cards of one kind); then,
// when the country had pieces before the turn (K3), a second placement in the same
// country or Stop; then one Take per missing card until the hand holds three again
// (K6). Instead of placing, the seat may Exchange one card (K7), one decision. The
// advisor cap (K4) is checked piece by piece, so "a monastery, then an advisor for the
// place it opens" is legal in that order.
//
// # The board file
//
// The board is data (boards/default.txt, embedded), read by LoadBoard. The format,
// version 1, is line based; "#" starts a comment, blank lines are ignored:
//
//	kardinal-board 1                  the header, first: format and version
//	name TEXT                         the board's name (optional)
//	space N COUNTRY                   monastery space number N (1..N without gaps) in a country
//	road N M                          a road between spaces N and M (both ways, once)
//	alliance K COUNTRY COUNTRY        alliance border number K (1..K: the scoring order)
//	scoring COUNTRY x9                the monastery scoring order, all nine countries once
//
// Countries are the nine of the cards (Frankreich, Aragon, England, Burgund,
// Lothringen, Schwaben, Franken, Bayern, Italien). LoadBoard rejects, naming the line:
// a missing header or another version, unknown directives and countries, duplicate or
// missing space numbers, a country without spaces, a road to a space that does not
// exist, to itself or twice, more than MaxRoads roads at a space, an alliance of a
// country with itself or repeated, duplicate or missing alliance numbers, and a
// scoring line that does not name every country once. Roads and alliances are
// independent: the rulebook puts alliance spaces on land and sea borders, so an
// alliance may join countries no road joins (a sea border), and a road may cross a
// border without an alliance. The default board is a reconstruction (its header says
// so): 53 spaces with the counts of the rulings page, the fifteen alliances in the
// rulings' order, every space with 2 to 4 roads, every road inside a country or across
// an alliance border, and a road across every alliance border.
//
// # Where the rules are silent
//
//   - Cards of one kind are identical, so hands and piles are counts per kind; which
//     copies leave the box with 3 or 4 players (K1) makes no difference.
//   - Played and exchanged cards go face up to the discard pile; its contents are
//     public (View.Discard).
//   - A joker may be paid with two cards of the kind that names the country anyway;
//     it is legal (Pedro's option b) if wasteful, so it is listed.
//   - The turn's card budget is 3 (K2); it only matters if a hand ever held more.
//   - When the pile has run out for good, a seat refills only from the face-up pair
//     and may end a turn with fewer than three cards. A seat that can neither place
//     nor exchange (no card, or nothing to take) has a single option, Pass.
//   - K8: interim scoring happens the moment the last card is taken, whether into a
//     hand or onto the face-up pair; if the discard pile is empty then, the pile has
//     run out for good and the last round begins (K10).
//   - K10 "no player can place any piece" is read from the board and the supplies,
//     not the hands: checked after each turn, it holds when no seat has a monastery
//     for a free space nor an advisor for a country below its cap.
//   - K11: a country without advisors has no leader, so an alliance needs advisors on
//     both sides.
//   - K12: each group of a seat's road-joined monasteries scores at most one chain,
//     its longest simple path.
//   - K14: at the bound the game ends with the score as it stands (no final scoring),
//     ranked by K13.
//
// # Fallback
//
// A forfeited seat places nothing: on its turn it exchanges its lowest card kind for
// the top of the pile (a face-up card if the pile is empty, Pass if nothing can be
// exchanged); after a first piece it stops; when refilling it draws from the pile.
//
// # Events
//
// Drawing from the pile is public as an event (EvDraw, EvDeal) and private as a card
// (EvDrawCard, seen only by the drawer); everything else (placements, face-up cards,
// takes, discards, scoring) is public.
package kardinal
