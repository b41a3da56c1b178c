package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestVerdictPage: the verdict opens the page, the tables follow with
// their failed rows marked, in HTML and Markdown; other formats are
// refused.
func TestVerdictPage(t *testing.T) {
	p := VerdictPage{Title: "gqlbench suite batch", Lead: []string{"1 of 2 verdicts failed"}, Verdict: "FAIL", Bad: true,
		Sections: []Section{{ID: "verdicts", Title: "Verdicts", Tables: []Table{{Title: "Verdicts", Head: []string{"part", "result"},
			Rows: [][]string{{"soak", "pass"}, {"over|head", "fail"}}, Flagged: []bool{false, true}}}}}}
	var h, m bytes.Buffer
	if err := p.Write(&h, "html"); err != nil {
		t.Fatal(err)
	}
	html := h.String()
	for _, want := range []string{`<p class="verdict bad" id="verdict">FAIL</p>`, `<b>1 of 2 verdicts failed</b>`, `<tr class="flag"><td class="t">over|head</td>`, `<tr><td class="t">soak</td>`} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q:\n%s", want, html)
		}
	}
	if err := p.Write(&m, "md"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# gqlbench suite batch\n", "**1 of 2 verdicts failed**", "✗ FAIL", "| over\\|head | fail |"} {
		if !strings.Contains(m.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, m.String())
		}
	}
	if err := p.Write(&m, "csv"); err == nil {
		t.Error("csv: no error")
	}
}
