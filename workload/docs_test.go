package workload

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestDocsCounts checks the instance-count table of docs/templates.md against
// Count on the seed-0 datasets at sf=1 and sf=10, and against LinGBM's table.
func TestDocsCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the sf=10 metadata")
	}
	doc, err := os.ReadFile("../docs/templates.md")
	if err != nil {
		t.Fatal(err)
	}
	num := func(s string) int64 {
		n, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), 10, 64)
		if err != nil {
			t.Fatalf("not a number: %q", s)
		}
		return n
	}
	rows := 0
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 8 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "QT") {
			continue // not a row of the counts table
		}
		rows++
		tp, err := TemplateByName(cells[1])
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			sf               int
			gqlbench, lingbm string
		}{{1, cells[2], cells[3]}, {10, cells[4], cells[5]}} {
			n, err := Count(testMeta(t, c.sf), tp.ID)
			if err != nil {
				t.Fatal(err)
			}
			if n.Int64() != num(c.gqlbench) {
				t.Errorf("%s sf=%d: the docs say %s, Count says %v", tp.Name, c.sf, c.gqlbench, n)
			}
			if l, _ := LinGBMCount(tp.ID, c.sf); l != num(c.lingbm) {
				t.Errorf("%s sf=%d: the docs say LinGBM %s, the table in the package %d", tp.Name, c.sf, c.lingbm, l)
			}
		}
	}
	if rows != NumTemplates {
		t.Errorf("the counts table of docs/templates.md has %d rows, want %d", rows, NumTemplates)
	}
}

// TestDocsChokePoints checks the choke-point table of docs/templates.md
// against the templates' headers.
func TestDocsChokePoints(t *testing.T) {
	doc, err := os.ReadFile("../docs/templates.md")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	for _, tp := range Templates() {
		for _, cp := range tp.ChokePoints {
			want[cp] = append(want[cp], tp.Name)
		}
	}
	rows := 0
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || ChokePointNames[strings.TrimSpace(cells[1])] == "" {
			continue
		}
		rows++
		cp := strings.TrimSpace(cells[1])
		got := strings.TrimSpace(cells[3])
		if w := strings.Join(want[cp], ", "); got != w && !(w == "" && strings.HasPrefix(got, "—")) {
			t.Errorf("CP %s: the docs list %q, the templates %q", cp, got, w)
		}
	}
	if rows != len(ChokePointNames) {
		t.Errorf("%d choke points in the docs, want %d", rows, len(ChokePointNames))
	}
}
