package arena

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/arena-games/arena/engine"
)

// appendDecision appends a decision's record exactly as an encoding/json Encoder
// writes Record{Type: "decision", N: n, Seat: seat, Choice: choice, Option:
// optionJSON(o), Text: text, Micros: micros, Forfeit: forfeit}, its newline included,
// without the reflection: the record is built on the runner's path between a bot's
// answer and the next question, and a game has tens to hundreds of them.
// TestReplayRecordsAreEncodingJSONs and FuzzDecisionRecord hold it to encoding/json.
func appendDecision(b []byte, n, seat, choice int, o engine.Option, text string, micros int64, forfeit bool) []byte {
	b = append(b, `{"type":"decision"`...)
	if n != 0 {
		b = strconv.AppendInt(append(b, `,"n":`...), int64(n), 10)
	}
	b = strconv.AppendInt(append(b, `,"seat":`...), int64(seat), 10)
	if choice != 0 {
		b = strconv.AppendInt(append(b, `,"choice":`...), int64(choice), 10)
	}
	b = strconv.AppendUint(append(b, `,"option":{"kind":`...), uint64(o.Kind), 10)
	b = strconv.AppendInt(append(b, `,"A":`...), int64(o.A), 10)
	b = strconv.AppendInt(append(b, `,"B":`...), int64(o.B), 10)
	b = strconv.AppendInt(append(b, `,"C":`...), int64(o.C), 10)
	b = strconv.AppendInt(append(b, `,"D":`...), int64(o.D), 10)
	b = append(b, '}')
	if text != "" {
		b = appendJSONString(append(b, `,"text":`...), text)
	}
	if micros != 0 {
		b = strconv.AppendInt(append(b, `,"us":`...), micros, 10)
	}
	if forfeit {
		b = append(b, `,"forfeit":true`...)
	}
	return append(b, "}\n"...)
}

// appendJSONString appends s as a JSON string, as encoding/json quotes it. The words
// of options are plain text and are copied as they are; a string with anything
// encoding/json escapes (a quote, a backslash, a control character, <, > or &,
// U+2028, U+2029, bytes that are not UTF-8) is left to encoding/json itself.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return appendMarshalled(b, s)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return appendMarshalled(b, s)
		}
		i += size
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendMarshalled appends s quoted by encoding/json (which never fails on a string).
func appendMarshalled(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}
