package store

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/internal/outfile"
)

// valueKinds are the files of LinGBM's values layout: one id per line, per
// kind, named as LinGBM's query generator names its placeholders' sources.
var valueKinds = []struct {
	name  string
	table dataset.TableID
}{
	{"universityID", dataset.University}, {"departmentID", dataset.Department},
	{"researchGroupID", dataset.ResearchGroup}, {"facultyID", dataset.Faculty},
	{"professorID", dataset.Professor}, {"lecturerID", dataset.Lecturer},
	{"graduateStudentID", dataset.GraduateStudent}, {"undergraduateStudentID", dataset.UndergraduateStudent},
	{"publicationID", dataset.Publication}, {"graduateCourseID", dataset.GraduateCourse},
	{"undergraduateCourseID", dataset.UndergraduateCourse},
}

// ValuesWriter writes the values a query generator draws from in LinGBM's
// layout: DIR/<kind>.txt with one value per line, for every id kind
// (students and publications included) and the word lists (titleWords.txt,
// abstractWords.txt, interestWords.txt). It fills a temporary directory as
// batches stream past and renames it to DIR on Close.
type ValuesWriter struct {
	dir, tmp string
	files    []*os.File
	bufs     []*bufio.Writer
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
	w := &ValuesWriter{dir: dir, tmp: tmp}
	for _, k := range valueKinds {
		f, err := os.Create(filepath.Join(tmp, k.name+".txt"))
		if err != nil {
			w.Abort()
			return nil, fmt.Errorf("cannot write the values directory %s: %w", dir, err)
		}
		w.files = append(w.files, f)
		w.bufs = append(w.bufs, bufio.NewWriterSize(f, 64<<10))
	}
	return w, nil
}

// Observe writes the ids of batch b; use it as LoadOptions.Observe.
func (w *ValuesWriter) Observe(b *dataset.Batch) {
	var num [24]byte
	for i, k := range valueKinds {
		rows := &b.Tables[k.table]
		for r, n := 0, rows.Len(); r < n; r++ {
			line := append(strconv.AppendInt(num[:0], rows.Row(r)[0].I, 10), '\n')
			if _, err := w.bufs[i].Write(line); err != nil && w.err == nil {
				w.err = err
			}
		}
	}
}

// Close writes the word lists of m and moves the directory into place.
func (w *ValuesWriter) Close(m *dataset.Meta) error {
	for i, b := range w.bufs {
		if err := b.Flush(); err != nil && w.err == nil {
			w.err = err
		}
		if err := w.files[i].Close(); err != nil && w.err == nil {
			w.err = err
		}
	}
	w.files = nil
	lists := map[string][]string{"titleWords": m.Words.Title, "abstractWords": m.Words.Abstract, "interestWords": m.Words.Interest}
	for name, words := range lists {
		f, err := os.Create(filepath.Join(w.tmp, name+".txt"))
		if err != nil {
			w.err = err
			break
		}
		bw := bufio.NewWriter(f)
		for _, word := range words {
			bw.WriteString(word)
			bw.WriteByte('\n')
		}
		if err := bw.Flush(); err != nil && w.err == nil {
			w.err = err
		}
		f.Close()
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
// only (an earlier values directory).
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
	known := map[string]bool{"titleWords.txt": true, "abstractWords.txt": true, "interestWords.txt": true}
	for _, k := range valueKinds {
		known[k.name+".txt"] = true
	}
	for _, e := range entries {
		if !known[e.Name()] || !e.Type().IsRegular() {
			return fmt.Errorf("cannot write the values directory %s: it holds %s, which is no values file; remove it or choose another directory", dir, e.Name())
		}
	}
	return nil
}
