package report

import (
	"html/template"
	"io"
)

// writeHTML writes one self-contained page: inline CSS, inline SVG charts,
// no script, no external reference, so it renders without a network.
func (r *Report) writeHTML(w io.Writer) error {
	type chartView struct {
		ID, Title, Caption string
		SVG                template.HTML
	}
	type sectionView struct {
		section
		ChartViews []chartView
	}
	var secs []sectionView
	for _, s := range r.sections() {
		v := sectionView{section: s}
		for _, c := range s.Charts {
			// The SVG is drawn by gonum/plot, which escapes every text it
			// draws (labels come from run files).
			v.ChartViews = append(v.ChartViews, chartView{c.ID, c.Title, c.Caption, template.HTML(c.SVG)})
		}
		secs = append(secs, v)
	}
	return pageTemplate.Execute(w, struct {
		Title    string
		Sections []sectionView
	}{r.Title, secs})
}

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="gqlbench report">
<title>{{.Title}}</title>
<style>
:root { color-scheme: light; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif; color: #1b1f23; background: #fff; margin: 0 auto; max-width: 1200px; padding: 1.5rem 2rem 4rem; }
h1 { font-size: 1.8rem; margin: 0 0 .5rem; }
h2 { font-size: 1.35rem; margin: 2.2rem 0 .6rem; padding-bottom: .2rem; border-bottom: 1px solid #d0d7de; }
h3 { font-size: 1.05rem; margin: 1.4rem 0 .3rem; }
nav { font-size: .9rem; margin-bottom: 1rem; }
nav a { margin-right: .9rem; color: #0550ae; text-decoration: none; }
p.note { color: #57606a; font-size: .88rem; margin: .2rem 0 .5rem; }
.alert { background: #ffebe9; border: 1px solid #cf222e; border-left-width: 5px; padding: .6rem .9rem; margin: .6rem 0; font-weight: 600; color: #82071e; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: .84rem; margin: .3rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #d0d7de; padding: .25rem .5rem; text-align: right; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td:first-child, th:first-child { text-align: left; }
tr.flag td { background: #fff1f0; color: #82071e; }
div.charts { display: flex; flex-wrap: wrap; gap: 0 2rem; }
figure { margin: 1rem 0 1.6rem; flex: 1 1 540px; max-width: 760px; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: #57606a; font-size: .85rem; max-width: 60rem; }
details summary { cursor: pointer; color: #0550ae; margin: .4rem 0; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<nav>{{range .Sections}}<a href="#{{.ID}}">{{.Title}}</a>{{end}}</nav>
{{range .Sections}}<section id="{{.ID}}">
<h2>{{.Title}}</h2>
{{range .Alerts}}<div class="alert">{{.}}</div>
{{end}}{{range .Paras}}<p>{{.}}</p>
{{end}}{{if .ChartViews}}<div class="charts">
{{range .ChartViews}}<figure id="{{.ID}}">
{{.SVG}}
<figcaption><b>{{.Title}}.</b> {{.Caption}}</figcaption>
</figure>
{{end}}</div>
{{end}}{{range .Tables}}<h3>{{.Title}}</h3>
{{if .Note}}<p class="note">{{.Note}}</p>
{{end}}{{if .Long}}<details><summary>{{len .Rows}} rows</summary>
{{end}}<div class="scroll"><table>
<thead><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{$t := .}}{{range $i, $row := .Rows}}<tr{{if index $t.Flag $i}} class="flag"{{end}}>{{range $row}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
{{if .Long}}</details>
{{end}}{{end}}</section>
{{end}}</body>
</html>
`))
