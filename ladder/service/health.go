package service

import (
	"context"
	"net/http"
	"time"
)

// readyTimeout bounds /readyz's look at the store: a database that cannot answer a
// small read in that time is not ready for the pages either.
const readyTimeout = 2 * time.Second

// health serves /healthz (the process answers) and /readyz (it can serve: the store
// answers a small read, and the ladder's run lock is still held where it can be
// lost), for a load balancer or an orchestrator. Neither says more
// than ok or what failed.
func (s *Service) health(mux *http.ServeMux) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
		defer cancel()
		if _, err := s.cfg.Store.Suspensions(ctx); err != nil {
			s.cfg.Log.Error("not ready: the store does not answer", "request", requestID(r), "err", err)
			http.Error(w, "not ready: the database does not answer", http.StatusServiceUnavailable)
			return
		}
		if s.cfg.LockHeld != nil {
			if err := s.cfg.LockHeld(ctx); err != nil {
				s.cfg.Log.Error("not ready: the ladder's run lock is not held", "request", requestID(r), "err", err)
				http.Error(w, "not ready: the ladder's run lock is not held", http.StatusServiceUnavailable)
				return
			}
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
}
