package report

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/report/plot"
)

// chromium returns the path of a headless Chromium. Without one the test
// skips, unless CI is set: then it fails.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed (apt-get install chromium): CI must render the report")
	}
	t.Skip("chromium is not installed")
	return ""
}

// TestChromiumRendersCharts renders the HTML report in headless Chromium,
// and the same page with its charts removed, and checks that the charts
// put many coloured pixels on the screen.
func TestChromiumRendersCharts(t *testing.T) {
	bin := chromium(t)
	page := render(t, fixtureReport(t), "html")
	bare := regexp.MustCompile(`(?s)<svg.*?</svg>`).ReplaceAll(page, nil)
	with, without := screenshot(t, bin, page, "with"), screenshot(t, bin, bare, "without")
	t.Logf("coloured pixels: %d with charts, %d without; colours: %d with, %d without", with.coloured, without.coloured, with.colours, without.colours)
	if with.coloured < without.coloured+50000 {
		t.Errorf("the charts did not render: %d coloured pixels with them, %d without", with.coloured, without.coloured)
	}
	if with.colours < without.colours+50 {
		t.Errorf("the charts did not render: %d distinct colours with them, %d without", with.colours, without.colours)
	}
}

// TestChromiumFirstScreen lays out a quickstart-shaped report (six series,
// 16 templates, the load generator's ceiling) and the fixtures' in
// headless Chromium, 1280 and 800 px wide, and measures the page: the
// headline, the verdict and the overview's heat map lie within the first
// screen; no chart's text is drawn smaller than plot.MinTextPx; no chart holds
// more than plot.MaxBars bars or boxes; the page never scrolls sideways.
func TestChromiumFirstScreen(t *testing.T) {
	bin := chromium(t)
	qs, err := Build(quickstartRuns(t), Options{Title: "gqlbench quickstart (synthetic)",
		Notes: []string{"Quickstart: every variant in its own process, each of 16 templates for 1s after a warm-up of 1s, one client, closed loop."}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		r         *Report
		firstView bool // the headline and the heat map must fit the first screen
	}{
		{"quickstart", qs, true},
		{"fixture", fixtureReport(t), true},
	} {
		for _, width := range []int{1280, 800} {
			m := layOut(t, bin, render(t, c.r, "html"), width)
			t.Logf("%s at %d px: viewport %d×%d, headline %.0f–%.0f, heat map %.0f–%.0f, %d charts",
				c.name, width, m.W, m.H, m.Headline.Top, m.Headline.Bottom, m.Heatmap.Top, m.Heatmap.Bottom, len(m.Charts))
			checkLayout(t, c.name, width, m, c.firstView)
		}
	}
}

// layoutRect is an element's box in page coordinates (CSS px).
type layoutRect struct{ Top, Bottom, Left, Right, Width float64 }

// pageLayout is what the measuring script reports of a page.
type pageLayout struct {
	W, H, ScrollW     int
	Headline, Verdict layoutRect
	Heatmap           layoutRect
	HasHeatmap        bool
	Charts            []struct {
		ID      string
		Width   float64
		MinFont float64
		Texts   int
		Bars    int
	}
}

func checkLayout(t *testing.T, name string, width int, m pageLayout, firstView bool) {
	t.Helper()
	if m.W != width || m.H < 600 {
		t.Fatalf("%s: viewport %d×%d, want %d wide", name, m.W, m.H, width)
	}
	if m.ScrollW > m.W {
		t.Errorf("%s at %d px: the page scrolls sideways (%d px wide)", name, width, m.ScrollW)
	}
	if firstView {
		if !m.HasHeatmap {
			t.Errorf("%s: no heat map in the overview", name)
		}
		for what, r := range map[string]layoutRect{"headline": m.Headline, "verdict": m.Verdict, "heat map": m.Heatmap} {
			if r.Width <= 0 || r.Top < 0 || r.Bottom > float64(m.H) || r.Right > float64(m.W) {
				t.Errorf("%s at %d px: the %s (%.0f–%.0f, right %.0f) is not within the first screen (%d×%d)", name, width, what, r.Top, r.Bottom, r.Right, m.W, m.H)
			}
		}
	}
	if len(m.Charts) < 5 {
		t.Errorf("%s at %d px: %d charts measured", name, width, len(m.Charts))
	}
	smallest, most := 1e9, 0
	for _, c := range m.Charts {
		smallest, most = min(smallest, c.MinFont), max(most, c.Bars)
		if c.Texts == 0 || c.MinFont < plot.MinTextPx {
			t.Errorf("%s at %d px: chart %s, %.0f px wide, has text %.1f px high (want ≥ %d px; %d texts)", name, width, c.ID, c.Width, c.MinFont, plot.MinTextPx, c.Texts)
		}
		if c.Bars > plot.MaxBars {
			t.Errorf("%s at %d px: chart %s has %d bars or boxes (at most %d)", name, width, c.ID, c.Bars, plot.MaxBars)
		}
	}
	t.Logf("%s at %d px: the smallest chart text %.1f px, the most bars in a chart %d", name, width, smallest, most)
}

// measureScript measures the laid-out page and writes its findings into it,
// as JSON in <pre id="measure">, for --dump-dom to print. A chart's text
// size is its font size times the scale its SVG is drawn at; its bars and
// boxes are the shapes filled in a series' colour.
const measureScript = `<script>
(() => {
  const box = el => { if (!el) return {}; const r = el.getBoundingClientRect();
    return {Top: r.top + scrollY, Bottom: r.bottom + scrollY, Left: r.left, Right: r.right, Width: r.width}; };
  const fills = new Set(PALETTE);
  const hm = document.querySelector('figure.heatmap .plot svg');
  const out = {W: innerWidth, H: innerHeight, ScrollW: document.documentElement.scrollWidth,
    Headline: box(document.getElementById('headline')), Verdict: box(document.getElementById('verdict')),
    Heatmap: box(hm), HasHeatmap: !!hm, Charts: []};
  for (const svg of document.querySelectorAll('figure svg:not(ul.legend svg)')) {
    let min = Infinity, n = 0, bars = 0;
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent.trim()) continue;
      const m = t.getScreenCTM();
      min = Math.min(min, parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b));
      n++;
    }
    for (const p of svg.querySelectorAll('path')) {
      const f = /fill:(#[0-9A-Fa-f]{6})/.exec(p.getAttribute('style') || '');
      if (f && fills.has(f[1].toLowerCase())) bars++;
    }
    out.Charts.push({ID: svg.closest('figure').id, Width: svg.getBoundingClientRect().width, MinFont: min, Texts: n, Bars: bars});
  }
  const pre = document.createElement('pre');
  pre.id = 'measure';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>`

// layOut lays the page out in Chromium at a width and returns what the
// measuring script found.
func layOut(t *testing.T, bin string, page []byte, width int) pageLayout {
	t.Helper()
	var colours []string
	for _, c := range plot.Palette[:len(plot.Palette)-1] { // black draws the means, not bars
		colours = append(colours, `"`+plot.HexColor(c)+`"`)
	}
	script := strings.Replace(measureScript, "PALETTE", "["+strings.Join(colours, ",")+"]", 1)
	page = bytes.Replace(page, []byte("</body>"), []byte(script+"</body>"), 1)
	dir := t.TempDir()
	in := filepath.Join(dir, "page.html")
	if err := os.WriteFile(in, page, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size="+itoa(int64(width))+",900", "--dump-dom", "file://"+in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	found := regexp.MustCompile(`(?s)<pre id="measure">(.*?)</pre>`).FindSubmatch(dom)
	if found == nil {
		t.Fatalf("the measuring script did not run:\n%s", stderr.String())
	}
	var m pageLayout
	if err := json.Unmarshal([]byte(html.UnescapeString(string(found[1]))), &m); err != nil {
		t.Fatalf("measurements %q: %v", found[1], err)
	}
	return m
}

type pixels struct{ coloured, colours int }

func screenshot(t *testing.T, bin string, page []byte, name string) pixels {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, name+".html"), filepath.Join(dir, name+".png")
	if err := os.WriteFile(in, page, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--screenshot="+out, "--window-size=1280,4000", "file://"+in)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, msg)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	var p pixels
	seen := map[[3]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			seen[[3]uint32{r, g, bl}] = true
			if max(r, g, bl)-min(r, g, bl) > 60 { // saturated: not text, rules or background
				p.coloured++
			}
		}
	}
	p.colours = len(seen)
	return p
}
