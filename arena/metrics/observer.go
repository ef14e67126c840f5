package metrics

import (
	"time"

	"github.com/arena-games/arena/arena"
)

// endings lists every seat ending, so that each bot's series exist at zero from its
// first start and dashboards show "no timeouts" rather than no data.
var endings = []arena.Ending{arena.OK, arena.Timeout, arena.Crash, arena.Illegal, arena.Protocol}

// Observer returns the arena.Observer that records a run into m.
func (m *Metrics) Observer() arena.Observer { return observer{m} }

type observer struct{ m *Metrics }

func (o observer) BotStarted(bot string, restart bool) {
	o.m.BotStarts.WithLabelValues(bot).Inc()
	r := o.m.BotRestarts.WithLabelValues(bot)
	if restart {
		r.Inc()
	}
	o.m.BotProcesses.WithLabelValues(bot).Inc()
	o.m.Disqualified.WithLabelValues(bot)
	for _, e := range endings {
		o.m.Endings.WithLabelValues(bot, e.String())
	}
}

func (o observer) BotStopped(bot string) { o.m.BotProcesses.WithLabelValues(bot).Dec() }

func (o observer) MatchStarted(game string) {
	o.m.MatchesStarted.WithLabelValues(game).Inc()
	o.m.MatchesInFlight.WithLabelValues(game).Inc()
	for _, outcome := range []string{"complete", "forfeit", "aborted"} {
		o.m.MatchesFinished.WithLabelValues(game, outcome)
	}
}

func (o observer) Decision(game, bot string, took time.Duration) {
	o.m.Decisions.WithLabelValues(game, bot).Inc()
	o.m.DecisionLatency.WithLabelValues(game, bot).Observe(took.Seconds())
}

func (o observer) MatchFinished(game string, res *arena.MatchResult, took time.Duration, err error) {
	o.m.MatchesInFlight.WithLabelValues(game).Dec()
	outcome := "aborted"
	if res != nil && err == nil {
		outcome = "complete"
		for _, s := range res.Seats {
			o.m.Endings.WithLabelValues(s.Bot, s.Ending.String()).Inc()
			o.bankUsed(game, s)
			if s.Ending != arena.OK {
				outcome = "forfeit"
			}
		}
		o.m.MatchDuration.WithLabelValues(game).Observe(took.Seconds())
	}
	o.m.MatchesFinished.WithLabelValues(game, outcome).Inc()
}

// bankUsed records the share of its bank a seat spent; nothing when no bank was set.
func (o observer) bankUsed(game string, s arena.SeatResult) {
	if o.m.bank <= 0 {
		return
	}
	o.m.BankUsed.WithLabelValues(game, s.Bot).Observe(s.Spent.Seconds() / o.m.bank)
}
