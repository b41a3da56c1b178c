package report

import (
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// TestChromiumRendersCharts renders the HTML report in headless Chromium,
// and the same page with its charts removed, and checks that the charts
// put many coloured pixels on the screen. Without Chromium it skips, unless
// CI is set: then it fails.
func TestChromiumRendersCharts(t *testing.T) {
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed (apt-get install chromium): CI must render the report")
		}
		t.Skip("chromium is not installed")
	}
	html := render(t, fixtureReport(t), "html")
	bare := regexp.MustCompile(`(?s)<svg.*?</svg>`).ReplaceAll(html, nil)
	with, without := screenshot(t, bin, html, "with"), screenshot(t, bin, bare, "without")
	t.Logf("coloured pixels: %d with charts, %d without; colours: %d with, %d without", with.coloured, without.coloured, with.colours, without.colours)
	if with.coloured < without.coloured+50000 {
		t.Errorf("the charts did not render: %d coloured pixels with them, %d without", with.coloured, without.coloured)
	}
	if with.colours < without.colours+50 {
		t.Errorf("the charts did not render: %d distinct colours with them, %d without", with.colours, without.colours)
	}
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
