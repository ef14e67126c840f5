package kardinal

import (
	"bufio"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/arena-games/arena/engine"
)

// Board limits: the state keeps per-space arrays of MaxSpaces entries, and a space's
// roads in an array of MaxRoads.
const (
	MaxSpaces = 128
	MaxRoads  = 6
)

// BoardVersion is the board file format this package reads.
const BoardVersion = 1

// NoSpace is the space argument of an advisor placement, and "no space" in general.
const NoSpace = -1

//go:embed boards/default.txt
var defaultBoardText string

// Alliance is one alliance border: its number (the scoring order, from 1) and the two
// countries it joins.
type Alliance struct {
	Number int
	A, B   Country
}

// Board is a map: countries' monastery spaces, the roads between spaces, the alliance
// borders and the monastery scoring order. It is immutable once loaded and shared by
// every game (and clone) played on it. Spaces are indexed from 0 in the engine; the
// board file and every text for people number them from 1.
type Board struct {
	name      string
	spaces    int
	country   [MaxSpaces]Country
	roads     [MaxSpaces][MaxRoads]uint8
	degree    [MaxSpaces]uint8
	spacesOf  [NumCountries][]uint8
	alliances []Alliance
	allied    [NumCountries][NumCountries]bool
	order     [NumCountries]Country
	// digest sums the board's contents (not its comments or name), so that the same
	// position on two boards hashes apart (Game.Hash).
	digest uint64
}

// Name is the board's name line.
func (b *Board) Name() string { return b.name }

// Spaces is the number of monastery spaces.
func (b *Board) Spaces() int { return b.spaces }

// CountryOf is the country of a space (0-based).
func (b *Board) CountryOf(space int) Country { return b.country[space] }

// Roads lists the spaces joined to space by a road. The slice belongs to the board.
func (b *Board) Roads(space int) []uint8 { return b.roads[space][:b.degree[space]] }

// SpacesOf lists the spaces of a country in ascending order. The slice belongs to the
// board.
func (b *Board) SpacesOf(c Country) []uint8 { return b.spacesOf[c] }

// Alliances lists the alliance borders in scoring order. The slice belongs to the board.
func (b *Board) Alliances() []Alliance { return b.alliances }

// Allied reports whether two countries share an alliance border.
func (b *Board) Allied(x, y Country) bool { return b.allied[x][y] }

// ScoringOrder is the order in which countries' monasteries are scored (K9).
func (b *Board) ScoringOrder() [NumCountries]Country { return b.order }

// DefaultBoard is the board shipped with the engine (boards/default.txt), a
// reconstruction of the printed one.
func DefaultBoard() *Board { return defaultBoard }

var defaultBoard = func() *Board {
	b, err := LoadBoard(strings.NewReader(defaultBoardText))
	if err != nil {
		// The file is embedded and covered by tests; a broken one is a build defect.
		panic("kardinal: embedded default board: " + err.Error())
	}
	return b
}()

// LoadBoard reads and validates a board file (the format is in the package doc). Errors
// name the line and the problem.
func LoadBoard(r io.Reader) (*Board, error) {
	p := &boardFile{spaces: map[int]spaceLine{}}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		p.lineNo++
		if err := p.line(sc.Text()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("board: reading: %w", err)
	}
	if err := p.complete(); err != nil {
		return nil, err
	}
	b := &Board{name: p.name, spaces: p.maxSpaceNo}
	for n := 1; n <= p.maxSpaceNo; n++ {
		c := p.spaces[n].country
		b.country[n-1] = c
		b.spacesOf[c] = append(b.spacesOf[c], uint8(n-1))
	}
	for c := Country(0); c < NumCountries; c++ {
		if len(b.spacesOf[c]) == 0 {
			return nil, fmt.Errorf("board: %s has no monastery space", c)
		}
	}
	if err := b.placeAlliances(p.alliances); err != nil {
		return nil, err
	}
	if err := b.placeRoads(p.roads); err != nil {
		return nil, err
	}
	copy(b.order[:], p.order)
	b.digest = b.contentDigest()
	return b, nil
}

// boardFile is a board file as read so far, line by line.
type boardFile struct {
	spaces     map[int]spaceLine
	roads      []roadLine
	alliances  []allianceLine
	order      []Country
	orderLine  int
	name       string
	sawHeader  bool
	lineNo     int
	maxSpaceNo int
}

type spaceLine struct {
	line    int
	country Country
}

type roadLine struct{ line, a, b int }

type allianceLine struct {
	line int
	a    Alliance
}

// bad is an error of the current line.
func (p *boardFile) bad(format string, args ...any) error {
	return fmt.Errorf("board line %d: %s", p.lineNo, fmt.Sprintf(format, args...))
}

// line reads one line: the header first, then directives; comments and blank lines
// are skipped.
func (p *boardFile) line(text string) error {
	if i := strings.IndexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	f := strings.Fields(text)
	if len(f) == 0 {
		return nil
	}
	if !p.sawHeader {
		if f[0] != "kardinal-board" {
			return p.bad("missing header: want %q first, got %q", fmt.Sprintf("kardinal-board %d", BoardVersion), strings.TrimSpace(text))
		}
		if len(f) != 2 || f[1] != strconv.Itoa(BoardVersion) {
			return p.bad("bad version %q: this engine reads version %d", strings.Join(f[1:], " "), BoardVersion)
		}
		p.sawHeader = true
		return nil
	}
	switch f[0] {
	case "name":
		p.name = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "name"))
		return nil
	case "space":
		return p.space(f, text)
	case "road":
		return p.road(f, text)
	case "alliance":
		return p.alliance(f, text)
	case "scoring":
		return p.scoring(f)
	}
	return p.bad("unknown directive %q", f[0])
}

func (p *boardFile) space(f []string, text string) error {
	if len(f) != 3 {
		return p.bad("want \"space NUMBER COUNTRY\", got %q", strings.TrimSpace(text))
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 1 || n > MaxSpaces {
		return p.bad("space number %q is not a number in 1..%d", f[1], MaxSpaces)
	}
	c, err := ParseCountry(f[2])
	if err != nil {
		return p.bad("%v", err)
	}
	if prev, ok := p.spaces[n]; ok {
		return p.bad("duplicate space number %d (first on line %d)", n, prev.line)
	}
	p.spaces[n] = spaceLine{p.lineNo, c}
	p.maxSpaceNo = max(p.maxSpaceNo, n)
	return nil
}

func (p *boardFile) road(f []string, text string) error {
	if len(f) != 3 {
		return p.bad("want \"road NUMBER NUMBER\", got %q", strings.TrimSpace(text))
	}
	a, errA := strconv.Atoi(f[1])
	b, errB := strconv.Atoi(f[2])
	if errA != nil || errB != nil {
		return p.bad("road ends %q and %q must be space numbers", f[1], f[2])
	}
	if a == b {
		return p.bad("road from space %d to itself", a)
	}
	p.roads = append(p.roads, roadLine{p.lineNo, a, b})
	return nil
}

func (p *boardFile) alliance(f []string, text string) error {
	if len(f) != 4 {
		return p.bad("want \"alliance NUMBER COUNTRY COUNTRY\", got %q", strings.TrimSpace(text))
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 1 {
		return p.bad("alliance number %q is not a positive number", f[1])
	}
	x, err := ParseCountry(f[2])
	if err != nil {
		return p.bad("%v", err)
	}
	y, err := ParseCountry(f[3])
	if err != nil {
		return p.bad("%v", err)
	}
	if x == y {
		return p.bad("alliance %d joins %s to itself", n, x)
	}
	for _, al := range p.alliances {
		if al.a.Number == n {
			return p.bad("duplicate alliance number %d (first on line %d)", n, al.line)
		}
		if (al.a.A == x && al.a.B == y) || (al.a.A == y && al.a.B == x) {
			return p.bad("alliance %d repeats alliance %d (%s-%s)", n, al.a.Number, x, y)
		}
	}
	p.alliances = append(p.alliances, allianceLine{p.lineNo, Alliance{n, x, y}})
	return nil
}

func (p *boardFile) scoring(f []string) error {
	if p.orderLine != 0 {
		return p.bad("second scoring line (first on line %d)", p.orderLine)
	}
	p.orderLine = p.lineNo
	seen := [NumCountries]bool{}
	for _, s := range f[1:] {
		c, err := ParseCountry(s)
		if err != nil {
			return p.bad("%v", err)
		}
		if seen[c] {
			return p.bad("scoring order names %s twice", c)
		}
		seen[c] = true
		p.order = append(p.order, c)
	}
	for c, ok := range seen {
		if !ok {
			return p.bad("scoring order misses %s", Country(c))
		}
	}
	return nil
}

// complete checks what a whole file must have: a header, spaces numbered without
// gaps, a scoring line.
func (p *boardFile) complete() error {
	if !p.sawHeader {
		return errors.New("board: empty file: want a \"kardinal-board 1\" header")
	}
	if len(p.spaces) == 0 {
		return errors.New("board: no spaces")
	}
	for n := 1; n <= p.maxSpaceNo; n++ {
		if _, ok := p.spaces[n]; !ok {
			return fmt.Errorf("board: spaces must be numbered 1..%d without gaps: space %d is missing", p.maxSpaceNo, n)
		}
	}
	if p.orderLine == 0 {
		return errors.New("board: no scoring line")
	}
	return nil
}

// placeAlliances puts the alliances on b. They must be numbered 1..K: the number is
// the scoring order (K11).
func (b *Board) placeAlliances(alliances []allianceLine) error {
	b.alliances = make([]Alliance, len(alliances))
	for _, al := range alliances {
		if al.a.Number > len(alliances) {
			return fmt.Errorf("board line %d: alliance number %d, but alliances must be numbered 1..%d", al.line, al.a.Number, len(alliances))
		}
		b.alliances[al.a.Number-1] = al.a
		b.allied[al.a.A][al.a.B] = true
		b.allied[al.a.B][al.a.A] = true
	}
	return nil
}

// placeRoads puts the roads on b, whose spaces are placed. Roads and alliances are
// independent (ruling of 2026-11-23): the rulebook puts alliance spaces on land and
// sea borders, so an alliance may join countries no road joins (a sea border) and a
// road may cross a border that carries no alliance.
func (b *Board) placeRoads(roads []roadLine) error {
	for _, r := range roads {
		for _, end := range [2]int{r.a, r.b} {
			if end < 1 || end > b.spaces {
				return fmt.Errorf("board line %d: road %d-%d leads to nowhere: there is no space %d", r.line, r.a, r.b, end)
			}
		}
		x, y := r.a-1, r.b-1
		for _, z := range b.Roads(x) {
			if int(z) == y {
				return fmt.Errorf("board line %d: duplicate road %d-%d", r.line, r.a, r.b)
			}
		}
		for _, s := range [2]int{x, y} {
			if b.degree[s] == MaxRoads {
				return fmt.Errorf("board line %d: space %d has more than %d roads", r.line, s+1, MaxRoads)
			}
		}
		b.roads[x][b.degree[x]] = uint8(y)
		b.degree[x]++
		b.roads[y][b.degree[y]] = uint8(x)
		b.degree[y]++
	}
	return nil
}

func (b *Board) contentDigest() uint64 {
	h := engine.NewHasher()
	h.Int(b.spaces)
	for s := 0; s < b.spaces; s++ {
		h.Byte(uint8(b.country[s]))
		h.Bytes(b.Roads(s))
	}
	for _, a := range b.alliances {
		h.Byte(uint8(a.A))
		h.Byte(uint8(a.B))
	}
	for _, c := range b.order {
		h.Byte(uint8(c))
	}
	return h.Sum()
}

// String prints the board for people: countries with their spaces, the roads of every
// space, the alliance borders and the scoring order. Spaces are numbered as in the file.
func (b *Board) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "%s: %d monastery spaces, %d alliance borders\n", b.name, b.spaces, len(b.alliances))
	s.WriteString("countries (scoring order):\n")
	for _, c := range b.order {
		fmt.Fprintf(&s, "  %-10s %d spaces:", c, len(b.spacesOf[c]))
		for _, sp := range b.spacesOf[c] {
			fmt.Fprintf(&s, " %d", sp+1)
		}
		s.WriteString("\n")
	}
	s.WriteString("roads:\n")
	for sp := 0; sp < b.spaces; sp++ {
		fmt.Fprintf(&s, "  %2d %-10s ->", sp+1, b.country[sp])
		for _, z := range b.Roads(sp) {
			if b.country[z] != b.country[sp] {
				fmt.Fprintf(&s, " %d (%s)", z+1, b.country[z])
			} else {
				fmt.Fprintf(&s, " %d", z+1)
			}
		}
		s.WriteString("\n")
	}
	s.WriteString("alliances:\n")
	for _, al := range b.alliances {
		fmt.Fprintf(&s, "  %2d %s-%s\n", al.Number, al.A, al.B)
	}
	return s.String()
}
