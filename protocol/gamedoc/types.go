package gamedoc

// Description is the whole file: every game, and the argument types they use.
type Description struct {
	Version int     `json:"version"`
	NoArg   int     `json:"no_arg"`
	Types   []Type  `json:"types"`
	Games   []*Game `json:"games"`
}

// Type is an argument type: what its integer means.
type Type struct {
	Name    string `json:"name"`
	Meaning string `json:"meaning"`
}

// Game is one game's meaning.
type Game struct {
	Name       string `json:"name"`
	MinPlayers int    `json:"min_players"`
	MaxPlayers int    `json:"max_players"`
	// OptionEnum and EventEnum name the .proto enums of Option.kind and Event.kind.
	OptionEnum string  `json:"option_enum"`
	EventEnum  string  `json:"event_enum"`
	Options    []Kind  `json:"options"`
	Events     []Kind  `json:"events"`
	Cards      []Card  `json:"cards"`
	Colours    []Named `json:"colours,omitempty"`
	Countries  []Named `json:"countries,omitempty"`
	Slots      []Named `json:"slots,omitempty"`
	Board      *Board  `json:"board,omitempty"`
}

// Kind is one option or event kind: its number, its .proto enum name, the engine's words
// for it, and its arguments. Cases, when present, replace Args for particular values of
// the argument named by CaseOf (Ivanhoe's action cards use their arguments differently).
type Kind struct {
	Kind   int    `json:"kind"`
	Enum   string `json:"enum"`
	Text   string `json:"text"`
	Args   []Arg  `json:"args"`
	CaseOf string `json:"case_of,omitempty"`
	Cases  []Case `json:"cases,omitempty"`
}

// Arg is one argument: its field (a, b, c, d), the name an SDK gives it and its type.
type Arg struct {
	Field string `json:"field"`
	Name  string `json:"name"`
	Type  string `json:"type"`
}

// Case is the arguments of a kind when the CaseOf argument has one of the listed
// values (card enum names).
type Case struct {
	When []string `json:"when"`
	Args []Arg    `json:"args"`
}

// Named is an entry of a small table: its index, its .proto enum name and its name.
type Named struct {
	Index int    `json:"index"`
	Enum  string `json:"enum"`
	Name  string `json:"name"`
}

// Card is one kind of card.
type Card struct {
	Index int    `json:"index"`
	Enum  string `json:"enum"`
	Name  string `json:"name"`
	Count int    `json:"count"`
	// Ivanhoe: the colour (absent for supporters and actions) and printed value; group
	// is "colour", "supporter" or "action".
	Colour string `json:"colour,omitempty"`
	Value  *int   `json:"value,omitempty"`
	Group  string `json:"group,omitempty"`
	// Kardinal: the countries a card names.
	Countries []string `json:"countries,omitempty"`
}

// Board is a Kardinal board: spaces are 0-based as options and views number them.
type Board struct {
	Name      string     `json:"name"`
	Spaces    []Space    `json:"spaces"`
	Alliances []Alliance `json:"alliances"`
	// ScoringOrder lists countries in the order their monasteries are scored (K9).
	ScoringOrder []string `json:"scoring_order"`
}

// Space is one monastery space.
type Space struct {
	Index   int    `json:"index"`
	Country string `json:"country"`
	Roads   []int  `json:"roads"`
}

// Alliance is one alliance border.
type Alliance struct {
	Number    int      `json:"number"`
	Countries []string `json:"countries"`
}

// argTypes are the argument types, in the order the file lists them.
var argTypes = []Type{
	{"seat", "a seat, 0 to players-1"},
	{"seat_or_none", "a seat, or -1 for none"},
	{"card", "a kind of card: an index into the game's cards"},
	{"colour", "an index into the game's colours"},
	{"country", "an index into the game's countries"},
	{"space", "a board space (0-based index into board.spaces), or -1 for an advisor"},
	{"from", "a face-up card's kind (index into cards), or -1 for the draw pile"},
	{"flag", "0 or 1"},
	{"position", "a position in a display, 0 for the earliest card played"},
	{"face", "a display position, or -2 for the Shield or -3 for the Stunned card beside the display"},
	{"count", "a number of cards"},
	{"number", "a number (a total, points, gems, a turn)"},
	{"pay", "the cards paid: card kind * 2, plus 1 for a joker (two cards of that kind)"},
	{"count_jester", "a number of cards, plus 256 when the card was a Jester"},
	{"jester", "0, or 256 when the card was a Jester"},
	{"slot", "a fortification slot: an index into the game's slots"},
	{"alliance", "an alliance number, from 1 (board.alliances)"},
}

func args(fieldNameType ...string) []Arg {
	var out []Arg
	for i := 0; i+2 < len(fieldNameType); i += 3 {
		out = append(out, Arg{Field: fieldNameType[i], Name: fieldNameType[i+1], Type: fieldNameType[i+2]})
	}
	return out
}
