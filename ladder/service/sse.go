package service

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// slotKey keys the release of a request's slot in its context (see guard).
type slotKey struct{}

// events is a stream of server-sent events to one client.
type events struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	done    func()
	lastOut time.Time
}

// stream starts a response of server-sent events. A stream lasts as long as its game,
// so it gives back the request slot guard gave it (the slots bound work, and a stream
// mostly waits) and takes one of Limits.Streams instead; close gives that back.
func (s *Service) stream(w http.ResponseWriter, r *http.Request) (*events, *refusal) {
	select {
	case s.streams <- struct{}{}:
	default:
		return nil, refuse(http.StatusServiceUnavailable, fmt.Sprintf("busy: %d games are being watched at once, the most this ladder serves; try again later", s.cfg.Limits.Streams))
	}
	if release, ok := r.Context().Value(slotKey{}).(func()); ok {
		release()
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // a proxy that buffers would hold the moves back
	w.WriteHeader(http.StatusOK)
	ev := &events{w: w, rc: http.NewResponseController(w), done: sync.OnceFunc(func() { <-s.streams })}
	_ = ev.rc.Flush()
	ev.lastOut = time.Now()
	return ev, nil
}

// send writes one event of kind with v as its JSON data; false when the client is gone.
func (ev *events) send(kind string, v any) bool {
	data, err := json.Marshal(v)
	if err != nil {
		return false
	}
	if _, err := fmt.Fprintf(ev.w, "event: %s\ndata: %s\n\n", kind, data); err != nil {
		return false
	}
	ev.lastOut = time.Now()
	return ev.rc.Flush() == nil
}

// wait waits for the next tick, keeping a quiet stream alive with a comment; false
// when the client or the service is gone.
func (ev *events) wait(ctx context.Context, tick <-chan time.Time) bool {
	select {
	case <-ctx.Done():
		return false
	case <-tick:
	}
	return ev.keepAlive()
}

// keepAlive sends a comment on a stream quiet for liveKeepAlive; false when the
// client is gone.
func (ev *events) keepAlive() bool {
	if time.Since(ev.lastOut) < liveKeepAlive {
		return true
	}
	if _, err := fmt.Fprint(ev.w, ": still here\n\n"); err != nil {
		return false
	}
	ev.lastOut = time.Now()
	return ev.rc.Flush() == nil
}

func (ev *events) close() { ev.done() }
