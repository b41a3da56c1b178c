package store_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/gqlbench/gqlbench/store"
)

// fileConfig is the dataset the file tests write.
var fileConfig = dataset.Config{Seed: 7, Scale: 1}

// writeFile generates c into a new file (a directory for csv) of format in
// a temp dir and returns its path.
func writeFile(t testing.TB, format string, c dataset.Config, o store.FillOptions) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out."+format)
	target, err := store.NewFile(format, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Fill(context.Background(), target, c, o); err != nil {
		t.Fatalf("write %s: %v", format, err)
	}
	return path
}

func TestFileFormatsWriteTheDataset(t *testing.T) {
	for _, format := range store.FileFormats() {
		t.Run(format, func(t *testing.T) {
			path := writeFile(t, format, fileConfig, store.FillOptions{})
			// Nothing but the output is left in the directory.
			entries, err := os.ReadDir(filepath.Dir(path))
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 || entries[0].Name() != filepath.Base(path) {
				t.Errorf("the output directory holds %v, want only %s", entries, filepath.Base(path))
			}
			first := path
			if format == "csv" {
				for _, tb := range dataset.Tables {
					if fi, err := os.Stat(filepath.Join(path, tb.Name+".csv")); err != nil || fi.Size() == 0 {
						t.Errorf("%s.csv: missing or empty (%v)", tb.Name, err)
					}
				}
				first = filepath.Join(path, "load.sql")
			}
			data, err := os.ReadFile(first)
			if err != nil {
				t.Fatal(err)
			}
			if len(data) < 1000 {
				t.Fatalf("%s has %d bytes", first, len(data))
			}
			// The header line, completed by Commit, names the dataset.
			line, _, _ := strings.Cut(string(data), "\n")
			want := fmt.Sprintf("gqlbench dataset: generator gqlbench version %d, seed 7, scale 1", dataset.Version)
			if !strings.Contains(line, want) {
				t.Errorf("first line %q does not contain %q", line, want)
			}
		})
	}
}

// TestAbandonedFileLeavesNothing: a run that began but never committed
// leaves no output and no temporary file, and keeps an earlier output.
func TestAbandonedFileLeavesNothing(t *testing.T) {
	var pool dataset.Batch
	fileConfig.Pool(&pool)
	for _, format := range store.FileFormats() {
		for _, earlier := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/earlier=%v", format, earlier), func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "out")
				if earlier { // the output of an earlier complete run
					if format == "csv" {
						path = writeFile(t, format, fileConfig, store.FillOptions{})
						dir = filepath.Dir(path)
					} else if err := os.WriteFile(path, []byte("earlier"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				before := snapshot(t, dir)
				target, err := store.NewFile(format, path, store.Options{})
				if err != nil {
					t.Fatal(err)
				}
				ctx := context.Background()
				if err := target.Begin(ctx); err != nil {
					t.Fatal(err)
				}
				if err := target.Encode(&pool); err != nil {
					t.Fatal(err)
				}
				if err := target.Write(ctx, &pool); err != nil {
					t.Fatal(err)
				}
				if err := target.Close(); err != nil {
					t.Fatal(err)
				}
				if after := snapshot(t, dir); after != before {
					t.Errorf("the directory changed:\nbefore: %s\nafter:  %s", before, after)
				}
			})
		}
	}
}

// snapshot lists the files under dir with their sizes.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var sb strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			fmt.Fprintf(&sb, "%s/ ", strings.TrimPrefix(p, dir))
		} else {
			fmt.Fprintf(&sb, "%s:%d ", strings.TrimPrefix(p, dir), info.Size())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// TestInterruptedFileLoadLeavesNothing cancels Fill half-way.
func TestInterruptedFileLoadLeavesNothing(t *testing.T) {
	for _, format := range store.FileFormats() {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			target, err := store.NewFile(format, filepath.Join(dir, "out"), store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			_, err = store.Fill(ctx, target, dataset.Config{Seed: 1, Scale: 4}, store.FillOptions{
				Progress: func(p store.Progress) {
					if p.Units == 2 {
						cancel()
					}
				}})
			if err == nil {
				t.Fatal("the cancelled load succeeded")
			}
			if entries, err := os.ReadDir(dir); err != nil || len(entries) > 0 {
				t.Errorf("the cancelled load left %v (%v)", entries, err)
			}
		})
	}
}

func TestFileErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-dir", "out.sql")
	for _, format := range store.FileFormats() {
		target, err := store.NewFile(format, missing, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		err = target.Begin(context.Background())
		target.Close()
		if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "does not exist") {
			t.Errorf("%s into a missing directory: error %v, want one naming %s", format, err, missing)
		}
	}

	_, err := store.NewFile("sql", "out.sql", store.Options{})
	if err == nil || !strings.Contains(err.Error(), "sql-postgres") || !strings.Contains(err.Error(), "ntriples") {
		t.Errorf("unknown format: error %v, want one listing the formats", err)
	}

	// csv never replaces a directory that is not a csv dataset.
	foreign := t.TempDir()
	if err := os.WriteFile(filepath.Join(foreign, "thesis.tex"), []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	target, _ := store.NewFile("csv", foreign, store.Options{})
	if _, err := store.Fill(context.Background(), target, fileConfig, store.FillOptions{}); err == nil ||
		!strings.Contains(err.Error(), foreign) {
		t.Errorf("csv into a foreign directory: error %v, want a refusal naming it", err)
	}
	if _, err := os.Stat(filepath.Join(foreign, "thesis.tex")); err != nil {
		t.Errorf("the foreign directory lost its file: %v", err)
	}

	// A single-file format does not overwrite a directory.
	target, _ = store.NewFile("sql-postgres", foreign, store.Options{})
	if err := target.Begin(context.Background()); err == nil || !strings.Contains(err.Error(), foreign) {
		t.Errorf("sql-postgres onto a directory: error %v", err)
	}
	target.Close()
}

func TestEntityIRI(t *testing.T) {
	const d3u10 = "http://www.Department3.University10.edu"
	for _, c := range []struct {
		table dataset.TableID
		nr    int64
		want  string
	}{
		{dataset.University, 0, "http://www.University0.edu"},
		{dataset.University, 999, "http://www.University999.edu"},
		{dataset.Department, 1003, d3u10},                                            // u·100+d
		{dataset.Department, 7, "http://www.Department7.University0.edu"},            // university 0
		{dataset.ResearchGroup, 100312, d3u10 + "/ResearchGroup12"},                  // D·100+i
		{dataset.Faculty, 1003021, d3u10 + "/FullProfessor2"},                        // D·1000+i·10+1
		{dataset.Faculty, 1003122, d3u10 + "/AssociateProfessor12"},                  // rank 2
		{dataset.Professor, 1003003, d3u10 + "/AssistantProfessor0"},                 // professors are faculty
		{dataset.Lecturer, 1003054, d3u10 + "/Lecturer5"},                            // rank 4
		{dataset.UndergraduateStudent, 10035871, d3u10 + "/UndergraduateStudent587"}, // D·10000+i·10+1
		{dataset.GraduateStudent, 10030002, d3u10 + "/GraduateStudent0"},             // D·10000+i·10+2
		{dataset.UndergraduateCourse, 1003831, d3u10 + "/Course83"},                  // D·1000+k·10+1
		{dataset.GraduateCourse, 1003012, d3u10 + "/GraduateCourse1"},                // D·1000+k·10+2
		{dataset.Publication, 100302119, d3u10 + "/FullProfessor2/Publication19"},    // facultyNr·100+j
		{dataset.Publication, 100305400, d3u10 + "/Lecturer5/Publication0"},
		// a large university index: no overflow, no truncation
		{dataset.Publication, (9999924*1000+13*10+3)*100 + 4, "http://www.Department24.University99999.edu/AssistantProfessor13/Publication4"},
		{dataset.CoAuthorOfPublication, 1, ""}, // relationship tables hold no entities
	} {
		if got := store.EntityIRI(c.table, c.nr); got != c.want {
			t.Errorf("EntityIRI(%s, %d) = %q, want %q", dataset.Tables[c.table].Name, c.nr, got, c.want)
		}
	}
}

// psqlFile runs a script with psql, as the dumps' users do.
func psqlFile(t *testing.T, dir, script, url string) {
	t.Helper()
	cmd := exec.Command("psql", "-X", "-v", "ON_ERROR_STOP=1", "-q", "-f", script, url)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("psql -f %s: %v\n%s", script, err, out)
	}
}

// wantPGDataset checks that the database at url holds dataset c, complete.
func wantPGDataset(t *testing.T, url string, c dataset.Config) {
	t.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	got, err := store.FingerprintDB(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	want, err := store.GeneratorFingerprint(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("the database holds other rows than the generator made:\ndatabase:\n%sgenerator:\n%s", got.String(), want.String())
	}
	var status, js string
	if err := db.QueryRowContext(ctx, "SELECT status, meta FROM "+benchdb.MetaTable).Scan(&status, &js); err != nil {
		t.Fatal(err)
	}
	m, err := dataset.ReadMeta(strings.NewReader(js))
	if status != "complete" || err != nil {
		t.Fatalf("metadata row: status %q, %v", status, err)
	}
	if m.Seed != c.Seed || m.Scale != c.Scale || m.TotalRows() != wantRows(want) {
		t.Errorf("metadata of seed %d, scale %d, %d rows; want %v, %d rows", m.Seed, m.Scale, m.TotalRows(), c, wantRows(want))
	}
}

func wantRows(f dataset.Fingerprint) int64 {
	var n int64
	for _, tf := range f {
		n += tf.Rows
	}
	return n
}

func TestPostgresDumpLoadsWithPsql(t *testing.T) {
	dump := writeFile(t, "sql-postgres", fileConfig, store.FillOptions{})
	url := pgtest.URL(t)
	psqlFile(t, "", dump, url)
	wantPGDataset(t, url, fileConfig)
	psqlFile(t, "", dump, url) // loading again replaces the dataset
	wantPGDataset(t, url, fileConfig)
}

func TestCSVLoadScriptLoadsWithPsql(t *testing.T) {
	dir := writeFile(t, "csv", fileConfig, store.FillOptions{})
	url := pgtest.URL(t)
	psqlFile(t, dir, "load.sql", url)
	wantPGDataset(t, url, fileConfig)
}

// N-Triples terms as the W3C grammar defines them (without the \u escapes
// and blank nodes, which gqlbench never writes).
var (
	ntIRI    = `<[^\x00-\x20<>"{}|^` + "`" + `\\]+>`
	ntLit    = `"(?:[^"\\\n\r]|\\[tbnrf"'\\])*"(?:\^\^` + ntIRI + `|@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*)?`
	ntLine   = regexp.MustCompile(`^(` + ntIRI + `) (` + ntIRI + `) (` + ntIRI + `|` + ntLit + `) \.$`)
	ntEntity = regexp.MustCompile(`^<http://www\.(?:[A-Za-z0-9]+\.)*edu(?:/[A-Za-z0-9]+)*>$`)
)

const rdfTypeTerm = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"

func ubTerm(name string) string { return "<" + store.UnivBench + name + ">" }

// TestNTriples reads the N-Triples file back: every line a triple of LUBM
// entities, every entity typed once, and as many triples of each class and
// predicate as the dataset has rows for them.
func TestNTriples(t *testing.T) {
	w := writtenCounts{ranks: map[string]int{}}
	path := writeFile(t, "ntriples", fileConfig, store.FillOptions{Observe: w.observe})
	classes, preds := readTriples(t, path)
	if want := w.classes(); fmt.Sprint(classes) != fmt.Sprint(want) {
		t.Errorf("rdf:type triples per class:\n got %v\nwant %v", classes, want)
	}
	for p, n := range w.predicates() {
		if preds[p] != n {
			t.Errorf("%d ub:%s triples, want %d", preds[p], p, n)
		}
	}
}

// writtenCounts is what TestNTriples counts of the dataset as it is written.
type writtenCounts struct {
	rows       [dataset.NumTables]int
	ranks      map[string]int // professors by type
	heads, tas int            // department heads, teaching assistants
}

// observe counts the rows of b.
func (w *writtenCounts) observe(b *dataset.Batch) {
	for i := range b.Tables {
		w.rows[i] += b.Tables[i].Len()
	}
	p := &b.Tables[dataset.Professor]
	for i := 0; i < p.Len(); i++ {
		w.ranks[p.Row(i)[1].S]++
		if !p.Row(i)[3].Null {
			w.heads++
		}
	}
	c := &b.Tables[dataset.UndergraduateCourse]
	for i := 0; i < c.Len(); i++ {
		if !c.Row(i)[3].Null {
			w.tas++
		}
	}
}

// classes is the number of rdf:type triples each class must have.
func (w *writtenCounts) classes() map[string]int {
	rows, ranks := w.rows, w.ranks
	return map[string]int{
		"University": rows[dataset.University], "Department": rows[dataset.Department],
		"ResearchGroup": rows[dataset.ResearchGroup],
		"FullProfessor": ranks["fullProfessor"], "AssociateProfessor": ranks["associateProfessor"],
		"AssistantProfessor": ranks["assistantProfessor"], "Lecturer": rows[dataset.Lecturer],
		"GraduateStudent": rows[dataset.GraduateStudent], "UndergraduateStudent": rows[dataset.UndergraduateStudent],
		"Course": rows[dataset.UndergraduateCourse], "GraduateCourse": rows[dataset.GraduateCourse],
		"Publication": rows[dataset.Publication],
	}
}

// predicates is the number of triples some univ-bench predicates must have.
func (w *writtenCounts) predicates() map[string]int {
	rows := w.rows
	return map[string]int{
		"publicationAuthor":   rows[dataset.Publication] + rows[dataset.CoAuthorOfPublication],
		"takesCourse":         rows[dataset.GraduateStudentTakeCourse] + rows[dataset.UndergraduateStudentTakeCourse],
		"teacherOf":           rows[dataset.UndergraduateCourse] + rows[dataset.GraduateCourse],
		"teachingAssistantOf": w.tas,
		"headOf":              w.heads,
		"worksFor":            rows[dataset.Faculty],
		"doctoralDegreeFrom":  rows[dataset.Faculty],
		"age":                 rows[dataset.GraduateStudent] + rows[dataset.UndergraduateStudent],
		"researchInterest":    rows[dataset.Professor],
		"abstract":            rows[dataset.Publication],
	}
}

// readTriples parses the N-Triples file at path, checks that its subjects
// are LUBM entities, typed once, and that every entity it mentions is
// typed, and counts its rdf:type triples by class and its other triples by
// predicate.
func readTriples(t *testing.T, path string) (classes, preds map[string]int) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	classes = map[string]int{}
	preds = map[string]int{}
	typed := map[string]bool{} // subjects with an rdf:type
	var refs []string          // IRI objects
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") && len(typed) == 0 { // the header comments
			continue
		}
		m := ntLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %d is not an N-Triples triple: %q", n, line)
		}
		subj, pred, obj := m[1], m[2], m[3]
		if !ntEntity.MatchString(subj) {
			t.Fatalf("line %d: subject %s is not a LUBM entity IRI", n, subj)
		}
		if pred == rdfTypeTerm {
			if typed[subj] {
				t.Fatalf("line %d: %s typed twice", n, subj)
			}
			typed[subj] = true
			classes[strings.TrimSuffix(strings.TrimPrefix(obj, "<"+store.UnivBench), ">")]++
			continue
		}
		if !strings.HasPrefix(pred, "<"+store.UnivBench) {
			t.Fatalf("line %d: predicate %s outside univ-bench", n, pred)
		}
		preds[strings.TrimSuffix(strings.TrimPrefix(pred, "<"+store.UnivBench), ">")]++
		refs = append(refs, subj)
		if obj[0] == '<' {
			refs = append(refs, obj)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, r := range refs { // every entity mentioned is typed: the IRIs agree
		if !typed[r] {
			t.Fatalf("%s is used but has no rdf:type", r)
		}
	}
	return classes, preds
}

// trickyNames are strings that each format must escape, as university names
// (at most 25 characters, the column's size).
var trickyNames = []string{`O'Brien\`, "two\nlines", "cr\rand crlf\r\n", "tab\there", `back\\slash`,
	`\N`, `\.`, "", `"quoted"`, "a,b", "ctrl-z\x1a", "Zürich 日本", "NULL", `''`, " lead trail ",
	`E'x'`, "-- comment", "; DROP TABLE x", "$$", "\\", "'", "\\'"}

// trickyBatch is a pool batch of one university per tricky name, plus one
// whose name is NULL; nul adds a name with a NUL byte (MySQL only).
func trickyBatch(nul bool) (*dataset.Batch, *dataset.Meta, map[int64]*string) {
	b := &dataset.Batch{Unit: -1}
	for i := range b.Tables {
		b.Tables[i].Table = dataset.Tables[i]
	}
	names := append([]string(nil), trickyNames...)
	if nul {
		names = append(names, "nul\x00byte")
	}
	want := map[int64]*string{}
	m := &dataset.Meta{Generator: dataset.Generator, Version: dataset.Version, Scale: 1, PoolSize: 1,
		Rows: map[string]int64{"university": int64(len(names) + 1)}, IDs: map[string]dataset.IDList{}}
	for i := range names {
		b.Tables[dataset.University].Vals = append(b.Tables[dataset.University].Vals,
			dataset.Value{I: int64(i)}, dataset.Value{S: names[i]})
		want[int64(i)] = &names[i]
		m.IDs["universityID"] = append(m.IDs["universityID"], int64(i))
	}
	n := int64(len(names))
	b.Tables[dataset.University].Vals = append(b.Tables[dataset.University].Vals,
		dataset.Value{I: n}, dataset.Value{Null: true})
	want[n] = nil
	m.IDs["universityID"] = append(m.IDs["universityID"], n)
	return b, m, want
}

// writeBatch writes one hand-made batch as a complete file.
func writeBatch(t *testing.T, format string, b *dataset.Batch, m *dataset.Meta) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tricky."+format)
	target, err := store.NewFile(format, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	ctx := context.Background()
	for _, step := range []func() error{
		func() error { return target.Begin(ctx) },
		func() error { return target.Encode(b) },
		func() error { return target.Write(ctx, b) },
		func() error { return target.Commit(ctx, m) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func checkNames(t *testing.T, got map[int64]*string, want map[int64]*string) {
	t.Helper()
	show := func(s *string) string {
		if s == nil {
			return "NULL"
		}
		return strconv.Quote(*s)
	}
	if len(got) != len(want) {
		t.Errorf("%d names read back, want %d", len(got), len(want))
	}
	for nr, w := range want {
		if g, ok := got[nr]; !ok || show(g) != show(w) {
			t.Errorf("university %d: name %s, want %s", nr, show(g), show(w))
		}
	}
}

func TestTrickyStringsRoundTripPostgres(t *testing.T) {
	b, m, want := trickyBatch(false)
	for _, format := range []string{"sql-postgres", "csv"} {
		t.Run(format, func(t *testing.T) {
			path := writeBatch(t, format, b, m)
			url := pgtest.URL(t)
			if format == "csv" {
				psqlFile(t, path, "load.sql", url)
			} else {
				psqlFile(t, "", path, url)
			}
			db, err := sql.Open("pgx", url)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			rows, err := db.Query("SELECT nr, name FROM university")
			if err != nil {
				t.Fatal(err)
			}
			got := map[int64]*string{}
			for rows.Next() {
				var nr int64
				var name sql.NullString
				if err := rows.Scan(&nr, &name); err != nil {
					t.Fatal(err)
				}
				if name.Valid {
					got[nr] = &name.String
				} else {
					got[nr] = nil
				}
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			checkNames(t, got, want)
		})
	}
}

func TestTrickyStringsRoundTripNTriples(t *testing.T) {
	b, m, want := trickyBatch(false)
	data, err := os.ReadFile(writeBatch(t, "ntriples", b, m))
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]*string{}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		mm := ntLine.FindStringSubmatch(line)
		if mm == nil {
			t.Fatalf("not an N-Triples line: %q", line)
		}
		nr, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(mm[1], "<http://www.University"), ".edu>"), 10, 64)
		if err != nil {
			t.Fatalf("subject %s: %v", mm[1], err)
		}
		if _, ok := got[nr]; !ok {
			got[nr] = nil
		}
		if mm[2] == ubTerm("name") {
			s := ntUnescape(mm[3][1 : len(mm[3])-1])
			got[nr] = &s
		}
	}
	checkNames(t, got, want)
}

func ntUnescape(s string) string {
	r := strings.NewReplacer(`\\`, `\`, `\"`, `"`, `\n`, "\n", `\r`, "\r", `\t`, "\t")
	return r.Replace(s)
}

// TestMySQLDump loads the sql-mysql dump into a throwaway MariaDB server
// (packages mariadb-server and mariadb-client). With CI=true a missing
// MariaDB fails the test.
func TestMySQLDump(t *testing.T) {
	my := startMariaDB(t)
	t.Run("dataset", func(t *testing.T) {
		dump := writeFile(t, "sql-mysql", fileConfig, store.FillOptions{})
		my.createDB(t, "gqlbench")
		my.load(t, "gqlbench", dump)
		my.wantDataset(t, "gqlbench", fileConfig)
		my.load(t, "gqlbench", dump) // loading again replaces the dataset
		my.wantDataset(t, "gqlbench", fileConfig)
	})
	t.Run("tricky-strings", func(t *testing.T) {
		b, m, want := trickyBatch(true)
		my.createDB(t, "tricky")
		my.load(t, "tricky", writeBatch(t, "sql-mysql", b, m))
		got := map[int64]*string{}
		for _, row := range my.query(t, "tricky", "SELECT nr, HEX(name) FROM university") {
			nr, err := strconv.ParseInt(row[0], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			got[nr] = nil
			if row[1] != "NULL" {
				raw, err := hex.DecodeString(row[1])
				if err != nil {
					t.Fatal(err)
				}
				s := string(raw)
				got[nr] = &s
			}
		}
		checkNames(t, got, want)
	})
}

// mariaDB is a throwaway MariaDB server reached through its Unix socket.
type mariaDB struct {
	client, socket string
}

// findBinary returns the first of names found on PATH or in /usr/sbin
// (where Debian puts the server, off the PATH of ordinary users).
func findBinary(names ...string) string {
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
		if p := filepath.Join("/usr/sbin", n); isExecutable(p) {
			return p
		}
	}
	return ""
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode()&0o111 != 0
}

func startMariaDB(t *testing.T) *mariaDB {
	t.Helper()
	server := findBinary("mariadbd", "mysqld")
	install := findBinary("mariadb-install-db", "mysql_install_db")
	client := findBinary("mariadb", "mysql")
	if server == "" || install == "" || client == "" {
		msg := "MariaDB is not installed (apt-get install mariadb-server mariadb-client)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	// A short path: Unix socket paths are limited to about 100 bytes.
	dir, err := os.MkdirTemp("", "gqlmy")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	data := filepath.Join(dir, "data")
	installArgs := []string{"--no-defaults", "--datadir=" + data, "--auth-root-authentication-method=normal", "--skip-test-db"}
	// The server dies with the test binary, even one killed by a timeout.
	attr := &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if os.Geteuid() == 0 { // mariadbd refuses to run as root: run it as mysql
		u, err := user.Lookup("mysql")
		if err != nil {
			t.Fatalf("MariaDB runs as the mysql user: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		installArgs = append(installArgs, "--user=mysql")
		// Credentials change before the death signal is set, which a
		// set-uid in mariadbd itself would clear.
		attr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	if out, err := exec.Command(install, installArgs...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", install, err, out)
	}
	my := &mariaDB{client: client, socket: filepath.Join(dir, "sock")}
	logFile := filepath.Join(dir, "server.log")
	cmd := exec.Command(server, "--no-defaults", "--datadir="+data, "--socket="+my.socket,
		"--skip-networking", "--pid-file="+filepath.Join(dir, "pid"), "--log-error="+logFile,
		"--innodb-buffer-pool-size=256M", "--innodb-flush-log-at-trx-commit=0")
	cmd.SysProcAttr = attr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", server, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM) // a clean shutdown
		select {
		case <-exited:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			log, _ := os.ReadFile(logFile)
			t.Logf("MariaDB server log:\n%s", log)
		}
	})
	for i := 0; ; i++ {
		out, err := exec.Command(client, "--no-defaults", "-S", my.socket, "-u", "root", "-e", "SELECT 1").CombinedOutput()
		if err == nil {
			break
		}
		select {
		case err := <-exited:
			log, _ := os.ReadFile(logFile)
			t.Fatalf("MariaDB server exited: %v\n%s", err, log)
		default:
		}
		if i == 600 {
			t.Fatalf("MariaDB server not ready after 60s: %s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return my
}

func (my *mariaDB) run(t *testing.T, stdin *os.File, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(my.client, append([]string{"--no-defaults", "-S", my.socket, "-u", "root"}, args...)...)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", my.client, strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

func (my *mariaDB) createDB(t *testing.T, name string) {
	my.run(t, nil, "-e", "CREATE DATABASE "+name)
}

func (my *mariaDB) load(t *testing.T, db, dump string) {
	t.Helper()
	f, err := os.Open(dump)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	my.run(t, f, db)
}

// query returns the rows of a query, fields split at tabs (batch mode
// escapes tabs and newlines in values; the queries here hex-encode text).
func (my *mariaDB) query(t *testing.T, db, q string) [][]string {
	t.Helper()
	var rows [][]string
	for _, line := range strings.Split(string(my.run(t, nil, "-B", "-N", db, "-e", q)), "\n") {
		if line != "" {
			rows = append(rows, strings.Split(line, "\t"))
		}
	}
	return rows
}

// wantDataset checks that database db holds dataset c, complete.
func (my *mariaDB) wantDataset(t *testing.T, db string, c dataset.Config) {
	t.Helper()
	var got dataset.Fingerprint
	for _, tb := range dataset.Tables {
		cols := make([]string, len(tb.Columns))
		for i, col := range tb.Columns {
			cols[i] = col.Name
			if col.Kind == dataset.Text {
				cols[i] = "HEX(" + col.Name + ")"
			}
		}
		row := make([]dataset.Value, len(cols))
		for _, fields := range my.query(t, db, "SELECT "+strings.Join(cols, ", ")+" FROM "+tb.Name) {
			for i, s := range fields {
				row[i] = fieldValue(t, tb.Columns[i].Kind, s)
			}
			got.AddRow(tb.ID, row)
		}
	}
	want, err := store.GeneratorFingerprint(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("MariaDB holds other rows than the generator made:\ndatabase:\n%sgenerator:\n%s", got.String(), want.String())
	}
	meta := my.query(t, db, "SELECT status, HEX(meta) FROM "+benchdb.MetaTable)
	if len(meta) != 1 || meta[0][0] != "complete" {
		t.Fatalf("metadata rows %.80q, want one 'complete'", meta)
	}
	js, err := hex.DecodeString(meta[0][1])
	if err != nil {
		t.Fatal(err)
	}
	if m, err := dataset.ReadMeta(bytes.NewReader(js)); err != nil || m.Seed != c.Seed || m.Scale != c.Scale {
		t.Fatalf("metadata %v, error %v", m, err)
	}
}

// fieldValue parses a field of mariadb's batch output: NULL, an integer or
// hex-encoded text.
func fieldValue(t *testing.T, kind dataset.Kind, s string) dataset.Value {
	if s == "NULL" {
		return dataset.Value{Null: true}
	}
	if kind == dataset.Int {
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return dataset.Value{I: i}
	}
	raw, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return dataset.Value{S: string(raw)}
}

// TestMySQLDumpStatements checks the dump's structure without a server:
// it starts with the session settings, every statement ends with ";", and
// INSERT statements stay within the stated limits.
func TestMySQLDumpStatements(t *testing.T) {
	data, err := os.ReadFile(writeFile(t, "sql-mysql", fileConfig, store.FillOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var inserts int
	for i, line := range lines {
		switch {
		case strings.HasPrefix(line, "-- "):
		case !strings.HasSuffix(line, ";"):
			t.Fatalf("line %d does not end a statement: %.100q", i+1, line)
		case strings.HasPrefix(line, "INSERT INTO "+benchdb.MetaTable):
		case strings.HasPrefix(line, "INSERT INTO "):
			inserts++
			if len(line) > 1<<20+4096 {
				t.Errorf("line %d: an INSERT of %d bytes", i+1, len(line))
			}
			if n := strings.Count(line, "),("); n >= 1000 {
				t.Errorf("line %d: an INSERT of %d rows", i+1, n+1)
			}
		}
	}
	if inserts == 0 || !strings.Contains(string(data), "SET foreign_key_checks = 1;") {
		t.Errorf("the dump has %d INSERT statements and ends with\n%s", inserts, lines[len(lines)-1])
	}
}

// BenchmarkNewFile times writing sf=10 in every format (one load per
// iteration: run with -benchtime=1x) and reports the output's size.
func BenchmarkNewFile(b *testing.B) {
	for _, format := range store.FileFormats() {
		b.Run(format, func(b *testing.B) {
			var bytes int64
			for range b.N {
				path := writeFile(b, format, dataset.Config{Seed: 1, Scale: 10}, store.FillOptions{})
				bytes = treeBytes(b, path)
			}
			b.ReportMetric(float64(bytes)/1e6, "MB")
		})
	}
}

func treeBytes(t testing.TB, root string) int64 {
	var n int64
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if info, err := d.Info(); err == nil && !d.IsDir() {
			n += info.Size()
		}
		return nil
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return n
}
