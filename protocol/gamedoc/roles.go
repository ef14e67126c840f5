package gamedoc

// roleEntry is one kind's arguments, in kind order (kind 1 first). text is used where
// the engine has no words for the kind (events).
type roleEntry struct {
	text   string
	args   []Arg
	caseOf string
	cases  []Case
}

var ivanhoeOptions = []roleEntry{
	{args: args("a", "colour", "colour")}, // ChooseColour
	{args: args("a", "card", "card")},     // PlayCard
	{args: args("a", "card", "card"), caseOf: "card", cases: []Case{ // PlayAction
		{When: []string{"UNHORSE", "CHANGE_WEAPON", "DROP_WEAPON"}, Args: args("a", "card", "card", "c", "colour", "colour")},
		{When: []string{"BREAK_LANCE", "RIPOSTE", "KNOCK_DOWN", "STUNNED"}, Args: args("a", "card", "card", "b", "target", "seat")},
		{When: []string{"DODGE"}, Args: args("a", "card", "card", "b", "target", "seat", "c", "position", "position")},
		{When: []string{"RETREAT"}, Args: args("a", "card", "card", "c", "position", "position")},
		{When: []string{"OUTWIT"}, Args: args("a", "card", "card", "b", "target", "seat", "c", "give", "face", "d", "take", "face")},
	}},
	{}, // EndTurn
	{}, // Withdraw
	{}, // CancelAction
	{}, // LetStand
	{args: args("a", "position", "position")}, // KeepCard
	{args: args("a", "colour", "colour")},     // GiveBack
	{args: args("a", "colour", "colour")},     // TakeToken
}

var ivanhoeEvents = []roleEntry{
	{text: "dealt cards", args: args("a", "count", "count")},
	{text: "drew a card"},
	{text: "drew this card", args: args("a", "card", "card")},
	{text: "discard pile reshuffled", args: args("a", "count", "count")},
	{text: "starts the tournament", args: args("a", "tournament", "number")},
	{text: "cannot start, shows a card", args: args("a", "card", "card", "b", "count", "count")},
	{text: "chose the colour", args: args("a", "colour", "colour")},
	{text: "played into the display", args: args("a", "card", "card")},
	{text: "played an action", args: args("a", "card", "card", "b", "target", "seat_or_none")},
	{text: "cancelled with Ivanhoe", args: args("a", "card", "card")},
	{text: "tournament colour changed", args: args("a", "colour", "colour")},
	{text: "card left the display", args: args("a", "card", "card")},
	{text: "card moved to another display", args: args("a", "card", "card", "b", "to", "seat")},
	{text: "card went back to hand", args: args("a", "card", "card")},
	{text: "took a card from a hand", args: args("b", "source", "seat")},
	{text: "took this card from a hand", args: args("a", "card", "card", "b", "source", "seat")},
	{text: "swapped face-up cards", args: args("a", "given", "card", "b", "taken", "card", "c", "rival", "seat")},
	{text: "kept a card", args: args("a", "card", "card")},
	{text: "ended the turn", args: args("a", "total", "number")},
	{text: "withdrew"},
	{text: "gave back a token", args: args("a", "colour", "colour")},
	{text: "won the tournament", args: args("a", "colour", "colour")},
	{text: "took a token", args: args("a", "colour", "colour")},
	{text: "won, token already held", args: args("a", "colour", "colour")},
	{text: "won the game"},
	{text: "adjudicated"},
}

var kardinalOptions = []roleEntry{
	{args: args("a", "country", "country", "b", "space", "space", "c", "card", "card", "d", "joker", "flag")}, // Place
	{},                                  // Stop
	{args: args("a", "source", "from")}, // Take
	{args: args("a", "card", "card", "b", "source", "from")}, // Exchange
	{}, // Pass
}

var kardinalEvents = []roleEntry{
	{text: "starts; cards of each kind removed", args: args("a", "removed", "count")},
	{text: "dealt a card"},
	{text: "drew from the pile"},
	{text: "got this card from the pile", args: args("a", "card", "card")},
	{text: "card turned face up", args: args("a", "card", "card")},
	{text: "placed a piece", args: args("a", "country", "country", "b", "space", "space", "c", "paid", "pay")},
	{text: "took the face-up card", args: args("a", "card", "card")},
	{text: "discarded to exchange", args: args("a", "card", "card")},
	{text: "passed"},
	{text: "interim scoring"},
	{text: "scored a country", args: args("a", "points", "number", "b", "country", "country")},
	{text: "discard pile reshuffled", args: args("a", "count", "count")},
	{text: "last round"},
	{text: "scored an alliance", args: args("a", "points", "number", "b", "alliance", "alliance")},
	{text: "scored a chain", args: args("a", "points", "number")},
	{text: "game over", args: args("a", "blocked", "flag")},
	{text: "adjudicated"},
}

var ninjasOptions = []roleEntry{
	{args: args("a", "card", "card", "b", "target", "seat", "c", "count", "count", "d", "jester", "flag")}, // PlayAttack
	{args: args("a", "card", "card", "d", "jester", "flag")},                                               // PlayFortify
	{args: args("a", "card", "card")},                                                                      // DiscardCard
	{},                                                                                                     // StopTurn
	{args: args("a", "card", "card", "c", "count", "count", "d", "jester", "flag")}, // PlayResponse
	{}, // NoResponse
	{args: args("a", "card", "card", "c", "count", "count", "d", "jester", "flag")}, // PlayHighwayman
	{}, // LetGemsGo
}

var ninjasEvents = []roleEntry{
	{text: "takes the first turn"},
	{text: "turn begins", args: args("a", "turn", "number")},
	{text: "drew cards", args: args("a", "count", "count")},
	{text: "drew this card", args: args("a", "card", "card")},
	{text: "discard pile reshuffled", args: args("a", "count", "count")},
	{text: "standing Minstrel leaves", args: args("a", "card", "card")},
	{text: "attacks", args: args("a", "card", "card", "b", "target", "seat", "c", "count", "count_jester")},
	{text: "fortifies", args: args("a", "card", "card", "c", "jester", "jester")},
	{text: "discards", args: args("a", "card", "card")},
	{text: "ends the turn"},
	{text: "responds", args: args("a", "card", "card", "c", "count", "count_jester")},
	{text: "does not respond"},
	{text: "Traitor: the attack now hits", args: args("a", "card", "card", "b", "target", "seat")},
	{text: "Princess takes the attacking card", args: args("a", "card", "card", "c", "jester", "jester")},
	{text: "attacking card executed", args: args("a", "card", "card")},
	{text: "fortification destroyed", args: args("a", "card", "card", "b", "slot", "slot")},
	{text: "Ladder stands", args: args("b", "against", "seat")},
	{text: "receives gems", args: args("a", "gems", "number", "b", "source", "seat")},
	{text: "no gems move", args: args("a", "card", "card")},
	{text: "Highwayman takes the gems", args: args("a", "gems", "number", "b", "source", "seat", "c", "jester", "jester")},
	{text: "plays no Highwayman"},
	{text: "turn ends"},
	{text: "wins", args: args("a", "gems", "number")},
	{text: "adjudicated"},
}
