package table_test

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/engine"
	"github.com/arena-games/arena/engine/ivanhoe"
	"github.com/arena-games/arena/engine/kardinal"
	"github.com/arena-games/arena/engine/ninjas"
	_ "github.com/arena-games/arena/games"
	"github.com/arena-games/arena/plugins/random"
	"github.com/arena-games/arena/watch"
	"github.com/arena-games/arena/watch/table"
)

// part is a drawn element with a class: its class and data attributes.
type part map[string]string

// parts parses a drawing as XML and lists its classed elements; a drawing that is not
// well-formed XML fails the test.
func parts(t *testing.T, svg string) []part {
	t.Helper()
	var out []part
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err, "not well-formed: %s", svg)
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		require.NotEqual(t, "script", el.Name.Local, "a drawing runs no script")
		p := part{}
		for _, a := range el.Attr {
			p[a.Name.Local] = a.Value
		}
		if p["class"] != "" {
			out = append(out, p)
		}
	}
}

// where lists the parts of a class whose attributes have the given values.
func where(ps []part, class string, kv ...string) []part {
	var out []part
	for _, p := range ps {
		ok := p["class"] == class
		for i := 0; ok && i+1 < len(kv); i += 2 {
			ok = p[kv[i]] == kv[i+1]
		}
		if ok {
			out = append(out, p)
		}
	}
	return out
}

func names(ps []part) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p["data-card"])
	}
	slices.Sort(out)
	return out
}

// counted expands counts per kind into sorted names.
func counted[K ~uint8](counts []uint8, name func(K) string) []string {
	var out []string
	for k, n := range counts {
		for range n {
			out = append(out, name(K(k)))
		}
	}
	slices.Sort(out)
	return out
}

// Every step of a recorded game of every game and player count, from every point of
// view, draws every card and piece its view holds and, from the public point of view,
// no hand; a bot's name cannot inject markup.
func TestTablesDrawWhatTheViewHoldsAndNoMore(t *testing.T) {
	for _, name := range engine.Names() {
		spec, err := engine.Lookup(name)
		require.NoError(t, err)
		for n := spec.MinPlayers; n <= spec.MaxPlayers; n++ {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				bots := make([]string, n)
				seats := make([]engine.Policy, n)
				for s := range seats {
					bots[s] = fmt.Sprintf(`<script>alert(%d)</script>"&`, s)
					seats[s] = random.New(uint64(100*n + s))
				}
				rep, err := watch.Record(name, uint64(n), nil, bots, seats)
				require.NoError(t, err)
				for seat := watch.Public; seat < n; seat++ {
					g, err := watch.Steps(rep, seat)
					require.NoError(t, err)
					for i, st := range g.Steps {
						ps := parts(t, st.Table)
						hand := where(ps, "card", "data-place", "hand")
						if seat == watch.Public {
							require.Empty(t, hand, "step %d: the public drawing shows a hand", i)
						}
						check(t, st.View, ps, fmt.Sprintf("step %d seat %d", i, seat))
					}
				}
			})
		}
	}
}

// check compares a drawing's parts with the view it was drawn from.
func check(t *testing.T, v engine.View, ps []part, at string) {
	t.Helper()
	hand := names(where(ps, "card", "data-place", "hand"))
	switch v := v.(type) {
	case *ivanhoe.View:
		require.Equal(t, counted(v.Hand[:], ivanhoe.Card.String), hand, at)
		for s := range v.Players {
			var want []string
			if v.InTournament[s] {
				for _, c := range v.Displays[s] {
					want = append(want, c.String())
				}
			}
			got := where(ps, "card", "data-place", "display", "data-seat", fmt.Sprint(s))
			var gotNames []string
			for _, p := range got {
				gotNames = append(gotNames, p["data-card"])
			}
			require.Equal(t, want, gotNames, "%s: seat %d's display, in order", at, s)
			tokens := 0
			for _, has := range v.Tokens[s] {
				if has {
					tokens++
				}
			}
			require.Len(t, where(ps, "token", "data-seat", fmt.Sprint(s)), tokens, at)
		}
		require.Len(t, where(ps, "tournament", "data-colour", v.Colour.String()), 1, at)
		require.Len(t, where(ps, "piles", "data-deck", fmt.Sprint(v.DrawPile)), 1, at)
	case *kardinal.View:
		require.Equal(t, counted(v.Hand[:], kardinal.Kind.String), hand, at)
		require.Equal(t, counted(v.FaceUp[:], kardinal.Kind.String), names(where(ps, "card", "data-place", "face-up")), at)
		require.Len(t, where(ps, "country"), int(kardinal.NumCountries), at)
		require.Len(t, where(ps, "alliance"), len(v.Board.Alliances()), at)
		require.Equal(t, v.Board.Spaces(), len(where(ps, "monastery"))+len(where(ps, "space")), at)
		for s := range v.Players {
			for c := kardinal.Country(0); c < kardinal.NumCountries; c++ {
				require.Len(t, where(ps, "advisor", "data-seat", fmt.Sprint(s), "data-country", c.String()), int(v.Table.Advisors[c][s]), at)
			}
			for sp := range v.Board.Spaces() {
				owned := len(where(ps, "monastery", "data-seat", fmt.Sprint(s), "data-space", fmt.Sprint(sp+1))) == 1
				require.Equal(t, v.Table.OwnerOf(sp) == s, owned, "%s: space %d", at, sp+1)
			}
			require.Len(t, where(ps, "score", "data-seat", fmt.Sprint(s), "data-score", fmt.Sprint(v.Score[s])), 1, at)
		}
	case *ninjas.View:
		require.Equal(t, counted(v.Hand[:], ninjas.Kind.String), hand, at)
		for s := range v.Players {
			require.Len(t, where(ps, "seat", "data-seat", fmt.Sprint(s), "data-gems", fmt.Sprint(v.Gems[s])), 1, at)
			standing := 0
			for _, k := range v.Forts[s] {
				if k != ninjas.NoKind {
					standing++
				}
			}
			require.Len(t, where(ps, "card", "data-place", "castle", "data-seat", fmt.Sprint(s)), standing, at)
		}
		if v.Pending.Kind != ninjas.NoKind {
			require.NotEmpty(t, where(ps, "card", "data-place", "attack"), at)
		}
	default:
		t.Fatalf("%s: no check for %T", at, v)
	}
}

func TestAViewOfAnotherGameIsAnError(t *testing.T) {
	_, err := table.Draw(nil, nil)
	assert.ErrorContains(t, err, "no drawing for a view of type <nil>")
}
