package ivanhoe

import (
	"reflect"
	"testing"

	"github.com/arena-games/arena/engine"
)

// TestFillViewIsView: a reused view filled at every decision of random games, for every
// seat, equals a fresh View (displays emptied in between included).
func TestFillViewIsView(t *testing.T) {
	var v View
	for seed := uint64(0); seed < 20; seed++ {
		g, _ := New(seed, 2+int(seed%4))
		r := engine.NewRand(seed)
		for !g.Terminal() {
			for s := 0; s < g.players; s++ {
				g.FillView(&v, s)
				if want := g.ViewOf(s); !reflect.DeepEqual(&v, want) {
					t.Fatalf("seed %d decision %d seat %d:\n%s\nwant\n%s", seed, g.decisions, s, v.String(), want)
				}
			}
			if err := g.Apply(r.Intn(len(g.Options()))); err != nil {
				t.Fatal(err)
			}
		}
	}
}
