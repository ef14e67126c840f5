package arena

import (
	"encoding/json"
	"fmt"
)

// Ending is how a seat's match ended.
type Ending uint8

// The endings. Every ending but OK forfeits the seat: the game's Fallback plays its
// remaining decisions and it is placed last.
const (
	OK       Ending = iota
	Timeout         // no answer before the decision deadline or with the bank spent
	Crash           // the bot process died
	Illegal         // the answer was not an index of the legal options
	Protocol        // the bot broke the protocol (an error status, a reply to another question)
	numEndings
)

var endingNames = [numEndings]string{"ok", "timeout", "crash", "illegal", "protocol"}

func (e Ending) String() string {
	if e < numEndings {
		return endingNames[e]
	}
	return fmt.Sprintf("ending(%d)", uint8(e))
}

// MarshalText writes the ending's name.
func (e Ending) MarshalText() ([]byte, error) { return []byte(e.String()), nil }

// UnmarshalText reads an ending's name.
func (e *Ending) UnmarshalText(b []byte) error {
	for i, n := range endingNames {
		if n == string(b) {
			*e = Ending(i)
			return nil
		}
	}
	return fmt.Errorf("unknown ending %q", b)
}

// wire is the ending's number in the protocol's Ending (the same order).
func (e Ending) wire() int { return int(e) }

var _ json.Marshaler = (*jsonFloat)(nil)

// jsonFloat is a float that writes infinities and NaN as null, which JSON lacks.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if x != x || x > 1e308 || x < -1e308 {
		return []byte("null"), nil
	}
	return json.Marshal(x)
}
