package store

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
)

// TestValuesWriterKeepsForeignDirectory: a values directory replaces only
// an empty directory or an earlier values directory; a directory holding
// anything else (a home directory named by mistake) is an error, and left
// whole.
func TestValuesWriterKeepsForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "notes.txt")
	os.WriteFile(own, []byte("mine\n"), 0o644)
	if w, err := NewValuesWriter(dir); err == nil || !strings.Contains(err.Error(), "notes.txt") {
		if w != nil {
			w.Abort()
		}
		t.Fatalf("NewValuesWriter(a foreign directory) = %v, want an error naming notes.txt", err)
	}
	if b, err := os.ReadFile(own); err != nil || string(b) != "mine\n" {
		t.Fatalf("the foreign file is gone or changed: %q, %v", b, err)
	}
	earlier := filepath.Join(t.TempDir(), "values")
	os.Mkdir(earlier, 0o755)
	os.WriteFile(filepath.Join(earlier, "professorID.txt"), []byte("1\n"), 0o644)
	w, err := NewValuesWriter(earlier)
	if err != nil {
		t.Fatalf("an earlier values directory is refused: %v", err)
	}
	w.Abort()
}

var lingbmDump = flag.String("lingbm-dump", "", "write gqlbench's values per university to this `FILE` for testdata/lingbm-values/JavaLayout.java")

// TestValuesLayoutLinGBM: the values directory of sf=2 is, byte for byte,
// what LinGBM's dataset generator's Java code writes for the same values
// (testdata/lingbm-values: JavaLayout.java applies SQLFlatWriter's list
// printing, per-university appending, HashSet word sets and statistics
// lines to a dump of the same data; the fixture holds its files' SHA-256).
func TestValuesLayoutLinGBM(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "values")
	vw, err := NewValuesWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer vw.Abort()
	var dump strings.Builder
	c := dataset.Config{Scale: 2}
	err = c.Stream(context.Background(), 0, nil, func(b *dataset.Batch) error {
		vw.Observe(b)
		dumpBatch(&dump, b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := vw.Close(nil); err != nil {
		t.Fatal(err)
	}
	if *lingbmDump != "" {
		if err := os.WriteFile(*lingbmDump, []byte(dump.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(filepath.Join("testdata", "lingbm-values", "values-sf2.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	entries, _ := os.ReadDir(dir)
	for _, e := range entries { // sorted by name, as sha256sum * lists them
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&got, "%x  %s\n", sha256.Sum256(b), e.Name())
	}
	if got.String() != string(want) {
		t.Errorf("the values directory differs from what LinGBM's Java code writes for the same values:\n got:\n%s want:\n%s", got.String(), want)
	}
	// What LinGBM's query generator relies on: the first line, split at ", ".
	b, _ := os.ReadFile(filepath.Join(dir, "departmentID.txt"))
	if !strings.HasPrefix(string(b), "0, 1, 2, ") || !strings.HasSuffix(string(b), ", ") || strings.Contains(string(b), "\n") {
		t.Errorf("departmentID.txt = %.40q...", b)
	}
}

// dumpBatch writes the lines JavaLayout.java reads for batch b.
func dumpBatch(w *strings.Builder, b *dataset.Batch) {
	ids := func(rows *dataset.Rows) {
		for r, n := 0, rows.Len(); r < n; r++ {
			fmt.Fprintf(w, " %d", rows.Row(r)[0].I)
		}
		w.WriteString("\n")
	}
	if b.Unit < 0 {
		w.WriteString("pool")
		ids(&b.Tables[dataset.University])
		return
	}
	fmt.Fprintf(w, "univ %d\nunis %d\n", b.Unit, len(referencedUniversities(b)))
	for _, k := range valueFiles[1:] {
		if k.words < 0 {
			fmt.Fprintf(w, "ids %s", k.name)
			ids(&b.Tables[k.table])
		} else {
			fmt.Fprintf(w, "words %s %s\n", k.name, strings.Join(firstUse(b, k.words), " "))
		}
	}
}

// TestJavaHashSetOrder: known iteration orders of java.util.HashSet (jshell:
// new HashSet<>(List.of(...)) adds in list order).
func TestJavaHashSetOrder(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"b", "a", "c"}, []string{"a", "b", "c"}},
		// "Aa" and "BB" share a hash code: one bucket, insertion order.
		{[]string{"BB", "Aa", "x"}, []string{"BB", "Aa", "x"}},
		{[]string{"Aa", "BB", "x"}, []string{"Aa", "BB", "x"}},
	} {
		got, err := javaHashSetOrder(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("javaHashSetOrder(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}
