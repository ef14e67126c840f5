// Package ninjas is Of Knights and Ninjas, 2 to 6 players, as an engine.Game: every rule
// of the Spanish rulebook and of the project's rulings N1-N13
// (docs/rules/ninjas.md) as a pure, seeded decision machine.
//
// Start with New(seed, players), or NewWithDeck to play another composition of the 95
// cards than DefaultDeck (N1). Every choice a rule gives a player is a decision of that
// seat: on their turn the player attacks, fortifies or discards (N3-N6), one card at a
// time; the seat hit by an attack card responds or plays no response (N9), Traitor
// chains included; after gems move every other seat in turn may play a Highwayman (N10);
// a Jester is named when played (N11). Options are encoded as documented on OptionKind;
// option 0 is always the Fallback.
//
// Bounds: the game is adjudicated by gems after MaxTurns turns (N13). A turn is finite
// whatever the players do, since every decision but "no response", "let the gems go"
// and "stop" takes a card from a hand, cards come back to a hand during a turn only
// through a Princess, and gems move at most once a turn. MaxDecisions (registered with
// the arena) is MaxTurns times the most decisions a turn can hold (see decisionsPerTurn).
//
// # Choices where the rulebook and rulings are silent
//
// Each has a test named TestChoice_... (choices_test.go), or is a case of the ruling's
// test it refines.
//
//   - Every response decision (to any attack card but a Ladder or a Catapult, N8a) and
//     every seat of a Highwayman window is asked, even when the seat holds nothing it
//     could play (its only option then is to decline). Which seat decides thus depends
//     only on public facts, and a bot learns nothing about a hand from whom the engine
//     waits for.
//   - Archer, Ladder and Catapult are legal attack cards only while they have an effect:
//     an Archer against a standing Archer, a Catapult against a Castle, a Ladder against
//     a Castle without an Archer and only once a turn. They may follow other attack
//     cards of the turn; since no value card passes a Castle or an Archer, they still come
//     before any attack card that needs them ("at the start of an attack").
//   - Which response answers which attack card follows the cards' lists of enemies
//     (N8a, responses_test.go): value cards are answered by every response (a Princess
//     only a Knight), a Ninja only by an Executioner, a Dragon only by an Executioner or
//     a Princess. Ladder and Catapult cannot be answered, so they get no response
//     decision and act at once; the defender answers the card that follows them.
//     Responses take effect before the card does (the rulebook's Executioner against a
//     Dragon).
//   - The rulings name no list for an attacking Archer, so the response cards' wording
//     holds: a Minstrel or an Executioner answers it (the Executioner spares only Ladders
//     and Catapults); a Traitor has no attack value to turn, a value card none to meet.
//   - A Jester always plays alone, as one card: it does not join a revolt of Peasants.
//   - At most one Minstrel stands in a kingdom. A Minstrel is discarded at the start of
//     its owner's next turn, whichever way it came (fortify, or a response, including an
//     attacker's response to a card turned by a Traitor).
//   - A turned card hits past every fortification of the kingdom it turns on; a Traitor
//     on a Traitor turns it back, again past the fortifications. A Princess played by the
//     attacker on a turned Knight takes it back into the attacker's hand, and the
//     attacker may go on; an Executioner or a Minstrel played by the attacker ends the
//     attacker's own turn.
//   - A Ninja kills a standing Archer, and a Dragon burns a Castle, even when no gem moves
//     (the defender has none); an attacked kingdom may hold no gems at all.
//   - The Highwayman window starts at the attacker's left and goes round the table
//     skipping the seat holding the gems, the robbed seat included; after a Highwayman it
//     restarts at the new holder's left. Gems count as held by the current holder during
//     the window; the win (N12) is checked once the window closes.
//   - A player who attacked or fortified does not also discard (N6); a player with an
//     empty hand on their turn can only end it. Attacking, fortifying and stopping are
//     never forced.
//   - The deal gives two cards to each seat starting with the first player; a draw from
//     an empty pile shuffles the discards into a new pile first, and draws fewer cards if
//     both are empty.
//   - The decision bound, never reached in practice, adjudicates exactly as N13 does.
package ninjas
