package store

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/internal/outfile"
)

// LinGBM's dataset generator (tools/datasetgen, class SQLFlatWriter) leaves a
// values directory beside its SQL dump, and LinGBM's query generator
// (tools/querygen) reads it: one file per entity, named <entity>.txt, that
// holds the entity's values on one line, each followed by ", " and no line
// break ("1, 2, 3, "), because the writer prints a Java list's toString()
// without its brackets and appends ", ". The generator writes the files once
// per university, appending; the query generator reads the first line and
// splits it at ", ". ValuesWriter writes the same bytes for gqlbench's data.

// valueFiles are the files of the values layout in LinGBM's order (its
// entityNames), the id kinds with the table whose first column holds them.
var valueFiles = []struct {
	name  string
	table dataset.TableID // for the id kinds
	words int             // for the word lists: dataset.TitleWords, ...; -1 for ids
}{
	{"universityID", dataset.University, -1}, {"departmentID", dataset.Department, -1},
	{"researchGroupID", dataset.ResearchGroup, -1}, {"facultyID", dataset.Faculty, -1},
	{"professorID", dataset.Professor, -1}, {"lecturerID", dataset.Lecturer, -1},
	{"graduateStudentID", dataset.GraduateStudent, -1}, {"undergraduateStudentID", dataset.UndergraduateStudent, -1},
	{"publicationID", dataset.Publication, -1}, {"graduateCourseID", dataset.GraduateCourse, -1},
	{"undergraduateCourseID", dataset.UndergraduateCourse, -1},
	{"title", 0, dataset.TitleWords}, {"abstract", 0, dataset.AbstractWords}, {"interest", 0, dataset.InterestWords},
}

// statisticsFile is the per-university summary LinGBM's generator writes beside the values.
const statisticsFile = "statistics.csv"

// MaxInt32ValuesScale is the largest scale factor whose values files LinGBM's
// query generator can read: it parses every id with Java's Integer.parseInt,
// and publication ids (about u·10⁷ for university u) pass 2³¹−1 from
// university 215 on.
const MaxInt32ValuesScale = 215

// ValuesWriter writes the values a query generator draws from in the layout
// LinGBM's dataset generator writes (see above), byte for byte:
//
//   - universityID.txt: every row of the university table (the pool
//     included), in key order. (LinGBM's own generator rewrites this file for
//     every university, so its file keeps the universities the last one
//     refers to; every university a query may name exists here.)
//   - departmentID.txt ... undergraduateCourseID.txt: every id, university
//     after university, each in the order of its rows.
//   - title.txt, abstract.txt, interest.txt: per university, the distinct
//     words its titles, abstracts and research interests use, in the
//     iteration order of the java.util.HashSet LinGBM collects them in (so a
//     word appears once per university that uses it, as in LinGBM's files).
//   - statistics.csv: per university, a blank line and "the number of
//     <entity>,<n>" for the 14 entities, counting that university's values
//     (for universityID, the universities its rows refer to, itself
//     included, as LinGBM counts them).
//
// It fills a temporary directory as batches stream past and renames it to
// DIR on Close.
type ValuesWriter struct {
	dir, tmp string
	files    []*os.File
	bufs     []*bufio.Writer // valueFiles, then statistics.csv
	sizes    []int64         // ids written per file
	maxID    int64           // the largest id written
	err      error
}

// NewValuesWriter prepares a values directory at dir. An existing dir is
// replaced only when it is empty or holds nothing but values files; a
// device, a file or any other directory is an error and left as it is.
func NewValuesWriter(dir string) (*ValuesWriter, error) {
	if err := checkValuesDir(dir); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(filepath.Clean(dir)), filepath.Base(dir)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write the values directory %s: %w", dir, err)
	}
	w := &ValuesWriter{dir: dir, tmp: tmp, sizes: make([]int64, len(valueFiles))}
	names := make([]string, 0, len(valueFiles)+1)
	for _, k := range valueFiles {
		names = append(names, k.name+".txt")
	}
	for _, name := range append(names, statisticsFile) {
		f, err := os.Create(filepath.Join(tmp, name))
		if err != nil {
			w.Abort()
			return nil, fmt.Errorf("cannot write the values directory %s: %w", dir, err)
		}
		w.files = append(w.files, f)
		w.bufs = append(w.bufs, bufio.NewWriterSize(f, 64<<10))
	}
	return w, nil
}

// Observe writes the values of batch b; use it as FillOptions.Observe. The
// pool batch gives universityID.txt, every university batch its share of
// the other files and its block of statistics.csv.
func (w *ValuesWriter) Observe(b *dataset.Batch) {
	if w.err != nil {
		return
	}
	if b.Unit < 0 {
		w.err = w.writeIDs(0, &b.Tables[dataset.University])
		return
	}
	counts := make([]int, len(valueFiles))
	counts[0] = len(referencedUniversities(b))
	for i, k := range valueFiles {
		switch {
		case i == 0:
		case k.words < 0:
			rows := &b.Tables[k.table]
			counts[i] = rows.Len()
			if err := w.writeIDs(i, rows); err != nil {
				w.err = err
				return
			}
		default:
			set, err := javaHashSetOrder(firstUse(b, k.words))
			if err != nil {
				w.err = fmt.Errorf("%s.txt of university %d: %w", k.name, b.Unit, err)
				return
			}
			counts[i] = len(set)
			writeJavaList(w.bufs[i], set)
		}
	}
	stats := w.bufs[len(valueFiles)]
	for i, k := range valueFiles {
		if i == 0 {
			stats.WriteByte('\n')
		}
		fmt.Fprintf(stats, "the number of %s,%d\n", k.name, counts[i])
	}
}

// writeIDs appends the ids of rows (their first column) to file i as one
// Java list: "a, b, c" followed by ", ".
func (w *ValuesWriter) writeIDs(i int, rows *dataset.Rows) error {
	bw := w.bufs[i]
	var num [24]byte
	for r, n := 0, rows.Len(); r < n; r++ {
		id := rows.Row(r)[0].I
		w.maxID = max(w.maxID, id)
		if r > 0 {
			bw.WriteString(", ")
		}
		bw.Write(strconv.AppendInt(num[:0], id, 10))
	}
	w.sizes[i] += int64(rows.Len())
	_, err := bw.WriteString(", ")
	return err
}

// writeJavaList writes what SQLFlatWriter writes for a collection c:
// c.toString() without '[' and ']', then ", ".
func writeJavaList(bw *bufio.Writer, words []string) {
	s := strings.Join(words, ", ")
	s = strings.ReplaceAll(strings.ReplaceAll(s, "[", ""), "]", "")
	bw.WriteString(s)
	bw.WriteString(", ")
}

// firstUse lists the distinct words of one kind that batch b uses, in the
// order the generator drew them: the order of the rows (a word kind lives
// in one column: publication titles, abstracts, professors' interests).
func firstUse(b *dataset.Batch, kind int) []string {
	t, col := dataset.Publication, "title"
	switch kind {
	case dataset.AbstractWords:
		col = "abstract"
	case dataset.InterestWords:
		t, col = dataset.Professor, "researchInterest"
	}
	rows := &b.Tables[t]
	c := columnIndex(rows.Table, col)
	seen := map[string]bool{}
	var out []string
	for r, n := 0, rows.Len(); r < n; r++ {
		for _, word := range strings.Fields(rows.Row(r)[c].S) {
			if !seen[word] {
				seen[word] = true
				out = append(out, word)
			}
		}
	}
	return out
}

// referencedUniversities is LinGBM's university list of one university:
// itself and every university its rows refer to.
func referencedUniversities(b *dataset.Batch) map[int64]bool {
	set := map[int64]bool{int64(b.Unit): true}
	for t := range b.Tables {
		rows := &b.Tables[t]
		for _, ref := range rows.Table.Refs {
			if ref.RefTable != "university" {
				continue
			}
			c := columnIndex(rows.Table, ref.Column)
			for r, n := 0, rows.Len(); r < n; r++ {
				if v := rows.Row(r)[c]; !v.Null {
					set[v.I] = true
				}
			}
		}
	}
	return set
}

func columnIndex(t *dataset.Table, name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	panic("store: no column " + t.Name + "." + name)
}

// errTreeified: a java.util.HashMap bin of more than 8 entries in a table of
// 64 or more buckets becomes a tree, whose iteration order is not the bin's
// insertion order. gqlbench's word sets never get there (the interest
// vocabulary never puts 9 words in a bin; the title and abstract vocabulary
// does not from 16384 buckets on, where every set of a university's words
// lives: TestJavaHashSetNeverTreeifies), so it is an error, not emulated.
var errTreeified = errors.New("a java.util.HashSet bucket would hold more than 8 words; its iteration order is not reproduced")

// javaHashSetOrder returns words (distinct, in insertion order) in the order
// a java.util.HashSet created with new HashSet<>() and filled in that order
// iterates them: by bucket (String.hashCode spread by h ^ h>>>16, masked by
// the table size), and within a bucket in insertion order. The table starts
// at 16 buckets and doubles when the size passes three quarters of it, or
// when a bin of a table smaller than 64 buckets reaches 9 entries; a split
// keeps each bin's order, so re-inserting in iteration order is a resize.
func javaHashSetOrder(words []string) ([]string, error) {
	tab := make([][]string, 16)
	size := 0
	resize := func() {
		old := tab
		tab = make([][]string, 2*len(old))
		for _, bin := range old {
			for _, w := range bin {
				i := javaSpreadHash(w) & uint32(len(tab)-1)
				tab[i] = append(tab[i], w)
			}
		}
	}
	for _, w := range words {
		i := javaSpreadHash(w) & uint32(len(tab)-1)
		tab[i] = append(tab[i], w)
		if len(tab[i]) > 8 {
			if len(tab) >= 64 {
				return nil, errTreeified
			}
			resize()
		}
		size++
		if size > len(tab)*3/4 {
			resize()
		}
	}
	out := make([]string, 0, len(words))
	for _, bin := range tab {
		out = append(out, bin...)
	}
	return out, nil
}

// javaSpreadHash is java.util.HashMap.hash of a String: String.hashCode over
// its UTF-16 code units, its high half folded into the low one.
func javaSpreadHash(s string) uint32 {
	var h int32
	for _, c := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(c)
	}
	u := uint32(h)
	return u ^ u>>16
}

// Close moves the directory into place.
func (w *ValuesWriter) Close() error {
	for i, b := range w.bufs {
		if err := b.Flush(); err != nil && w.err == nil {
			w.err = err
		}
		if err := w.files[i].Close(); err != nil && w.err == nil {
			w.err = err
		}
	}
	w.files = nil
	if w.err == nil && w.sizes[0] == 0 {
		w.err = errors.New("no university table was written")
	}
	if w.err == nil {
		w.err = checkValuesDir(w.dir) // what is there now may differ from what was there at the start
	}
	if w.err == nil {
		w.err = replaceDir(w.tmp, filepath.Clean(w.dir))
	}
	if w.err != nil {
		w.Abort()
		return fmt.Errorf("write the values directory %s: %w", w.dir, w.err)
	}
	w.tmp = ""
	return nil
}

// FitsInt32 says whether LinGBM's query generator can read every id written.
func (w *ValuesWriter) FitsInt32() bool { return w.maxID <= math.MaxInt32 }

// Abort removes the temporary directory (a no-op after a successful Close).
func (w *ValuesWriter) Abort() {
	for _, f := range w.files {
		f.Close()
	}
	w.files = nil
	if w.tmp != "" {
		os.RemoveAll(w.tmp)
		w.tmp = ""
	}
}

// checkValuesDir says whether dir may be replaced by a values directory:
// it does not exist, or is a directory that is empty or holds values files
// only (an earlier values directory, of this layout or of gqlbench's
// earlier one-value-per-line layout).
func checkValuesDir(dir string) error {
	if err := outfile.CheckDir(dir); err != nil {
		return fmt.Errorf("the values directory: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot write the values directory %s: %w", dir, err)
	}
	known := map[string]bool{statisticsFile: true, "titleWords.txt": true, "abstractWords.txt": true, "interestWords.txt": true}
	for _, k := range valueFiles {
		known[k.name+".txt"] = true
	}
	for _, e := range entries {
		if !known[e.Name()] || !e.Type().IsRegular() {
			return fmt.Errorf("cannot write the values directory %s: it holds %s, which is no values file; remove it or choose another directory", dir, e.Name())
		}
	}
	return nil
}
