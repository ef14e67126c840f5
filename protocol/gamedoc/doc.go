// Package gamedoc is the meaning of each game's options and events for bots in any
// language: which argument (A..D) of an option or event holds a card, a colour, a seat or
// a position, the names of every kind, the card tables and the Kardinal board. It is
// written as JSON (protocol/games.json, and the Python SDK's copy) from the engines' own
// tables: names come from the engines' String methods, cards and the board from their
// exported data. The argument roles are tables of this package, checked against the
// engines by playing seeded games (every listed option uses exactly its declared
// arguments, each within its domain) and against the wire's enums; the tests also fail
// when the committed JSON differs from what Build writes.
//
// The wire keeps one generic Option and Event message (kind and four integers) rather
// than typed messages per game: the hot path stays one small message, the Go SDK decodes
// straight into engine.Option, and a new option kind changes one table here and no
// .proto. Regenerate the JSON with `go test ./protocol/gamedoc -update`.
package gamedoc
