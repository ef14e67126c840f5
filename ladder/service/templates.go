package service

import (
	"html/template"
	"math"
	"sync"
)

var funcs = template.FuncMap{
	"elo": func(x float64) string {
		switch {
		case math.IsNaN(x):
			return "-"
		case math.IsInf(x, 1):
			return "+inf"
		case math.IsInf(x, -1):
			return "-inf"
		}
		return template.HTMLEscapeString(formatElo(x))
	},
	"pct": func(x float64) string {
		if math.IsNaN(x) {
			return "-"
		}
		return formatPct(x)
	},
	"size": formatSize,
	"interval": func(score float64, games int) string {
		lo, hi := scoreInterval(score, games)
		if math.IsNaN(lo) {
			return "-"
		}
		return "[" + formatPct(lo) + ", " + formatPct(hi) + "]"
	},
	"time": func(t interface{ Format(string) string }) string { return t.Format("2006-01-02 15:04:05") },
}

// tmpl is parsed on first use, not at start: every program of the arena's binary (a
// bot it serves among them) would pay the 0.4 ms and 2,400 allocations of parsing it.
var tmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.Must(template.New("").Funcs(funcs).Parse(pagesSource)).Parse(gamesSource))
})

const pagesSource = `
{{define "head"}}<!doctype html><html><head><meta charset="utf-8"><title>arena ladder: {{.Game}}</title>
<style>body{font-family:sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse}td,th{padding:3px 8px;border-bottom:1px solid #ddd;text-align:left}
nav a{margin-right:1em}nav form{display:inline}.chosen{font-weight:bold;color:#063}.hidden{color:#888}.err{color:#a00;white-space:pre-wrap}.note{color:#555;font-size:90%}</style></head>
<body><nav><a href="/">standings</a><a href="/games">games</a><a href="/live">live</a><a href="/play">play</a><a href="/me">my bots</a>{{if .Author}}<span id="who">logged in as {{.Author}}</span> <form method="post" action="/logout"><button id="logout">log out</button></form>{{else}}<a href="/login">log in</a>{{end}}</nav><h1>{{.Game}}</h1>{{end}}
{{define "foot"}}</body></html>{{end}}

{{define "error"}}{{template "head" .}}<p class="err" id="error">{{.Data}}</p>{{template "foot"}}{{end}}

{{define "standings"}}{{template "head" .}}
{{if not .Data.Tables}}<p>No games recorded yet.</p>{{end}}
{{range .Data.Tables}}<h2>{{.Game}}: {{.Games}} games{{if .Anchor}} (Elo anchored at {{.Anchor}} = 0){{end}}</h2>
<table id="standings"><tr><th>rank</th><th>bot</th><th>owner</th><th>games</th><th>Elo</th><th>95% interval</th><th></th><th>score</th><th>status</th></tr>
{{range .Rows}}<tr><td>{{.Rank}}</td><td><a href="/bots/{{.Bot.ID}}">{{.Bot.Name}} v{{.Bot.Version}}</a></td><td>{{if .Owner}}{{.Owner}}{{else}}<span class="note">the operator</span>{{end}}</td><td>{{.Games}}</td>
<td>{{elo .Elo}}</td><td>[{{elo .Low}}, {{elo .High}}]</td><td>{{.Bar}}</td><td>{{pct .Score}}</td><td>{{if .Bot.Active}}active{{else}}retired{{end}}</td></tr>
{{end}}</table>{{end}}
<p class="note">Official Elo: a maximum-likelihood fit of every recorded game, 95% interval by a bootstrap over blocks; the bar spans the interval, the dot is the rating.{{if .Data.Fitted}} Fitted {{.Data.Fitted}}.{{end}}</p>
{{template "foot"}}{{end}}

{{define "bot"}}{{template "head" .}}{{with .Data.Report}}
<h2 id="bot">{{.Bot.Name}} v{{.Bot.Version}}</h2>
<p>{{.Games}} games; {{if .Bot.Active}}active{{else}}retired{{end}}; sha256 {{.Bot.SHA256}}</p>
<h3>Rating over time (95% band)</h3>{{if .History}}{{$.Data.Chart}}{{else}}<p>No games yet.</p>{{end}}
<h3>Against each opponent</h3><table id="opponents"><tr><th>opponent</th><th>meetings</th><th>score</th><th>95% interval</th><th></th></tr>
{{range .Opponents}}<tr><td><a href="/bots/{{.Bot.ID}}">{{.Bot.Name}} v{{.Bot.Version}}</a></td><td>{{.Games}}</td><td>{{pct .Score}}</td><td>{{interval .Score .Games}}</td>
<td><a href="/games?bot={{$.Data.Report.Bot.Name}}&amp;version={{$.Data.Report.Bot.Version}}&amp;vs={{.Bot.Name}}&amp;vs_version={{.Bot.Version}}">its games</a></td></tr>{{end}}</table>
<p class="note">Score: the share of meetings finished ahead, ties half; the interval is Wilson's at 95% over the meetings.</p>
<h3>Endings</h3><table id="endings"><tr><th>ending</th><th>games</th></tr>{{range $k, $v := .Endings}}<tr><td>{{$k}}</td><td><a href="{{index $.Data.Games.ByEnding $k}}">{{$v}}</a></td></tr>{{end}}</table>
{{end}}{{template "botgames" .Data.Games}}{{template "foot"}}{{end}}

{{define "replay"}}{{template "head" .}}{{with .Data}}
<h2>Game #{{.Match}} ({{.Game}})</h2>
<p>{{range $i, $b := .Bots}}seat {{$i}}: {{$b}}; {{end}}</p>
<p><a id="watch" href="/games/{{.Match}}/watch">watch it drawn, step by step</a></p>
<p>Point of view: <a href="?seat=all&step={{.Step}}">{{if lt .Seat 0}}<b>all seats</b>{{else}}all seats{{end}}</a>
{{range .Seats}} <a href="?seat={{.}}&step={{$.Data.Step}}">{{if eq . $.Data.Seat}}<b>seat {{.}}</b>{{else}}seat {{.}}{{end}}</a>{{end}}</p>
<p class="note">The game is finished, so all of it is public: "all seats" shows every hidden card, option and choice. A seat's view shows what that seat knew while playing: public events, its own private ones and its own options; of the other seats only that they decided and how long they took.</p>
<p><a id="first" href="?seat={{if lt .Seat 0}}all{{else}}{{.Seat}}{{end}}&step=0">first</a>
<a id="prev" href="?seat={{if lt .Seat 0}}all{{else}}{{.Seat}}{{end}}&step={{.Prev}}">previous</a>
decision <span id="step">{{.Step}}</span> of {{.Steps}}
<a id="next" href="?seat={{if lt .Seat 0}}all{{else}}{{.Seat}}{{end}}&step={{.Next}}">next</a>
<a id="last" href="?seat={{if lt .Seat 0}}all{{else}}{{.Seat}}{{end}}&step={{.Last}}">last</a></p>
{{with .Current}}<div id="current"><h3>Decision {{.N}}: seat {{.Seat}} ({{.Bot}}), {{if .Forfeit}}fallback for a forfeited seat{{else}}{{.Ms}} ms{{end}}</h3>
{{range .Endings}}<p class="err">{{.}}</p>{{end}}
{{if .Text}}<p>chose: <span class="chosen">{{.Text}}</span></p><ol start="0">{{range .Options}}<li{{if .Chosen}} class="chosen"{{end}}>{{.Text}}</li>{{end}}</ol>{{else}}<p class="hidden">seat {{.Seat}} decided (hidden from this point of view)</p>{{end}}
{{if .Events}}<ul>{{range .Events}}<li>{{.}}</li>{{end}}</ul>{{end}}</div>{{end}}
{{if .Result}}<h3>Result</h3><ul id="result">{{range .Result}}<li>{{.}}</li>{{end}}</ul>{{end}}
<h3>Before this decision</h3><ul>{{range .Opening}}<li>{{.}}</li>{{end}}</ul>
<ol start="0">{{range .Past}}<li>seat {{.Seat}}: {{if .Text}}{{.Text}}{{else}}<span class="hidden">(hidden)</span>{{end}} ({{.Ms}} ms){{range .Events}}; {{.}}{{end}}</li>{{end}}</ol>
{{end}}{{template "foot"}}{{end}}

{{define "login"}}{{template "head" .}}<h2>Log in as an author</h2>
<form method="post" action="/login"><label>token <input type="password" name="token" id="token" size="50"></label> <button id="login">log in</button></form>
<p class="note">The operator gives you a token (arena author add NAME).</p>{{template "foot"}}{{end}}

{{define "me"}}{{template "head" .}}{{with .Data}}<h2>{{.Author.Name}}'s bots</h2>
{{if .Message}}<p id="message">{{.Message}}</p>{{end}}
<table id="mybots"><tr><th>bot</th><th>status</th><th>sha256</th><th></th></tr>
{{range .Bots}}<tr><td><a href="/bots/{{.ID}}">{{.Name}} v{{.Version}}</a></td><td>{{if .Active}}active{{else}}retired{{end}}</td><td>{{printf "%.12s" .SHA256}}</td>
<td><form method="post" action="/me/bots/{{.Name}}/{{if .Active}}retire{{else}}activate{{end}}"><input type="hidden" name="csrf" value="{{$.Data.CSRF}}"><button>{{if .Active}}retire{{else}}activate{{end}}</button></form>
<a href="/me/bots/{{.Name}}/stderr">stderr</a></td></tr>{{end}}</table>
<h3>Submit a bot</h3>
<form method="post" action="/me/submit" enctype="multipart/form-data" id="submit"><input type="hidden" name="csrf" value="{{.CSRF}}">
<label>name <input name="name" id="name"></label> <label>program <input type="file" name="program" id="program"></label> <button id="send">submit</button></form>
<p class="note">Limits: {{size .Limits.Upload}} per program, {{.Limits.PerDay}} submissions a day, {{.Limits.Bots}} bots. A bot is smoke-tested in the sandbox before it is added.</p>{{end}}{{template "foot"}}{{end}}
`
