package arena

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/protocol/sandbox"
)

// SandboxJSON is the sandbox of one bot: the level asked for, the layers active and
// the layers missing on this machine with the reason. It is in the report, in every
// replay's header (one per seat) and in the run's log.
type SandboxJSON struct {
	Bot     string            `json:"bot,omitempty"`
	Level   string            `json:"level"`
	Active  []string          `json:"active"`
	Missing map[string]string `json:"missing,omitempty"`
}

func sandboxJSON(level sandbox.Level, layers []sandbox.Status) SandboxJSON {
	s := SandboxJSON{Level: level.String(), Active: []string{}}
	for _, l := range layers {
		if l.Active {
			s.Active = append(s.Active, l.Layer)
			continue
		}
		if s.Missing == nil {
			s.Missing = map[string]string{}
		}
		s.Missing[l.Layer] = l.Reason
	}
	return s
}

// String is one line for people.
func (s SandboxJSON) String() string {
	out := fmt.Sprintf("sandbox %s: %s", s.Level, strings.Join(s.Active, ", "))
	if len(s.Missing) > 0 {
		var miss []string
		for l := range s.Missing {
			miss = append(miss, l)
		}
		slices.Sort(miss)
		out += "; missing: " + strings.Join(miss, ", ")
	}
	return out
}

// startEnding types a bot process that did not start: it never answered, so its seats
// forfeit as if it had failed at once.
func startEnding(k protocol.StartKind) Ending {
	switch k {
	case protocol.StartExited:
		return Crash
	case protocol.StartSilent:
		return Timeout
	}
	return Protocol
}

// DefaultMaxForfeitShare is the share of its matches a bot may lose to timeouts and
// crashes before it is disqualified from a run.
const DefaultMaxForfeitShare = 0.25

// minForfeitsToDisqualify keeps a short run from disqualifying a bot for one or two
// incidents.
const minForfeitsToDisqualify = 3

// ErrDisqualified stops a run in which a bot timed out or crashed in more than the
// allowed share of its matches: so many that the share would be passed even if it
// never failed again.
type ErrDisqualified struct {
	Bot      string
	Forfeits int // timeouts and crashes so far
	Matches  int // the bot's matches in the whole run
	Share    float64
	Last     string // the detail of its last forfeit
}

func (e *ErrDisqualified) Error() string {
	msg := fmt.Sprintf("bot %s is disqualified from this run: it timed out or crashed in %d of its %d matches, more than the %.0f%% allowed (--max-forfeit-share)",
		e.Bot, e.Forfeits, e.Matches, 100*e.Share)
	if e.Last != "" {
		msg += "; last: " + e.Last
	}
	return msg
}

// disqualifier counts each entrant's timeouts and crashes as matches finish.
type disqualifier struct {
	share    float64
	matches  int
	forfeits []int
	bots     []*botProc
}

// add counts a finished match and returns the first entrant it disqualifies.
func (d *disqualifier) add(m *MatchResult) error {
	if d.share <= 0 {
		return nil
	}
	for _, s := range m.Seats {
		if s.Ending != Timeout && s.Ending != Crash {
			continue
		}
		d.forfeits[s.Entrant]++
		f := d.forfeits[s.Entrant]
		if f >= minForfeitsToDisqualify && float64(f) > d.share*float64(d.matches) {
			return &ErrDisqualified{Bot: d.bots[s.Entrant].entrant.Name, Forfeits: f, Matches: d.matches, Share: d.share,
				Last: s.Ending.String() + ": " + s.Detail}
		}
	}
	return nil
}

// defaultCPUTime bounds one bot process's CPU time over a run: every match's bank,
// twice over for a bot that thinks on two cores, and a minute to start.
func defaultCPUTime(matches int, c Clock) time.Duration {
	return 2*time.Duration(matches)*c.Bank + time.Minute
}

// defaultMatchWall is the wall-clock cap of one match: every seat spending its whole
// bank and a start, and a minute for the transport. Only a fault trips it.
func defaultMatchWall(players int, c Clock) time.Duration {
	return time.Duration(players)*(c.Bank+c.Startup) + c.Shutdown + time.Minute
}
