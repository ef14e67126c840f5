package service

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/arena-games/arena/arena"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/watch"
)

// watch mounts the routes that step through a finished game: its steps from one point
// of view as JSON. Like the game page they are public: every game the ladder shows is
// over.
func (s *Service) watch(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/games/{id}/steps", func(w http.ResponseWriter, r *http.Request) {
		g, rf := s.watchSteps(r)
		if rf != nil {
			s.fail(w, r, rf)
			return
		}
		writeJSON(w, http.StatusOK, g)
	})
}

// watchSteps reads a game's replay once and re-simulates it from the point of view the
// query names: seat=N, or the public one when there is no seat.
func (s *Service) watchSteps(r *http.Request) (*watch.Game, *refusal) {
	m, rep, rf := s.readReplay(r)
	if rf != nil {
		return nil, rf
	}
	seat := watch.Public
	var err error
	if v := r.URL.Query().Get("seat"); v != "" {
		seat, err = strconv.Atoi(v)
		if err != nil || seat < 0 || seat >= rep.Header.Players {
			return nil, refuse(http.StatusBadRequest, fmt.Sprintf("seat is 0 to %d, or absent for the public view", rep.Header.Players-1))
		}
	}
	g, err := watch.Steps(rep, seat)
	if err != nil {
		return nil, internal(fmt.Errorf("game %d: %w", m.ID, err))
	}
	return g, nil
}

// readReplay reads the replay of the game the path's {id} names.
func (s *Service) readReplay(r *http.Request) (store.Match, *arena.Replay, *refusal) {
	m, rf := s.match(r.Context(), r.PathValue("id"))
	if rf != nil {
		return m, nil, rf
	}
	f, rf := s.openReplay(m)
	if rf != nil {
		return m, nil, rf
	}
	defer f.Close()
	rep, err := arena.ReadReplay(f)
	if err != nil {
		return m, nil, internal(fmt.Errorf("game %d: %w", m.ID, err))
	}
	return m, rep, nil
}
