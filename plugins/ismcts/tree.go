package ismcts

import (
	"math"

	"github.com/arena-games/arena/engine"
)

// node is one edge of the tree: the option a seat chose at its parent's information
// set. Nodes live in one slice, linked by index, so a search allocates nothing once the
// slice has grown.
type node struct {
	opt         engine.Option
	mover       int8
	child, next int32 // first child, next sibling; 0 is none (the root is never a child)
	visits      int32
	avail       int32
	reward      float64 // the sum of the mover's rewards through this node
}

// tree is SO-ISMCTS's single tree over the searching seat's information sets.
type tree struct {
	nodes []node
	spare []node     // the other buffer of reroot
	stack []nodePair // reroot's work list
	index optIndex
	has   []bool
	// guide, when set, names the option a new node's expansion tries first, and its
	// child starts with bias virtual visits, each a win (Config.Bias).
	guide Rollout
	bias  int32
	// price, when set, is the cost of a child of option o: taken off every reward
	// backed up through it (Config.Joker). It is asked at each backup rather than
	// kept in the node, which would grow every node of every search by a fifth.
	price func(o engine.Option) float32
}

func (t *tree) reset() { t.nodes = append(t.nodes[:0], node{mover: -1}) }

// descend plays one iteration's selection and expansion on the determinization g:
// from the root, while every option available here has a child, it counts the
// availability of each and follows the best by UCB; the first time an option has no
// child it adds one and stops. It returns the path of node indices from the root.
//
// With a model, the seats other than self choose by the model instead of UCB (a
// child is added for a choice the tree does not hold yet, and the descent stops
// there): the tree spends its iterations on self's decisions along the lines the
// model expects of the others. A model's answer byUCB leaves that choice to UCB.
func (t *tree) descend(g engine.Game, c float64, r *engine.Rand, path []int32, self int, model Rollout) ([]int32, error) {
	cur := int32(0)
	path = append(path[:0], 0)
	for !g.Terminal() {
		opts := g.Options()
		mover := int8(g.ToMove())
		i := byUCB
		if model != nil && int(mover) != self {
			i = model(g, r)
		}
		if i != byUCB {
			if i < 0 || i >= len(opts) {
				i = g.Fallback()
			}
			ch := t.child(cur, opts[i], mover)
			added := ch == 0
			if added {
				ch = t.add(cur, opts[i], mover)
			}
			path = append(path, ch)
			if err := g.Apply(i); err != nil || added {
				return path, err
			}
			cur = ch
			continue
		}
		t.index.build(opts)
		if cap(t.has) < len(opts) {
			t.has = make([]bool, len(opts)*2)
		}
		has := t.has[:len(opts)]
		clear(has)
		best, bestI, bestScore := int32(0), -1, math.Inf(-1)
		for ch := t.nodes[cur].child; ch != 0; ch = t.nodes[ch].next {
			n := &t.nodes[ch]
			if n.mover != mover {
				continue
			}
			i := t.index.find(n.opt)
			if i < 0 {
				continue
			}
			has[i] = true
			n.avail++
			s := n.reward/float64(n.visits) + c*math.Sqrt(math.Log(float64(n.avail))/float64(n.visits))
			if s > bestScore {
				best, bestI, bestScore = ch, i, s
			}
		}
		if i, guided := t.expand(g, has, r); i >= 0 {
			ch := t.add(cur, opts[i], mover)
			if guided {
				n := &t.nodes[ch]
				n.visits, n.avail, n.reward = t.bias, t.bias, float64(t.bias)
			}
			path = append(path, ch)
			return path, g.Apply(i)
		}
		path = append(path, best)
		if err := g.Apply(bestI); err != nil {
			return path, err
		}
		cur = best
	}
	return path, nil
}

// expand picks the option to add a child for: the guide's, when it has none yet
// (guided), else one uniformly among those without one; -1 when all have one.
func (t *tree) expand(g engine.Game, has []bool, r *engine.Rand) (i int, guided bool) {
	i = untried(has, r)
	if i < 0 || t.guide == nil {
		return i, false
	}
	if j := t.guide(g, r); j >= 0 && j < len(has) && !has[j] {
		return j, true
	}
	return i, false
}

// untried picks uniformly among the options without a child, or returns -1.
func untried(has []bool, r *engine.Rand) int {
	n := 0
	for _, h := range has {
		if !h {
			n++
		}
	}
	if n == 0 {
		return -1
	}
	k := r.Intn(n)
	for i, h := range has {
		if !h {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return -1
}

// child is parent's child for option o of mover, or 0.
func (t *tree) child(parent int32, o engine.Option, mover int8) int32 {
	for ch := t.nodes[parent].child; ch != 0; ch = t.nodes[ch].next {
		if n := &t.nodes[ch]; n.opt == o && n.mover == mover {
			return ch
		}
	}
	return 0
}

func (t *tree) add(parent int32, o engine.Option, mover int8) int32 {
	t.nodes = append(t.nodes, node{opt: o, mover: mover, next: t.nodes[parent].child, avail: 1})
	ch := int32(len(t.nodes) - 1)
	t.nodes[parent].child = ch
	return ch
}

// prefer adds a root child for option o of mover with visits virtual visits, each a
// win: prior knowledge that the search must outweigh.
func (t *tree) prefer(o engine.Option, mover int8, visits int32) {
	ch := t.add(0, o, mover)
	t.nodes[ch].visits, t.nodes[ch].avail, t.nodes[ch].reward = visits, visits, float64(visits)
	t.nodes[0].visits += visits
}

// backup adds each node's mover's reward along the path.
func (t *tree) backup(path []int32, reward []float64) {
	for _, i := range path[1:] {
		n := &t.nodes[i]
		n.visits++
		r := reward[n.mover]
		if t.price != nil {
			r -= float64(t.price(n.opt))
		}
		n.reward += r
	}
	t.nodes[0].visits++
}

// best is the root's most visited child that is one of options, as an index into
// options; -1 when there is none. byValue picks instead the best mean reward among the
// children visited at least half as often as the most visited (Config.Final).
func (t *tree) best(options []engine.Option, byValue bool) int {
	t.index.build(options)
	bestI, bestV := -1, int32(-1)
	for ch := t.nodes[0].child; ch != 0; ch = t.nodes[ch].next {
		n := &t.nodes[ch]
		if i := t.index.find(n.opt); i >= 0 && n.visits > bestV {
			bestI, bestV = i, n.visits
		}
	}
	if !byValue {
		return bestI
	}
	bestMean := -1.0
	for ch := t.nodes[0].child; ch != 0; ch = t.nodes[ch].next {
		n := &t.nodes[ch]
		if 2*n.visits < bestV {
			continue
		}
		if i := t.index.find(n.opt); i >= 0 && n.reward/float64(n.visits) > bestMean {
			bestI, bestMean = i, n.reward/float64(n.visits)
		}
	}
	return bestI
}

// tally adds, for each of options, the visits and rewards of the root's child for it
// to visits and reward (indexed as options).
func (t *tree) tally(options []engine.Option, visits []int32, reward []float64) {
	t.index.build(options)
	for ch := t.nodes[0].child; ch != 0; ch = t.nodes[ch].next {
		n := &t.nodes[ch]
		if i := t.index.find(n.opt); i >= 0 {
			visits[i] += n.visits
			reward[i] += n.reward
		}
	}
}

// pick is the option the trees' summed root visits and rewards favour: the most
// visited, or byValue (Config.Final) the best mean among those visited at least half
// as often, as tree.best; -1 when none was visited.
func pick(visits []int32, reward []float64, byValue bool) int {
	bestI, bestV := -1, int32(0)
	for i, v := range visits {
		if v > bestV {
			bestI, bestV = i, v
		}
	}
	if !byValue || bestI < 0 {
		return bestI
	}
	bestMean := -1.0
	for i, v := range visits {
		if v > 0 && 2*v >= bestV && reward[i]/float64(v) > bestMean {
			bestI, bestMean = i, reward[i]/float64(v)
		}
	}
	return bestI
}

// optIndex finds an option's index among the current options in constant time: an
// open-addressed table rebuilt per node visit, cleared by a generation count.
type optIndex struct {
	slots []slot
	gen   uint32
	mask  uint32
}

type slot struct {
	gen uint32
	i   int32
	opt engine.Option
}

func (x *optIndex) build(opts []engine.Option) {
	size := 16
	for size < 2*len(opts) {
		size *= 2
	}
	if len(x.slots) < size {
		x.slots = make([]slot, size)
		x.gen = 0
	}
	x.mask = uint32(size - 1)
	x.gen++
	for i, o := range opts {
		h := hashOpt(o) & x.mask
		for x.slots[h].gen == x.gen {
			h = (h + 1) & x.mask
		}
		x.slots[h] = slot{gen: x.gen, i: int32(i), opt: o}
	}
}

func (x *optIndex) find(o engine.Option) int {
	for h := hashOpt(o) & x.mask; x.slots[h].gen == x.gen; h = (h + 1) & x.mask {
		if x.slots[h].opt == o {
			return int(x.slots[h].i)
		}
	}
	return -1
}

func hashOpt(o engine.Option) uint32 {
	h := uint32(o.Kind)*0x9e3779b1 ^ uint32(uint16(o.A))*0x85ebca6b ^ uint32(uint16(o.B))*0xc2b2ae35 ^
		uint32(uint16(o.C))*0x27d4eb2f ^ uint32(uint16(o.D))*0x165667b1
	return h ^ h>>15
}
