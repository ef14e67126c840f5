package engine

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Spec describes a game to the registry.
type Spec struct {
	Name       string
	MinPlayers int
	MaxPlayers int
	// MaxDecisions is the decision bound after which the game is adjudicated.
	MaxDecisions int
	// New starts a game; the player count has been checked against the bounds.
	New func(seed uint64, players int) (Game, error)
}

var (
	mu    sync.RWMutex
	specs = map[string]Spec{}
)

// Register makes a game available by name; game packages call it from init.
func Register(s Spec) {
	mu.Lock()
	defer mu.Unlock()
	specs[s.Name] = s
}

// Lookup finds a registered game.
func Lookup(name string) (Spec, error) {
	mu.RLock()
	defer mu.RUnlock()
	s, ok := specs[name]
	if !ok {
		return Spec{}, fmt.Errorf("unknown game %q (known: %s)", name, strings.Join(namesLocked(), ", "))
	}
	return s, nil
}

// Names lists the registered games in order.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	n := make([]string, 0, len(specs))
	for k := range specs {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// New starts the named game for players seats, checking the player count.
func New(name string, seed uint64, players int) (Game, error) {
	s, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if err := s.CheckPlayers(players); err != nil {
		return nil, err
	}
	return s.New(seed, players)
}

// CheckPlayers reports whether the game seats that many players.
func (s Spec) CheckPlayers(players int) error {
	if players < s.MinPlayers || players > s.MaxPlayers {
		return fmt.Errorf("%s is played by %d to %d players, not %d", s.Name, s.MinPlayers, s.MaxPlayers, players)
	}
	return nil
}
