package kardinal

import (
	"strings"

	"github.com/arena-games/arena/engine"
)

// OptionBoard is the name of the option that plays on another board: its text is a
// board file (the format is in the package doc).
const OptionBoard = "board"

// OptionSpecs are the options the game takes.
func OptionSpecs() []engine.OptionSpec {
	return []engine.OptionSpec{{Name: OptionBoard, Usage: "a board file to play on instead of the default board"}}
}

// BoardOf is the board that options name: the default board without a board option.
func BoardOf(opts engine.Options) (*Board, error) {
	text, ok := opts[OptionBoard]
	if !ok {
		return DefaultBoard(), nil
	}
	return LoadBoard(strings.NewReader(text))
}

// PrepareOptions loads the board once for every game started with these options.
func PrepareOptions(opts engine.Options) (engine.Starter, error) {
	b, err := BoardOf(opts)
	if err != nil {
		return nil, err
	}
	return func(seed uint64, players int) (engine.Game, error) {
		g, err := NewOnBoard(b, seed, players)
		if err != nil {
			return nil, err
		}
		return g, nil
	}, nil
}
