package report

import (
	"html/template"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/gqlbench/gqlbench/report/plot"
)

// foldRows is the most rows a table shows unfolded in HTML; longer tables
// are folded (<details>) below the charts.
const foldRows = 12

// chartView is a chart as the page shows it.
type chartView struct {
	ID, Title, Caption string
	SVG                template.HTML
	Legend             []plot.Legend
	Class              string // normal, wide, small or heatmap
	MinWidth           int    // px: narrower, it scrolls instead of shrinking its text
}

// sectionView is a section as the page shows it.
type sectionView struct {
	section
	ChartViews []chartView
	SubViews   []sectionView
}

// writeHTML writes one self-contained page: inline CSS, inline SVG charts,
// no script, no external reference, so it renders without a network. It
// opens on the answer (the headline, the correctness verdict and the
// overview's heat map), then the charts, then the tables folded.
func (r *Report) writeHTML(w io.Writer) error {
	var secs []sectionView
	for _, s := range r.sections() {
		secs = append(secs, viewOf(s))
	}
	return pageTemplate.Execute(w, struct {
		Title    string
		Sections []sectionView
	}{r.Title, secs})
}

func viewOf(s section) sectionView {
	v := sectionView{section: s}
	for i := range v.Tables {
		t := &v.Tables[i]
		t.Long = t.Long || len(t.Rows) > foldRows
		t.Text = textColumns(*t)
	}
	for _, c := range s.Charts {
		class := map[plot.Size]string{plot.Normal: "normal", plot.Wide: "wide", plot.Small: "small"}[c.Size]
		if len(c.ID) > 7 && c.ID[:7] == "heatmap" {
			class = "heatmap"
		}
		// The SVG is drawn by gonum/plot, which escapes every text it
		// draws, or by heatmap, which escapes its labels (they come from
		// run files).
		v.ChartViews = append(v.ChartViews, chartView{c.ID, c.Title, c.Caption, template.HTML(c.SVG), c.Legend, class, c.MinWidthPx()})
	}
	for _, sub := range s.Subs {
		v.SubViews = append(v.SubViews, viewOf(sub))
	}
	return v
}

// textColumns marks the columns of words, aligned left; columns of
// figures align right. A figure starts with a digit, a sign or a bracket
// and has a few words at most ("12 (timeout 2)", "[1.0, 2.0]").
func textColumns(t table) []bool {
	out := make([]bool, len(t.Head))
	for j := range out {
		for _, row := range t.Rows {
			if j >= len(row) || row[j] == "" {
				continue
			}
			if c, _ := utf8.DecodeRuneInString(row[j]); !strings.ContainsRune("0123456789-–+[<", c) || strings.Count(row[j], " ") > 4 {
				out[j] = true
				break
			}
		}
	}
	return out
}

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="gqlbench report">
<meta name="color-scheme" content="light dark">
<title>{{.Title}}</title>
<style>` + pageCSS + `</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{range $i, $s := .Sections}}{{if eq $i 1}}<nav aria-label="contents"><b>Details:</b> {{range $.Sections}}{{if ne .ID "overview"}}<a href="#{{.ID}}">{{.Title}}</a> {{end}}{{end}}</nav>
{{end}}<section id="{{.ID}}"{{if eq .ID "overview"}} class="overview"{{end}}>
{{if eq .ID "overview"}}{{if .Lead}}<div class="lead" id="headline"><p>{{range $i, $l := .Lead}}{{if eq $i 0}}<b>{{$l}}</b>{{else}} {{$l}}{{end}}{{end}}</p>
{{if .Caveats}}<p class="caveats">{{range $i, $l := .Caveats}}{{if $i}} {{end}}{{$l}}{{end}}</p>
{{end}}</div>
{{end}}{{if .Verdict}}<p class="verdict {{if .VerdictBad}}bad{{else}}ok{{end}}" id="verdict">{{.Verdict}}</p>
{{end}}{{else}}<h2>{{.Title}}</h2>
{{end}}{{template "body" .}}</section>
{{end}}</body>
</html>
{{define "body"}}{{range .Alerts}}<div class="alert">{{.}}</div>
{{end}}{{range .Paras}}<p>{{.}}</p>
{{end}}{{if .ChartViews}}<div class="charts">
{{range .ChartViews}}{{template "figure" .}}{{end}}</div>
{{end}}{{range .Cautions}}<div class="alert caution">{{.}}</div>
{{end}}{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{range .Tables}}{{template "table" .}}{{end}}{{if .Links}}<p class="links">{{range .Links}}<a href="#{{.ID}}">{{.Text}}</a> {{end}}</p>
{{end}}{{range .SubViews}}<div class="sub" id="{{.ID}}">
<h3>{{.Title}}</h3>
{{template "body" .}}</div>
{{end}}{{end}}
{{define "figure"}}<figure id="{{.ID}}" class="{{.Class}}">
<figcaption class="title">{{.Title}}</figcaption>
{{if .Legend}}<ul class="legend">{{range .Legend}}<li>{{template "swatch" .}}{{.Name}}</li>{{end}}</ul>
{{end}}<div class="plot"><div style="min-width:{{.MinWidth}}px">{{.SVG}}</div></div>
{{if .Caption}}<figcaption>{{.Caption}}</figcaption>
{{end}}</figure>
{{end}}
{{define "swatch"}}<svg width="24" height="12" viewBox="0 0 24 12" aria-hidden="true">{{if eq .Mark "box"}}<rect x="5" y="0.5" width="14" height="11" fill="{{.Color}}"{{if .Wrong}} stroke="#c00000" stroke-width="2"{{end}}/>{{else}}<line x1="0" y1="6" x2="24" y2="6" stroke="{{.Color}}" stroke-width="2.5"{{if .Dash}} stroke-dasharray="{{.Dash}}"{{end}}/>{{end}}</svg>{{end}}
{{define "table"}}<h3>{{.Title}}</h3>
{{if .Note}}<p class="note">{{.Note}}</p>
{{end}}{{if .Long}}<details><summary>Show the table ({{len .Rows}} rows)</summary>
{{end}}{{$t := .}}<div class="scroll"><table>
<thead><tr>{{range $j, $h := .Head}}<th{{if index $t.Text $j}} class="t"{{end}}>{{$h}}</th>{{end}}</tr></thead>
<tbody>
{{range $i, $row := .Rows}}<tr{{if index $t.Flag $i}} class="flag"{{end}}>{{range $j, $c := $row}}<td{{if index $t.Text $j}} class="t"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
{{if .Long}}</details>
{{end}}{{end}}`))

// pageCSS styles the page: light and dark colour schemes (the charts keep
// their white ground in both), narrow windows, and print.
const pageCSS = `
:root { color-scheme: light dark; --fg: #1b1f23; --muted: #57606a; --bg: #ffffff; --rule: #d0d7de; --head: #f6f8fa;
  --link: #0550ae; --ok: #1a7f37; --bad: #b3261e; --alert-bg: #ffebe9; --alert-fg: #82071e; --caution-bg: #fff8c5; --caution-fg: #4d2d00;
  --caution-rule: #bf8700; --flag-bg: #fff1f0; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117; --rule: #3d444d; --head: #161b22; --link: #58a6ff; --ok: #3fb950;
    --bad: #ff7b72; --alert-bg: #3c1618; --alert-fg: #ffb1ab; --caution-bg: #2e2410; --caution-fg: #f2cc60; --caution-rule: #9e6a03; --flag-bg: #3c1618; }
}
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif; color: var(--fg); background: var(--bg);
  margin: 0 auto; max-width: 1200px; padding: .8rem 2rem 4rem; }
a { color: var(--link); }
h1 { font-size: 1.6rem; margin: .2rem 0 .3rem; line-height: 1.25; }
h2 { font-size: 1.35rem; margin: 2.2rem 0 .6rem; padding-bottom: .2rem; border-bottom: 1px solid var(--rule); }
h3 { font-size: 1.05rem; margin: 1.4rem 0 .3rem; }
.lead { margin: 0 0 .2rem; }
.lead p { margin: .15rem 0; font-size: 1.05rem; }
.lead b { font-size: 1.1rem; }
.lead p.caveats { font-size: .9rem; color: var(--muted); }
.verdict { font-weight: 600; margin: .35rem 0 .5rem; }
.verdict.ok { color: var(--ok); }
.verdict.ok::before { content: "✓ "; }
.verdict.bad { color: var(--bad); }
.verdict.bad::before { content: "✗ "; }
nav { font-size: .9rem; margin: 1.5rem 0 0; padding: .4rem 0; border-top: 1px solid var(--rule); border-bottom: 1px solid var(--rule); }
nav a { margin-right: .8rem; text-decoration: none; white-space: nowrap; }
p.note { color: var(--muted); font-size: .88rem; margin: .2rem 0 .5rem; }
p.links a { margin-right: .6rem; }
.alert { background: var(--alert-bg); border: 1px solid var(--bad); border-left-width: 5px; padding: .5rem .8rem; margin: .5rem 0;
  font-weight: 600; color: var(--alert-fg); }
.alert.caution { background: var(--caution-bg); border-color: var(--caution-rule); color: var(--caution-fg); font-weight: 500; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: .84rem; margin: .3rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--rule); padding: .25rem .5rem; text-align: right; vertical-align: top; }
th { background: var(--head); font-weight: 600; }
td:first-child, th:first-child, td.t, th.t { text-align: left; }
tr.flag td { background: var(--flag-bg); color: var(--bad); }
div.charts { display: flex; flex-wrap: wrap; gap: 0 1.5rem; align-items: flex-start; }
figure { margin: .6rem 0 1.2rem; min-width: 0; }
figure.normal { flex: 1 1 460px; max-width: 660px; }
figure.wide { flex: 1 1 100%; }
figure.small { flex: 1 1 300px; max-width: 440px; margin-bottom: .4rem; }
figure.heatmap { flex: 1 1 100%; display: flex; flex-wrap: wrap; gap: 0 1.5rem; align-items: flex-start; margin-top: .3rem; }
figure.heatmap .plot { flex: 0 1 auto; order: 1; }
figure.heatmap figcaption { flex: 1 1 15rem; order: 2; }
figure.heatmap figcaption.title, figure.heatmap ul.legend { flex-basis: 100%; order: 0; }
.plot { overflow-x: auto; }
figure svg { display: block; max-width: 100%; height: auto; }
figure.wide .plot svg { width: 100%; }
.plot svg { background: #ffffff; border-radius: 3px; }
figcaption { color: var(--muted); font-size: .85rem; max-width: 60rem; }
figcaption.title { color: var(--fg); font-weight: 600; font-size: .95rem; margin-bottom: .1rem; }
ul.legend { list-style: none; padding: 0; margin: .1rem 0 .3rem; display: flex; flex-wrap: wrap; gap: .1rem 1rem; font-size: .85rem; }
ul.legend li { display: flex; align-items: center; gap: .3rem; }
ul.legend svg { display: inline-block; }
.sub h3 { margin-top: 1.2rem; }
.sub p { margin: .1rem 0 .2rem; }
details summary { cursor: pointer; color: var(--link); margin: .3rem 0; }
@media (max-width: 720px) {
  body { padding: .6rem 1rem 3rem; }
  figure.normal, figure.small { max-width: 100%; }
}
@media print {
  :root { color-scheme: light; --fg: #000000; --muted: #333333; --bg: #ffffff; --rule: #999999; --head: #eeeeee; --link: #000000; }
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  nav, details summary { display: none; }
  details::details-content { content-visibility: visible; display: block; }
  .plot, .scroll { overflow: visible; }
  .plot > div { min-width: 0 !important; }
  figure, tr, .alert, .sub { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  a { text-decoration: none; }
  @page { margin: 1.4cm; }
}
`
