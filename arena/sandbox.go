package arena

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arena-games/arena/protocol/bot"
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

// String is one line for people: how many layers are active (the JSON report and the
// replays name them), and which are missing.
func (s SandboxJSON) String() string {
	out := fmt.Sprintf("sandbox %s: %d layers active (--json names them)", s.Level, len(s.Active))
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
func startEnding(k bot.StartKind) Ending {
	switch k {
	case bot.StartExited:
		return Crash
	case bot.StartSilent:
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
// allowed share of the matches it has played (and at least minForfeitsToDisqualify
// times).
type ErrDisqualified struct {
	Bot      string
	Forfeits int // timeouts and crashes so far
	Matches  int // the bot's matches played so far
	Share    float64
	Last     string // the detail of its last forfeit
}

func (e *ErrDisqualified) Error() string {
	msg := fmt.Sprintf("bot %s is disqualified from this run: it timed out or crashed in %d of the %d matches it played, more than the %.0f%% allowed (--max-forfeit-share)",
		e.Bot, e.Forfeits, e.Matches, 100*e.Share)
	if e.Last != "" {
		msg += "; last: " + e.Last
	}
	return msg
}

// PastForfeitShare reports whether forfeits (timeouts and crashes) in played matches
// pass share: more than that share of the matches played, and at least the floor that
// keeps one or two incidents from counting. A share of 0 or less never does.
func PastForfeitShare(forfeits, played int, share float64) bool {
	return share > 0 && forfeits >= minForfeitsToDisqualify && float64(forfeits) > share*float64(played)
}

// IsForfeit reports whether an ending counts towards disqualification.
func IsForfeit(e Ending) bool { return e == Timeout || e == Crash }

// disqualifier counts each entrant's matches and its timeouts and crashes as matches
// finish.
type disqualifier struct {
	share    float64
	played   []int
	forfeits []int
	bots     []*botProc
}

func newDisqualifier(share float64, bots []*botProc) *disqualifier {
	return &disqualifier{share: share, played: make([]int, len(bots)), forfeits: make([]int, len(bots)), bots: bots}
}

// add counts a finished match and returns the first entrant it disqualifies.
func (d *disqualifier) add(m *MatchResult) error {
	var out error
	for _, s := range m.Seats {
		d.played[s.Entrant]++
		if !IsForfeit(s.Ending) {
			continue
		}
		d.forfeits[s.Entrant]++
		f, p := d.forfeits[s.Entrant], d.played[s.Entrant]
		if out == nil && PastForfeitShare(f, p, d.share) {
			out = &ErrDisqualified{Bot: d.bots[s.Entrant].entrant.Name, Forfeits: f, Matches: p, Share: d.share,
				Last: s.Ending.String() + ": " + s.Detail}
		}
	}
	return out
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
