package gamedoc

import "encoding/json"

// Marshal writes a description as the committed file is written: indented JSON with a
// final newline.
func Marshal(d *Description) ([]byte, error) {
	b, err := json.MarshalIndent(d, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
