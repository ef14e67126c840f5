package dashboards

import "fmt"

// The four dashboards. Rates and shares are over $__rate_interval (four scrapes with
// the provisioned timeInterval), never over a process's whole life; ladder totals are
// the store's counters, so a restarted ladder process changes none of them. Every
// dashboard has job and instance variables, the ladder ones a ladder and a game too,
// and a ladder panel keeps each ladder and game apart instead of taking the max.

var specs = []spec{throughput, botHealth, ladderOverview, ladderFleet, ladderWeb}

// quantile is the q-quantile over $__rate_interval of the histogram metric, by the
// labels by, for the series sel selects. Prometheus stores a histogram either in its
// native form (native histograms on, for a histogram that has one: the classic buckets
// are then not stored) or as classic buckets, so the query asks both: one side is
// empty, and where both are stored the native one wins.
func quantile(q, metric, by, sel string) string {
	return fmt.Sprintf(`histogram_quantile(%[1]s, sum by (%[3]s) (rate(%[2]s{%[4]s}[$__rate_interval])))`+
		` or histogram_quantile(%[1]s, sum by (%[3]s, le) (rate(%[2]s_bucket{%[4]s}[$__rate_interval])))`, q, metric, by, sel)
}

var throughput = spec{
	file: "arena-throughput.json", uid: "arena-throughput", title: "Arena throughput",
	desc: "How fast matches are played, how they end, which processes run (match or ladder) and why runs stopped.",
	vars: []variable{{"job", "label_values(up, job)"}, {"instance", `label_values(up{job=~"$job"}, instance)`},
		{"game", `label_values(arena_matches_started_total{job=~"$job", instance=~"$instance"}, game)`}},
	panels: []panel{
		{kind: "timeseries", title: "Matches finished per second", unit: "suffix: matches/s", w: 12, h: 8, steps: neutral, min: ptr(0),
			desc:    "Matches that ended (any outcome) per second, averaged over $__rate_interval.",
			queries: []target{{expr: `sum by (game) (rate(arena_matches_finished_total{job=~"$job", instance=~"$instance", game=~"$game"}[$__rate_interval]))`, legend: "{{game}}"}}},
		{kind: "timeseries", title: "Decisions per second", unit: "suffix: decisions/s", w: 12, h: 8, steps: neutral, min: ptr(0),
			desc:    "Decisions asked of bots per second (answered or not), averaged over $__rate_interval.",
			queries: []target{{expr: `sum by (game) (rate(arena_decisions_total{job=~"$job", instance=~"$instance", game=~"$game"}[$__rate_interval]))`, legend: "{{game}}"}}},
		{kind: "timeseries", title: "Matches in flight", unit: "short", w: 8, h: 8, steps: neutral, min: ptr(0),
			desc:    "Matches being played right now (at most the run's -j).",
			queries: []target{{expr: `sum by (game) (arena_matches_in_flight{job=~"$job", instance=~"$instance", game=~"$game"})`, legend: "{{game}}"}}},
		{kind: "timeseries", title: "Match duration p50 / p99", unit: "s", w: 8, h: 8, min: ptr(0),
			steps: []step{base("green"), from(60, "orange")},
			desc:  "Median and 99th percentile of the wall-clock time of a complete match over $__rate_interval. Orange from a minute: a match that long spends its time banks.",
			queries: []target{
				{expr: quantile("0.5", "arena_match_duration_seconds", "game", `job=~"$job", instance=~"$instance", game=~"$game"`), legend: "{{game}} p50"},
				{expr: quantile("0.99", "arena_match_duration_seconds", "game", `job=~"$job", instance=~"$instance", game=~"$game"`), legend: "{{game}} p99"}}},
		{kind: "timeseries", title: "Matches per minute by outcome", unit: "suffix: matches/min", w: 8, h: 8, steps: neutral, min: ptr(0),
			desc:    "Matches that ended per minute: complete, forfeit (a seat forfeited, the fallback finished for it) and aborted (abandoned when a run stopped).",
			queries: []target{{expr: `sum by (game, outcome) (rate(arena_matches_finished_total{job=~"$job", instance=~"$instance", game=~"$game"}[$__rate_interval])) * 60`, legend: "{{game}} {{outcome}}"}}},
		{kind: "timeseries", title: "Share of matches not complete", unit: "percentunit", w: 12, h: 8, min: ptr(0), max: ptr(1),
			steps: []step{base("green"), from(0.05, "orange"), from(0.2, "red")},
			desc:  "Share of the matches that ended over $__rate_interval with a forfeit or aborted. Orange from 5%, red from 20%.",
			queries: []target{{expr: `sum by (game) (rate(arena_matches_finished_total{job=~"$job", instance=~"$instance", game=~"$game", outcome!="complete"}[$__rate_interval])) / sum by (game) (rate(arena_matches_finished_total{job=~"$job", instance=~"$instance", game=~"$game"}[$__rate_interval]))`,
				legend: "{{game}}"}}},
		{kind: "bargauge", title: "Runs stopped, by reason", unit: "short", w: 12, h: 8, steps: []step{base("green"), from(1, "orange")}, min: ptr(0),
			desc:    "Why runs ended in the dashboard's time range: done, interrupted, sprt (the test decided), disqualified (a bot forfeited too often), restart_limit (a bot kept crashing), error. Orange: at least one.",
			queries: []target{{expr: `sum by (job, reason) (` + bornInRange(`arena_runs_stopped_total{job=~"$job", instance=~"$instance"}`) + `)`, legend: "{{job}} {{reason}}", instant: true}}},
		{kind: "table", title: "Arena processes", unit: "short", w: 12, h: 8, steps: []step{base("red"), from(1, "green")},
			mappings: map[string]string{"0": "down", "1": "up"},
			desc:     "Every target Prometheus scrapes: up (1) while it answers, down (0) once it stopped answering, so a dead process stays listed; the second query gives a live one's mode (match, ladder, worker), ladder, version and VCS revision.",
			queries: []target{
				{expr: `max by (job, instance) (up{job=~"$job", instance=~"$instance"})`, legend: "{{job}} {{instance}}", instant: true},
				{expr: `max by (job, instance, mode, ladder, version, revision) (arena_build_info{job=~"$job", instance=~"$instance"})`, legend: "{{job}} {{instance}} {{mode}}", instant: true}}},
		{kind: "stat", title: "Sandbox layers", unit: "short", w: 12, h: 8, steps: []step{base("red"), from(1, "green")},
			mappings: map[string]string{"0": "missing", "1": "active"},
			desc:     "Each sandbox layer that confines the bots, on the least confined machine: green where every process has it, red where one asked for it and lacks it (the machine is in the layer's series with value 0).",
			queries:  []target{{expr: `min by (layer) (arena_sandbox_layer_active{job=~"$job", instance=~"$instance"})`, legend: "{{layer}}", instant: true}}},
		{kind: "timeseries", title: "SPRT progress", unit: "none", w: 12, h: 8, steps: neutral,
			desc: "arena match --sprt: the log-likelihood ratio after each deal pair between its bounds; the test accepts H1 at the upper bound and H0 at the lower one.",
			queries: []target{
				{expr: `max by (instance, bot) (arena_sprt_llr{job=~"$job", instance=~"$instance"})`, legend: "{{bot}} LLR"},
				{expr: `max by (instance, bot, bound) (arena_sprt_bound{job=~"$job", instance=~"$instance"})`, legend: "{{bot}} {{bound}}"}}},
	},
}

var botHealth = spec{
	file: "bot-health.json", uid: "arena-bot-health", title: "Bot health",
	desc: "How each bot behaves: decision latency, time-bank use, forfeits by kind, process restarts, disqualifications.",
	vars: []variable{{"job", "label_values(arena_build_info, job)"}, {"instance", `label_values(arena_build_info{job=~"$job"}, instance)`},
		{"bot", `label_values(arena_seat_endings_total{job=~"$job", instance=~"$instance"}, bot)`}},
	panels: []panel{
		{kind: "timeseries", title: "Decision latency p50", unit: "s", w: 12, h: 8, min: ptr(0), steps: []step{base("green"), from(0.5, "orange"), from(1, "red")},
			desc: "Median time a bot took to answer over $__rate_interval (native histogram buckets 10% apart where Prometheus stores them, else classic ones from 10 µs to 60 s, a factor of 1.58 apart). Orange from half the default 1 s decision clock, red from all of it.",
			queries: []target{{expr: quantile("0.5", "arena_decision_latency_seconds", "game, bot", `job=~"$job", instance=~"$instance", bot=~"$bot"`),
				legend: "{{bot}} ({{game}})"}}},
		{kind: "timeseries", title: "Decision latency p99", unit: "s", w: 12, h: 8, min: ptr(0), steps: []step{base("green"), from(0.5, "orange"), from(1, "red")},
			desc: "99th percentile of the answer time over $__rate_interval: the slow tail that ends in timeouts. Orange from half the default decision clock, red from all of it.",
			queries: []target{{expr: quantile("0.99", "arena_decision_latency_seconds", "game, bot", `job=~"$job", instance=~"$instance", bot=~"$bot"`),
				legend: "{{bot}} ({{game}})"}}},
		{kind: "timeseries", title: "Forfeits per minute, by kind", unit: "suffix: seats/min", w: 12, h: 8, min: ptr(0), steps: []step{base("green"), from(1, "orange")},
			desc: "Seats that ended in a timeout, crash, illegal choice or protocol error, per minute over $__rate_interval.",
			queries: []target{{expr: `sum by (bot, ending) (rate(arena_seat_endings_total{job=~"$job", instance=~"$instance", bot=~"$bot", ending!="ok"}[$__rate_interval])) * 60`,
				legend: "{{bot}} {{ending}}"}}},
		{kind: "timeseries", title: "Share of seats forfeited", unit: "percentunit", w: 12, h: 8, min: ptr(0), max: ptr(1),
			steps: []step{base("green"), from(0.05, "orange"), from(0.25, "red")},
			desc:  "Share of a bot's seats that ended in a forfeit over $__rate_interval (not since the process started). Orange from 5%; red from 25%, where a run disqualifies the bot by default.",
			queries: []target{{expr: `sum by (bot) (rate(arena_seat_endings_total{job=~"$job", instance=~"$instance", bot=~"$bot", ending!="ok"}[$__rate_interval])) / sum by (bot) (rate(arena_seat_endings_total{job=~"$job", instance=~"$instance", bot=~"$bot"}[$__rate_interval]))`,
				legend: "{{bot}}"}}},
		{kind: "timeseries", title: "Process restarts per minute", unit: "suffix: restarts/min", w: 8, h: 8, min: ptr(0), steps: []step{base("green"), from(0.6, "red")},
			desc:    "Bot processes started again after a crash, per minute over $__rate_interval, summed over the processes shown. Red from 3 in 5 minutes.",
			queries: []target{{expr: `sum by (bot) (rate(arena_bot_process_restarts_total{job=~"$job", instance=~"$instance", bot=~"$bot"}[$__rate_interval])) * 60`, legend: "{{bot}}"}}},
		{kind: "timeseries", title: "Live bot processes", unit: "short", w: 8, h: 8, min: ptr(0), steps: neutral,
			desc:    "Bot processes alive now: one per bot while a run plays, 0 after it.",
			queries: []target{{expr: `sum by (bot) (arena_bot_processes{job=~"$job", instance=~"$instance", bot=~"$bot"})`, legend: "{{bot}}"}}},
		{kind: "timeseries", title: "Time bank used p99", unit: "percentunit", w: 8, h: 8, min: ptr(0), max: ptr(1),
			steps:   []step{base("green"), from(0.5, "orange"), from(0.9, "red")},
			desc:    "99th percentile over $__rate_interval of the share of its time bank a seat spent in one complete match. Red from 90%: the bot is about to time out.",
			queries: []target{{expr: quantile("0.99", "arena_seat_bank_used_ratio", "bot", `job=~"$job", instance=~"$instance", bot=~"$bot"`), legend: "{{bot}}"}}},
		{kind: "timeseries", title: "Crashes per 100 decisions", unit: "none", w: 24, h: 8, min: ptr(0), steps: []step{base("green"), from(1, "red")},
			desc: "Bot processes restarted after a crash per 100 decisions asked of the bot, over $__rate_interval, summed over every process of a ladder (its workers) or of the matches. Red from 1, where the crash-loop alert starts (with at least 3 crashes in 15 minutes).",
			queries: []target{{expr: `100 * sum by (ladder, bot) (rate(arena_bot_process_restarts_total{job=~"$job", instance=~"$instance", bot=~"$bot"}[$__rate_interval])) / sum by (ladder, bot) (rate(arena_decisions_total{job=~"$job", instance=~"$instance", bot=~"$bot"}[$__rate_interval]))`,
				legend: "{{bot}} {{ladder}}"}}},
		{kind: "bargauge", title: "Disqualifications", unit: "short", w: 24, h: 6, min: ptr(0), steps: []step{base("green"), from(1, "red")},
			desc:    "Times a bot was disqualified in the dashboard's time range for forfeiting more than the run's --max-forfeit-share of its matches.",
			queries: []target{{expr: `sum by (bot) (` + bornInRange(`arena_bot_disqualified_total{job=~"$job", instance=~"$instance", bot=~"$bot"}`) + `)`, legend: "{{bot}}", instant: true}}},
	},
}

// ladderSel selects the ladder series of the dashboard's variables.
const ladderSel = `job=~"$job", instance=~"$instance", ladder=~"$ladder", game=~"$game"`

// ladderVars pick a job, a target, a ladder and a game: every ladder panel shows each
// ladder and game apart.
var ladderVars = []variable{{"job", "label_values(arena_ladder_games_total, job)"},
	{"instance", `label_values(arena_ladder_games_total{job=~"$job"}, instance)`},
	{"ladder", `label_values(arena_ladder_games_total{job=~"$job", instance=~"$instance"}, ladder)`},
	{"game", `label_values(arena_ladder_games_total{job=~"$job", instance=~"$instance", ladder=~"$ladder"}, game)`}}

// perLadder names a series by its ladder and game.
const perLadder = "{{ladder}} {{game}}"

var ladderOverview = spec{
	file: "ladder-overview.json", uid: "arena-ladder-overview", title: "Ladder overview",
	desc: "Each ladder as its database knows it: ratings with their intervals, games, score, forfeits, refits and store errors, by ladder and game. Every total is read from the database, so it survives a restart.",
	vars: append(ladderVars[:len(ladderVars):len(ladderVars)], variable{"bot", `label_values(arena_ladder_bot_games_total{` + ladderSel + `}, bot)`}),
	panels: []panel{
		{kind: "timeseries", title: "Official Elo with 95% interval: $bot", unit: "none", w: 8, h: 8, steps: neutral, band: true, repeat: "bot",
			desc: "The maximum-likelihood Elo of the bot's version that plays (random = 0) at each refit, on each ladder and game, with its 95% bootstrap interval as dashed lines.",
			queries: []target{
				{expr: `max by (ladder, game, bot) (arena_ladder_rating_elo{` + ladderSel + `, bot=~"$bot", kind="official"})`, legend: perLadder},
				{expr: `max by (ladder, game, bot) (arena_ladder_rating_elo_lower{` + ladderSel + `, bot=~"$bot"})`, legend: perLadder + " lower"},
				{expr: `max by (ladder, game, bot) (arena_ladder_rating_elo_upper{` + ladderSel + `, bot=~"$bot"})`, legend: perLadder + " upper"}}},
		{kind: "timeseries", title: "Live Elo", unit: "none", w: 12, h: 8, steps: neutral,
			desc:    "Elo updated after every game in recorded order (follows recent form), as of the last refit.",
			queries: []target{{expr: `max by (ladder, game, bot, version) (arena_ladder_rating_elo{` + ladderSel + `, bot=~"$bot", kind="live"})`, legend: "{{bot}} v{{version}} (" + perLadder + ")"}}},
		{kind: "bargauge", title: "Games per bot", unit: "short", w: 12, h: 8, steps: neutral, min: ptr(0),
			desc:    "Games each bot's version that plays played, on each ladder and game, read from the database (unchanged by a restart).",
			queries: []target{{expr: `sum by (ladder, game, bot) (arena_ladder_bot_games_total{` + ladderSel + `, bot=~"$bot"})`, legend: "{{bot}} (" + perLadder + ")", instant: true}}},
		{kind: "timeseries", title: "Score rate", unit: "percentunit", w: 12, h: 8, min: ptr(0), max: ptr(1),
			steps:   []step{base("red"), from(0.5, "green")},
			desc:    "Mean share of opponents each bot finished ahead of over all its recorded games (ties half), on each ladder and game. Green from 50%: better than the average opponent it met.",
			queries: []target{{expr: `sum by (ladder, game, bot) (arena_ladder_bot_score_total{` + ladderSel + `, bot=~"$bot"}) / sum by (ladder, game, bot) (arena_ladder_bot_games_total{` + ladderSel + `, bot=~"$bot"})`, legend: "{{bot}} (" + perLadder + ")"}}},
		{kind: "timeseries", title: "Games recorded per minute", unit: "suffix: games/min", w: 12, h: 8, min: ptr(0), steps: []step{base("red"), from(0.1, "green")},
			desc:    "Games written to each ladder's database per minute over $__rate_interval (the database's count, so a restart is no reset). Red when none: the stalled-ladder alert follows after 10 minutes.",
			queries: []target{{expr: `sum by (ladder, game) (rate(arena_ladder_games_total{` + ladderSel + `}[$__rate_interval])) * 60`, legend: perLadder}}},
		{kind: "timeseries", title: "Share of ladder seats forfeited", unit: "percentunit", w: 12, h: 8, min: ptr(0), max: ptr(1),
			steps: []step{base("green"), from(0.05, "orange"), from(0.25, "red")},
			desc:  "Share of each bot's recorded games in which it forfeited its seat, over $__rate_interval (from the database's counts), on each ladder and game. Orange from 5%, red from 25%.",
			queries: []target{{expr: `sum by (ladder, game, bot) (increase(arena_ladder_bot_forfeits_total{` + ladderSel + `, bot=~"$bot"}[$__rate_interval])) / sum by (ladder, game, bot) (increase(arena_ladder_bot_games_total{` + ladderSel + `, bot=~"$bot"}[$__rate_interval]))`,
				legend: "{{bot}} (" + perLadder + ")"}}},
		{kind: "stat", title: "Since the last game", unit: "s", w: 6, h: 6, steps: []step{base("green"), from(300, "orange"), from(600, "red")},
			desc:    "Time since each ladder's database recorded its last game of each game. Red from 10 minutes, where the stalled-ladder alert starts.",
			queries: []target{{expr: `time() - max by (ladder, game) (arena_ladder_last_game_timestamp_seconds{` + ladderSel + `})`, legend: perLadder, instant: true}}},
		{kind: "stat", title: "Active bots", unit: "short", w: 6, h: 6, steps: []step{base("red"), from(2, "green")},
			desc:    "Bot versions that play on each ladder (neither retired nor suspended). Red under 2: no table can be formed.",
			queries: []target{{expr: `min by (ladder, game) (arena_ladder_active_bots{` + ladderSel + `})`, legend: perLadder, instant: true}}},
		{kind: "stat", title: "Suspended bots", unit: "short", w: 6, h: 6, steps: []step{base("green"), from(1, "orange")},
			desc:    "Bot versions suspended on each ladder for timing out or crashing too often (arena bot reinstate lifts it). Orange from one.",
			queries: []target{{expr: `max by (ladder, game) (arena_ladder_suspended_bots{` + ladderSel + `})`, legend: perLadder, instant: true}}},
		{kind: "stat", title: "Last refit", unit: "short", w: 6, h: 6, steps: []step{base("green"), from(1, "red")},
			mappings: map[string]string{"0": "ok", "1": "failed"},
			desc:     "Whether each ladder's last refit of the official ratings failed (the ratings then show the last good fit).",
			queries:  []target{{expr: `max by (ladder, game) (arena_ladder_refit_failed{` + ladderSel + `})`, legend: perLadder, instant: true}}},
		{kind: "stat", title: "Refit age", unit: "s", w: 8, h: 6, steps: []step{base("green"), from(300, "orange")},
			desc:    "Time since each ladder's official ratings were last refitted (every --refresh, 1 minute by default). Orange from 5 minutes.",
			queries: []target{{expr: `time() - min by (ladder, game) (arena_ladder_refit_timestamp_seconds{` + ladderSel + `})`, legend: perLadder, instant: true}}},
		{kind: "timeseries", title: "Refit duration", unit: "s", w: 8, h: 6, min: ptr(0), steps: []step{base("green"), from(10, "orange")},
			desc:    "How long each ladder's last refit (maximum-likelihood fit and 200 bootstrap resamples) took. Orange from 10 s, the target for a million games.",
			queries: []target{{expr: `max by (ladder, game) (arena_ladder_refit_duration_seconds{` + ladderSel + `})`, legend: perLadder}}},
		{kind: "stat", title: "Totals' age", unit: "s", w: 8, h: 6, steps: []step{base("green"), from(10, "orange"), from(60, "red")},
			desc:    "Time since each ladder's totals (the running aggregates every series here is read from) last caught up with its database, every second while it answers. A scrape answers from them however slow the database is, so an unreadable or locked database shows here, not as a failed scrape. Red from a minute, where the totals-behind alert starts.",
			queries: []target{{expr: `time() - max by (ladder, game) (arena_ladder_store_read_timestamp_seconds{` + ladderSel + `})`, legend: perLadder, instant: true}}},
		{kind: "stat", title: "Replays' disk free", unit: "percentunit", w: 24, h: 6, min: ptr(0), max: ptr(1), steps: []step{base("red"), from(0.1, "orange"), from(0.25, "green")},
			desc:    "Share of the file system that holds each ladder's replays still free, on each machine that writes them. Red under 10%, where the disk alert starts: a full disk stops the recording of games.",
			queries: []target{{expr: `min by (ladder, instance) (arena_ladder_replays_disk_free_bytes{job=~"$job", instance=~"$instance", ladder=~"$ladder"} / arena_ladder_replays_disk_size_bytes{job=~"$job", instance=~"$instance", ladder=~"$ladder"})`, legend: "{{ladder}} {{instance}}", instant: true}}},
		{kind: "timeseries", title: "Store and refit errors per minute", unit: "suffix: errors/min", w: 24, h: 8, min: ptr(0), steps: []step{base("green"), from(0.001, "red")},
			desc: "Failed calls to each ladder's database, by operation, and failed refits, per minute over $__rate_interval. Any is red.",
			queries: []target{
				{expr: `sum by (ladder, op) (rate(arena_ladder_store_errors_total{job=~"$job", instance=~"$instance", ladder=~"$ladder"}[$__rate_interval])) * 60`, legend: "{{ladder}} store {{op}}"},
				{expr: `sum by (ladder) (rate(arena_ladder_refits_total{job=~"$job", instance=~"$instance", ladder=~"$ladder", outcome="error"}[$__rate_interval])) * 60`, legend: "{{ladder}} refit"}}},
	},
}

// workerLegend names a worker by its machine and registered ID.
const workerLegend = "{{ladder}} {{host}} #{{worker}}"

var ladderFleet = spec{
	file: "ladder-fleet.json", uid: "arena-ladder-fleet", title: "Ladder fleet",
	desc: "A ladder shared by many machines (PostgreSQL, arena ladder serve and arena worker): the work queue and the workers, as the database knows them.",
	// Every process of a fleet, the coordinator and each worker, has connection pools:
	// the job and ladder variables list them all (the pool panel shows each process);
	// the queue and worker panels are the coordinator's series.
	vars: []variable{{"job", "label_values(arena_db_pool_max_connections, job)"}, {"ladder", `label_values(arena_db_pool_max_connections{job=~"$job"}, ladder)`},
		{"host", `label_values(arena_ladder_worker_slots{ladder=~"$ladder"}, host)`}},
	panels: []panel{
		{kind: "stat", title: "Workers alive", unit: "short", w: 6, h: 6, steps: []step{base("red"), from(1, "green")},
			desc:    "Workers that heartbeat within the last 30 s (three heartbeats). Red at none: the queue does not move.",
			queries: []target{{expr: `max by (ladder) (arena_ladder_workers_alive{job=~"$job", ladder=~"$ladder"})`, legend: "{{ladder}}", instant: true}}},
		{kind: "stat", title: "Blocks queued", unit: "short", w: 6, h: 6, steps: neutral,
			desc:    "Blocks waiting in the work queue (enqueued, not yet taken, or waiting for a retry). The coordinator keeps it at about --queue-depth.",
			queries: []target{{expr: `max by (ladder) (arena_ladder_queue_depth{job=~"$job", ladder=~"$ladder"})`, legend: "{{ladder}}", instant: true}}},
		{kind: "stat", title: "Oldest queued block", unit: "s", w: 6, h: 6, steps: []step{base("green"), from(600, "orange"), from(1200, "red")},
			desc:    "How long the oldest waiting block has been in the queue. Orange from 10 minutes; red from 20, where the queue-stalled alert starts if workers are alive.",
			queries: []target{{expr: `max by (ladder) (arena_ladder_queue_oldest_age_seconds{job=~"$job", ladder=~"$ladder"})`, legend: "{{ladder}}", instant: true}}},
		{kind: "stat", title: "Games per second, all workers", unit: "suffix: games/s", w: 6, h: 6, steps: neutral,
			desc:    "Games the workers recorded in the last minute, per second, summed over workers.",
			queries: []target{{expr: `sum by (ladder) (arena_ladder_worker_games_per_second{job=~"$job", ladder=~"$ladder"})`, legend: "{{ladder}}", instant: true}}},
		{kind: "timeseries", title: "Queue depth and workers alive", unit: "short", w: 12, h: 8, steps: neutral, min: ptr(0),
			desc: "Blocks waiting in the queue and workers alive, over time: a queue that grows while workers are alive means blocks outrun the workers.",
			queries: []target{
				{expr: `max by (ladder) (arena_ladder_queue_depth{job=~"$job", ladder=~"$ladder"})`, legend: "{{ladder}} blocks queued"},
				{expr: `max by (ladder) (arena_ladder_workers_alive{job=~"$job", ladder=~"$ladder"})`, legend: "{{ladder}} workers alive"}}},
		{kind: "timeseries", title: "Oldest queued block age", unit: "s", w: 12, h: 8, min: ptr(0), steps: []step{base("green"), from(600, "orange"), from(1200, "red")},
			desc:    "Age of the oldest waiting block over time. A queue that moves keeps it near a block's playing time times the depth; a line that only climbs is a stall.",
			queries: []target{{expr: `max by (ladder) (arena_ladder_queue_oldest_age_seconds{job=~"$job", ladder=~"$ladder"})`, legend: "{{ladder}}"}}},
		{kind: "timeseries", title: "Games per second per worker", unit: "suffix: games/s", w: 12, h: 8, min: ptr(0), steps: neutral,
			desc:    "Games each worker recorded in the last minute, per second, as the database counts them (so a worker's restart changes nothing).",
			queries: []target{{expr: `max by (ladder, worker, host) (arena_ladder_worker_games_per_second{job=~"$job", ladder=~"$ladder", host=~"$host"})`, legend: workerLegend}}},
		{kind: "timeseries", title: "Games per second per slot", unit: "suffix: games/s", w: 12, h: 8, min: ptr(0), steps: neutral,
			desc: "A worker's games per second divided by the games it plays at once (-j): comparable across machines of any size; a slow machine shows lower.",
			queries: []target{{expr: `max by (ladder, worker, host) (arena_ladder_worker_games_per_second{job=~"$job", ladder=~"$ladder", host=~"$host"}) / max by (ladder, worker, host) (arena_ladder_worker_slots{job=~"$job", ladder=~"$ladder", host=~"$host"})`,
				legend: workerLegend}}},
		{kind: "timeseries", title: "Worker heartbeat age", unit: "s", w: 12, h: 8, min: ptr(0), steps: []step{base("green"), from(30, "orange"), from(60, "red")},
			desc:    "How long ago each running worker last heartbeat (every 10 s). Orange from 30 s, where it no longer counts as alive; red from 60 s, where the worker-gone alert starts.",
			queries: []target{{expr: `max by (ladder, worker, host) (arena_ladder_worker_heartbeat_age_seconds{job=~"$job", ladder=~"$ladder", host=~"$host"})`, legend: workerLegend}}},
		{kind: "stat", title: "Blocks waiting for a retry", unit: "short", w: 12, h: 8, steps: []step{base("green"), from(1, "orange")},
			desc:    "Queued blocks whose job failed an attempt and wait for the next one (River retries with a growing backoff, then gives up). Orange from one: the workers' logs say why.",
			queries: []target{{expr: `max by (ladder) (arena_ladder_queue_retrying{job=~"$job", ladder=~"$ladder"})`, legend: "{{ladder}}", instant: true}}},
		{kind: "timeseries", title: "Database pool use", unit: "percentunit", w: 12, h: 8, min: ptr(0), max: ptr(1), steps: []step{base("green"), from(0.9, "red")},
			desc:    "Share of each PostgreSQL pool's connections in use, on the coordinator and every worker (pool store: the ladder's tables; queue: River's). Red from 90%, where callers start to wait and the pool alert looks.",
			queries: []target{{expr: `max by (ladder, instance, pool) (arena_db_pool_acquired_connections{job=~"$job", ladder=~"$ladder"}) / max by (ladder, instance, pool) (arena_db_pool_max_connections{job=~"$job", ladder=~"$ladder"})`, legend: "{{ladder}} {{instance}} {{pool}}"}}},
		{kind: "table", title: "Workers", unit: "short", w: 12, h: 8, steps: []step{base("red"), from(1, "green")},
			mappings: map[string]string{"0": "gone", "1": "alive"},
			desc:     "Every running worker the database lists, by machine and registered ID: alive, or gone silent without stopping (for up to a day; a stopped worker leaves the list).",
			queries:  []target{{expr: `max by (ladder, worker, host) (arena_ladder_worker_alive{job=~"$job", ladder=~"$ladder", host=~"$host"})`, legend: workerLegend, instant: true}}},
	},
}

// webSel selects the web service's series of the dashboard's variables.
const webSel = `job=~"$job", instance=~"$instance", ladder=~"$ladder", route=~"$route"`

var ladderWeb = spec{
	file: "ladder-web.json", uid: "arena-ladder-web", title: "Ladder web service",
	desc: "The web service of each ladder (arena ladder serve): requests by route and status, their share of server errors, how long they take and how many are in flight.",
	vars: []variable{{"job", "label_values(arena_http_requests_total, job)"},
		{"instance", `label_values(arena_http_requests_total{job=~"$job"}, instance)`},
		{"ladder", `label_values(arena_http_requests_total{job=~"$job", instance=~"$instance"}, ladder)`},
		{"route", `label_values(arena_http_requests_total{job=~"$job", instance=~"$instance", ladder=~"$ladder"}, route)`}},
	panels: []panel{
		{kind: "timeseries", title: "Requests per second by route and code", unit: "reqps", w: 12, h: 8, min: ptr(0), steps: neutral,
			desc: "Requests each ladder's web service answered per second over $__rate_interval, by the route that served them (the pattern, such as GET /games/{id}; empty for a path no route serves) and status code.",
			queries: []target{{expr: `sum by (ladder, route, code) (rate(arena_http_requests_total{` + webSel + `}[$__rate_interval]))`,
				legend: "{{ladder}} {{route}} {{code}}"}}},
		{kind: "timeseries", title: "Share of requests answered 5xx", unit: "percentunit", w: 12, h: 8, min: ptr(0), max: ptr(1),
			steps: []step{base("green"), from(0.01, "orange"), from(0.05, "red")},
			desc:  "Share of each ladder's requests over $__rate_interval that the service answered with a server error (0 while there is none). Red from 5%, where the HTTP-errors alert starts (with at least 5 in 5 minutes); the service's log names each one's cause by request ID.",
			queries: []target{{expr: `(sum by (ladder) (rate(arena_http_requests_total{` + webSel + `, code=~"5.."}[$__rate_interval])) or 0 * sum by (ladder) (rate(arena_http_requests_total{` + webSel + `}[$__rate_interval])))` +
				` / sum by (ladder) (rate(arena_http_requests_total{` + webSel + `}[$__rate_interval]))`, legend: "{{ladder}}"}}},
		{kind: "timeseries", title: "Request duration p50 / p99 by route", unit: "s", w: 12, h: 8, min: ptr(0), steps: []step{base("green"), from(1, "orange")},
			desc: "Median and 99th percentile of the time each route took to answer over $__rate_interval. Orange from a second.",
			queries: []target{
				{expr: quantile("0.5", "arena_http_request_duration_seconds", "ladder, route", webSel), legend: "{{ladder}} {{route}} p50"},
				{expr: quantile("0.99", "arena_http_request_duration_seconds", "ladder, route", webSel), legend: "{{ladder}} {{route}} p99"}}},
		{kind: "timeseries", title: "Requests in flight", unit: "short", w: 12, h: 8, min: ptr(0), steps: neutral,
			desc:    "Requests each ladder's web service is answering at the scrape (past the read of their headers and body).",
			queries: []target{{expr: `sum by (ladder, instance) (arena_http_requests_in_flight{job=~"$job", instance=~"$instance", ladder=~"$ladder"})`, legend: "{{ladder}} {{instance}}"}}},
	},
}

// bornInRange is the increase of counter over the dashboard's range, counting the
// series born in it from zero: increase() takes a series' first sample as its start, so
// a run that stopped (or disqualified a bot) before its first scrape, as a short run
// can, would add nothing. A series absent at the range's start counts its whole value.
func bornInRange(counter string) string {
	return `(` + counter + ` unless ` + counter + ` offset $__range) or increase(` + counter + `[$__range])`
}
