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
	if err := vw.Close(); err != nil {
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

// TestValuesWriterInt32: a publication id past 2^31-1 (university 215 on)
// is written as it is, and FitsInt32 says LinGBM's query generator cannot
// read it (gen warns).
func TestValuesWriterInt32(t *testing.T) {
	w, err := NewValuesWriter(filepath.Join(t.TempDir(), "values"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	var b dataset.Batch
	for i := range b.Tables {
		b.Tables[i].Table = dataset.Tables[i]
	}
	b.Unit = 214
	pub := &b.Tables[dataset.Publication]
	pub.Vals = []dataset.Value{{I: 2142413419}, {S: "publication0"}, {S: "a b"}, {S: "c"}, {I: 21424134}}
	w.Observe(&b)
	if !w.FitsInt32() || w.err != nil {
		t.Fatalf("university 214: FitsInt32 %v, err %v", w.FitsInt32(), w.err)
	}
	b.Unit = 215
	pub.Vals[0].I = 2150000000
	w.Observe(&b)
	if w.FitsInt32() {
		t.Error("an id past 2^31-1 fits in 32 bits, says FitsInt32")
	}
	w.bufs[8].Flush()
	if got, _ := os.ReadFile(filepath.Join(w.tmp, "publicationID.txt")); string(got) != "2142413419, 2150000000, " {
		t.Errorf("publicationID.txt = %q", got)
	}
}

// TestJavaHashSetNeverTreeifies: why errTreeified does not happen. A bin
// becomes a tree at 9 entries in a table of 64 buckets or more; a subset
// of a vocabulary never has more in a bin than the whole vocabulary has at
// the same table size. The interest words (64) never pass 4 a bin; the
// title and abstract vocabulary stays under 9 from 16384 buckets on, where
// every set of more than 6144 words lives, and a university's title and
// abstract words number more than that (checked on sf=2 here).
func TestJavaHashSetNeverTreeifies(t *testing.T) {
	maxBin := func(words []string, buckets int) int {
		n := map[uint32]int{}
		m := 0
		for _, w := range words {
			i := javaSpreadHash(w) & uint32(buckets-1)
			n[i]++
			m = max(m, n[i])
		}
		return m
	}
	for buckets := 64; buckets <= 128; buckets *= 2 {
		if m := maxBin(dataset.InterestVocabulary(), buckets); m > 8 {
			t.Errorf("interest words: %d in a bin of %d buckets", m, buckets)
		}
	}
	for buckets := 16384; buckets <= 32768; buckets *= 2 {
		if m := maxBin(dataset.Vocabulary(), buckets); m > 8 {
			t.Errorf("title and abstract words: %d in a bin of %d buckets", m, buckets)
		}
	}
	c := dataset.Config{Scale: 2}
	err := c.Stream(context.Background(), 0, nil, func(b *dataset.Batch) error {
		for _, kind := range []int{dataset.TitleWords, dataset.AbstractWords} {
			if b.Unit >= 0 && len(firstUse(b, kind)) <= 6144 {
				t.Errorf("university %d: %d words of kind %d", b.Unit, len(firstUse(b, kind)), kind)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
