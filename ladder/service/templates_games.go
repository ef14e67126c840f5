package service

// gamesSource is /games (its filters, a page of games, the pages beside it) and
// the bot page's list of forfeits, each linked to the decision where it happened.
const gamesSource = `
{{define "games"}}{{template "head" .}}{{with .Data}}<h2>Games</h2>
<form method="get" action="/games" id="filters">
<label>bot <input name="bot" value="{{.Filter.bot}}" size="14"></label>
<label>version <input name="version" value="{{.Filter.version}}" size="3"></label>
<label>author <input name="author" value="{{.Filter.author}}" size="10"></label>
<label>ending <select name="ending"><option value="">any</option>{{range .Endings}}<option{{if eq . $.Data.Filter.ending}} selected{{end}}>{{.}}</option>{{end}}</select></label>
<label>from <input name="from" value="{{.Filter.from}}" placeholder="YYYY-MM-DD" size="10"></label>
<label>to <input name="to" value="{{.Filter.to}}" placeholder="YYYY-MM-DD" size="10"></label>
<button>show</button> <a href="/games">all games</a></form>
{{template "pager" .}}
{{if not .Games}}<p id="none">No games match.</p>{{else}}
<table id="games"><tr><th>game</th><th>finished (UTC)</th><th>seats: bot, place, ending</th></tr>
{{range $g := .Games}}<tr><td><a href="{{.Page}}">#{{.ID}}</a></td><td>{{.Finished}}</td>
<td>{{range .Seats}}<span class="seat">{{.Seat}}: <a href="/bots/{{.BotID}}">{{.Bot}} v{{.Version}}</a>{{with .Author}} ({{.}}){{end}}, place {{.Place}}{{if ne .Ending "ok"}}, <a class="forfeit err" href="{{if .AtStep}}{{.AtStep}}{{else}}/games/{{$g.ID}}?seat={{.Seat}}{{end}}">{{.Ending}}{{with .Step}} at decision {{.}}{{end}}</a>{{end}}</span>; {{end}}</td></tr>
{{end}}</table>{{template "pager" .}}{{end}}{{end}}{{template "foot"}}{{end}}

{{define "pager"}}<p class="pager">{{if .Newer}}<a rel="prev" class="newer" href="{{.Newer}}">newer games</a> {{end}}{{if .Older}}<a rel="next" class="older" href="{{.Older}}">older games</a>{{end}}</p>{{end}}

{{define "botgames"}}<h3>Forfeits</h3>
{{if not .Forfeits}}<p>No forfeits.</p>{{else}}<table id="forfeits"><tr><th>game</th><th>finished (UTC)</th><th>seat</th><th>ending</th><th>where</th><th></th></tr>
{{range .Forfeits}}<tr><td><a href="/games/{{.Game}}">#{{.Game}}</a></td><td>{{.Finished}}</td><td>{{.Seat}}</td><td>{{.Ending}}</td>
<td><a class="step" href="{{.At}}">{{with .Step}}decision {{.}}{{else}}the game, seat's view{{end}}</a></td><td><a href="{{.Stderr}}">stderr</a> <span class="note">(its author)</span></td></tr>
{{end}}</table>{{end}}
<p>{{if .More}}Only the latest {{len .Forfeits}} are listed. {{end}}<a id="allforfeits" href="{{.All}}">every forfeit</a> · <a id="allgames" href="{{.Games}}">every game</a></p>{{end}}
`
