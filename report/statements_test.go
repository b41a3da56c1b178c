package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The database's statement counts (load --db-statements) reach the
// correctness table and the CSV as statements per request of the template.
func TestStatementsPerRequest(t *testing.T) {
	b, err := os.ReadFile("testdata/batch-qt3.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// every interval of the run counted 4 statements per request it completed
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, `{"type":"interval"`) {
			var iv struct {
				Templates map[string]struct{ Count int64 }
			}
			if err := json.Unmarshal([]byte(line), &iv); err != nil {
				t.Fatal(err)
			}
			n := int64(0)
			for _, c := range iv.Templates {
				n += c.Count
			}
			line = strings.TrimSuffix(line, "}") + `,"db_statements":` + strconv.FormatInt(4*n, 10) + "}"
		}
		out.WriteString(line + "\n")
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, err := ReadRuns(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Correctness) != 1 || r.Correctness[0].Statements != 4 {
		t.Fatalf("correctness %+v: want 4 statements per request", r.Correctness)
	}
	var csv bytes.Buffer
	if err := r.writeCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if rows := strings.Split(strings.TrimSpace(csv.String()), "\n"); !strings.Contains(rows[0], ",db_statements_per_request,") || !strings.HasSuffix(rows[1], ",4"+strings.Repeat(",", layerColumns)) {
		t.Errorf("CSV:\n%s", csv.String())
	}
	var md bytes.Buffer
	if err := r.writeMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "SQL stmts/req") || !strings.Contains(md.String(), "| 4.00 |") {
		t.Errorf("the Markdown report shows no statements per request")
	}
}
