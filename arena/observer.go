package arena

import "time"

// Observer hears what happens during a run as it happens: the seam for metrics. Its
// methods are called from many goroutines at once and must not block.
type Observer interface {
	// BotStarted: a bot process started; restart is set when it replaces a crashed one.
	BotStarted(bot string, restart bool)
	// BotStopped: a bot process is gone (it crashed, or the run stopped it).
	BotStopped(bot string)
	// MatchStarted: a match begins.
	MatchStarted(game string)
	// Decision: a bot was asked for a decision and answered (or failed to) after took.
	Decision(game, bot string, took time.Duration)
	// MatchFinished: a match ended; m is nil when it was aborted (err says why).
	MatchFinished(game string, m *MatchResult, took time.Duration, err error)
}

// nopObserver is the Observer of a run that set none.
type nopObserver struct{}

func (nopObserver) BotStarted(string, bool)                                  {}
func (nopObserver) BotStopped(string)                                        {}
func (nopObserver) MatchStarted(string)                                      {}
func (nopObserver) Decision(string, string, time.Duration)                   {}
func (nopObserver) MatchFinished(string, *MatchResult, time.Duration, error) {}
