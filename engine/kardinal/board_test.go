package kardinal

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultBoardFollowsTheReconstruction(t *testing.T) {
	b := DefaultBoard()
	assert.Contains(t, defaultBoardText, "RECONSTRUCTION", "the file says what it is")
	assert.Equal(t, 53, b.Spaces())
	want := map[Country]int{Frankreich: 8, Schwaben: 4, Aragon: 6, England: 5, Burgund: 6,
		Lothringen: 5, Franken: 6, Bayern: 6, Italien: 7}
	for c, n := range want {
		assert.Len(t, b.SpacesOf(c), n, "%s", c)
	}
	alliances := []Alliance{{1, England, Frankreich}, {2, England, Lothringen}, {3, Frankreich, Lothringen},
		{4, Frankreich, Burgund}, {5, Frankreich, Aragon}, {6, Aragon, Burgund}, {7, Aragon, Italien},
		{8, Lothringen, Franken}, {9, Lothringen, Schwaben}, {10, Lothringen, Burgund}, {11, Burgund, Schwaben},
		{12, Schwaben, Franken}, {13, Franken, Bayern}, {14, Italien, Burgund}, {15, Italien, Bayern}}
	assert.Equal(t, alliances, b.Alliances())
	assert.Equal(t, [NumCountries]Country{England, Franken, Bayern, Italien, Aragon, Frankreich, Lothringen, Schwaben, Burgund}, b.ScoringOrder())
	// Every space has 2 to 4 roads; roads stay in a country or cross an alliance border.
	for s := 0; s < b.Spaces(); s++ {
		assert.True(t, len(b.Roads(s)) >= 2 && len(b.Roads(s)) <= 4, "space %d has %d roads", s+1, len(b.Roads(s)))
		for _, z := range b.Roads(s) {
			cs, cz := b.CountryOf(s), b.CountryOf(int(z))
			assert.True(t, cs == cz || b.Allied(cs, cz), "road %d-%d", s+1, z+1)
			assert.Contains(t, b.Roads(int(z)), uint8(s), "roads go both ways")
		}
	}
	// A property of this board, not a rule: a road crosses every alliance border.
	for _, al := range b.Alliances() {
		crossed := false
		for _, sp := range b.SpacesOf(al.A) {
			for _, z := range b.Roads(int(sp)) {
				crossed = crossed || b.CountryOf(int(z)) == al.B
			}
		}
		assert.True(t, crossed, "alliance %d has a road", al.Number)
	}
	// Connected.
	seen := map[int]bool{0: true}
	queue := []int{0}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, z := range b.Roads(s) {
			if !seen[int(z)] {
				seen[int(z)] = true
				queue = append(queue, int(z))
			}
		}
	}
	assert.Len(t, seen, 53, "the road graph is connected")
	out := b.String()
	for _, s := range []string{"reconstruction", "Frankreich", "14 Italien-Burgund", "15 Italien-Bayern", "53 Italien"} {
		assert.Contains(t, out, s)
	}
}

// edit returns the default board text with line n (1-based) replaced by repl, or with
// repl appended when n is 0.
func edit(n int, repl string) string {
	lines := strings.Split(strings.TrimRight(defaultBoardText, "\n"), "\n")
	if n == 0 {
		return strings.Join(append(lines, repl), "\n") + "\n"
	}
	lines[n-1] = repl
	return strings.Join(lines, "\n") + "\n"
}

// lineOf is the 1-based line of the default board text that equals s.
func lineOf(t *testing.T, s string) int {
	for i, l := range strings.Split(defaultBoardText, "\n") {
		if l == s {
			return i + 1
		}
	}
	require.Failf(t, "no such line", "%q", s)
	return 0
}

func TestLoadBoardRejectsBadFiles(t *testing.T) {
	last := strings.Count(strings.TrimRight(defaultBoardText, "\n"), "\n") + 2 // an appended line
	header := lineOf(t, "kardinal-board 1")
	for _, tc := range []struct {
		name, text, want string
	}{
		{"bad version", edit(header, "kardinal-board 2"), fmt.Sprintf("board line %d: bad version \"2\"", header)},
		{"missing header", edit(header, "name x"), fmt.Sprintf("board line %d: missing header", header)},
		{"empty file", "# nothing\n", "empty file"},
		{"unknown directive", edit(0, "castle 3 Bayern"), fmt.Sprintf("board line %d: unknown directive \"castle\"", last)},
		{"unknown country", edit(lineOf(t, "space 53 Italien"), "space 53 Portugal"), "unknown country \"Portugal\""},
		{"duplicate space number", edit(0, "space 12 Bayern"), fmt.Sprintf("board line %d: duplicate space number 12 (first on line %d)", last, lineOf(t, "space 12 Frankreich"))},
		{"gap in space numbers", edit(0, "space 55 Bayern"), "space 54 is missing"},
		{"bad space number", edit(0, "space x Bayern"), "space number \"x\""},
		{"road to nowhere", edit(0, "road 1 99"), fmt.Sprintf("board line %d: road 1-99 leads to nowhere: there is no space 99", last)},
		{"road to itself", edit(0, "road 7 7"), "road from space 7 to itself"},
		{"duplicate road", edit(0, "road 2 1"), fmt.Sprintf("board line %d: duplicate road 2-1", last)},
		{"too many roads", strings.Replace(defaultBoardText, "road 1 3\n", "road 1 3\nroad 1 4\nroad 1 5\nroad 1 6\nroad 1 20\nroad 1 7\n", 1), "space 1 has more than 6 roads"},
		{"duplicate alliance number", edit(0, "alliance 15 England Burgund"), "duplicate alliance number 15 (first on line"},
		{"gap in alliance numbers", edit(0, "alliance 17 England Burgund"), "alliance number 17, but alliances must be numbered 1..16"},
		{"alliance repeated", edit(0, "alliance 16 Frankreich England"), "alliance 16 repeats alliance 1 (Frankreich-England)"},
		{"alliance of a country with itself", edit(0, "alliance 16 Bayern Bayern"), "joins Bayern to itself"},
		{"scoring misses a country", strings.Replace(defaultBoardText, "Schwaben Burgund\n", "Schwaben\n", 1), "scoring order misses Burgund"},
		{"scoring names a country twice", strings.Replace(defaultBoardText, "Lothringen Schwaben Burgund\n", "Lothringen Schwaben Burgund Burgund\n", 1), "scoring order names Burgund twice"},
		{"second scoring line", edit(0, "scoring England"), "second scoring line"},
		{"no scoring line", strings.Replace(defaultBoardText, "scoring England", "# scoring England", 1), "no scoring line"},
		{"a country without spaces", strings.NewReplacer("space 31 Schwaben", "space 31 Lothringen", "space 32 Schwaben", "space 32 Lothringen",
			"space 33 Schwaben", "space 33 Lothringen", "space 34 Schwaben", "space 34 Lothringen").Replace(defaultBoardText), "Schwaben has no monastery space"},
		{"malformed road", edit(0, "road 1"), "want \"road NUMBER NUMBER\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := LoadBoard(strings.NewReader(tc.text))
			require.Error(t, err)
			assert.Nil(t, b)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestAnotherBoardPlays(t *testing.T) {
	// A tiny board: one space per country in a ring of alliances, a road per alliance.
	order := []string{"England", "Frankreich", "Aragon", "Italien", "Bayern", "Franken", "Schwaben", "Lothringen", "Burgund"}
	var s strings.Builder
	s.WriteString("kardinal-board 1\nname ring\n")
	for i, c := range order {
		fmt.Fprintf(&s, "space %d %s\n", i+1, c)
	}
	for i := range order {
		j := (i + 1) % len(order)
		fmt.Fprintf(&s, "alliance %d %s %s\nroad %d %d\n", i+1, order[i], order[j], i+1, j+1)
	}
	s.WriteString("scoring " + strings.Join(order, " ") + "\n")
	b, err := LoadBoard(strings.NewReader(s.String()))
	require.NoError(t, err)
	assert.Equal(t, "ring", b.Name())
	for seed := uint64(0); seed < 20; seed++ {
		g, err := NewOnBoard(b, seed, 3+int(seed%3))
		require.NoError(t, err)
		for !g.Terminal() {
			require.NoError(t, g.Apply(int(seed)%len(g.Options())))
			checkInvariants(t, g)
		}
	}
	_, err = NewOnBoard(nil, 1, 3)
	assert.Error(t, err)
}
