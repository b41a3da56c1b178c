package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/internal/outfile"
)

// FileFormats lists the formats NewFile writes, sorted.
func FileFormats() []string {
	return []string{"csv", "ntriples", "sql-mysql", "sql-postgres"}
}

// NewFile returns a Target that writes the dataset to path in format:
//
//	sql-postgres  a dump for psql -v ON_ERROR_STOP=1 -f PATH (COPY text blocks, one transaction)
//	sql-mysql     a dump for mysql DB < PATH (multi-row INSERTs)
//	ntriples      RDF in the LUBM ontology (univ-bench), one triple per line
//	csv           a directory: one header-less <table>.csv per table and a
//	              load.sql for psql, run from inside the directory
//
// The output is written next to path under a temporary name and renamed to
// path only by Commit, so an interrupted or failed run never leaves a file
// that looks complete. o selects the indexes and foreign keys of the SQL.
func NewFile(format, path string, o Options) (Target, error) {
	if path == "" {
		return nil, errors.New("no output path given")
	}
	if o.Trigram && format != "sql-postgres" && format != "csv" {
		return nil, fmt.Errorf("trigram indexes are PostgreSQL's (formats sql-postgres and csv), not in format %s", format)
	}
	switch format {
	case "sql-postgres":
		return &fileTarget{path: path, codec: newPGDump(o)}, nil
	case "sql-mysql":
		return &fileTarget{path: path, codec: newMySQLDump(o)}, nil
	case "ntriples":
		return &fileTarget{path: path, codec: newNTriples()}, nil
	case "csv":
		return &csvTarget{dir: path, opts: o}, nil
	}
	return nil, fmt.Errorf("unknown file format %q (formats: %s)", format, strings.Join(FileFormats(), ", "))
}

// fileCodec formats one single-file format. encode runs on parallel
// workers, so it must only read the codec.
type fileCodec interface {
	comment() string                                    // line-comment prefix, for the header line
	rowBytes() int                                      // a generous average of the bytes per row
	begin(dst []byte) []byte                            // what follows the header line
	encode(dst []byte, b *dataset.Batch) []byte         // one batch
	commit(dst []byte, m *dataset.Meta) ([]byte, error) // the end of the file
}

// sized returns buf emptied, with room for n bytes: growing a buffer of
// tens of megabytes by appending would copy it over and over.
func sized(buf []byte, n int) []byte {
	if cap(buf) < n {
		return make([]byte, 0, n)
	}
	return buf[:0]
}

// fileBufs recycles the encoded batches of file targets.
var fileBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1<<20); return &b }}

const fileBufferBytes = 1 << 20

// fileTarget writes a single-file format through a temporary file.
type fileTarget struct {
	path  string
	codec fileCodec
	cfg   *dataset.Config // the dataset to come, once planned
	f     *outfile.File
	w     *bufio.Writer
}

// plan implements planner: the header line is complete from the start,
// so that a device or a pipe, written straight, gets it too.
func (t *fileTarget) plan(c dataset.Config) { t.cfg = &c }

// Begin implements Target: it opens the output (outfile.Create): a
// temporary file beside a regular file or new path, renamed into place by
// Commit, or a device or a pipe, written straight and never replaced.
func (t *fileTarget) Begin(ctx context.Context) error {
	f, err := outfile.Create(t.path, 0o644)
	if err != nil {
		return err
	}
	t.f = f
	t.w = bufio.NewWriterSize(f, fileBufferBytes)
	var m *dataset.Meta
	if t.cfg != nil {
		m = &dataset.Meta{Seed: t.cfg.Seed, Scale: t.cfg.Scale}
	}
	buf := fileHeader(nil, t.codec.comment(), m)
	buf = t.codec.begin(buf)
	if _, err := t.w.Write(buf); err != nil {
		return fmt.Errorf("write %s: %w", t.path, err)
	}
	return nil
}

// Encode implements Target.
func (t *fileTarget) Encode(b *dataset.Batch) error {
	p := fileBufs.Get().(*[]byte)
	*p = t.codec.encode(sized(*p, b.RowCount()*t.codec.rowBytes()), b)
	b.Out = p
	return nil
}

// Write implements Target.
func (t *fileTarget) Write(ctx context.Context, b *dataset.Batch) error {
	p := b.Out.(*[]byte)
	b.Out = nil
	_, err := t.w.Write(*p)
	fileBufs.Put(p)
	if err != nil {
		return fmt.Errorf("write %s: %w", t.path, err)
	}
	return nil
}

// Commit implements Target: it finishes the file, completes its header line
// and renames it into place.
func (t *fileTarget) Commit(ctx context.Context, m *dataset.Meta) error {
	end, err := t.codec.commit(nil, m)
	if err != nil {
		return err
	}
	if _, err := t.w.Write(end); err != nil {
		return fmt.Errorf("write %s: %w", t.path, err)
	}
	if err := t.w.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", t.path, err)
	}
	header := fileHeader(nil, t.codec.comment(), m)
	if len(header) != headerBytes { // cannot happen for a valid Config; never overwrite data
		return fmt.Errorf("write %s: header line of %d bytes", t.path, len(header))
	}
	if t.f.Kind() != outfile.Stream { // a stream's header was complete from the start, or stays so
		if _, err := t.f.WriteAt(header, 0); err != nil {
			return fmt.Errorf("write %s: %w", t.path, err)
		}
	}
	err = t.f.Commit()
	t.f = nil
	return err
}

// Close implements Target: before Commit it removes the temporary file.
func (t *fileTarget) Close() error {
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
	return nil
}

// finishFile makes a finished temporary file durable and readable by others
// (CreateTemp makes it private), and closes it.
func finishFile(f *os.File) error {
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir makes a rename in dir durable, where the platform allows.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// headerBytes is the fixed length of a file's first line. Begin writes it
// before the seed and scale are known (Target gets them only with the
// metadata), and Commit overwrites it in place with the same length.
const headerBytes = 100

// fileHeader appends the first line of a file: a comment naming the
// generator, its version, and (once m is known) the seed and scale.
func fileHeader(dst []byte, comment string, m *dataset.Meta) []byte {
	start := len(dst)
	dst = append(dst, comment...)
	dst = append(dst, " gqlbench dataset: generator "...)
	dst = append(dst, dataset.Generator...)
	dst = append(dst, " version "...)
	dst = strconv.AppendInt(dst, dataset.Version, 10)
	if m == nil {
		dst = append(dst, ", seed ?, scale ?"...)
	} else {
		dst = append(dst, ", seed "...)
		dst = strconv.AppendUint(dst, m.Seed, 10)
		dst = append(dst, ", scale "...)
		dst = strconv.AppendInt(dst, int64(m.Scale), 10)
	}
	for len(dst)-start < headerBytes-1 {
		dst = append(dst, ' ')
	}
	return append(dst, '\n')
}

// csvTarget writes the csv format: a directory of one header-less CSV file
// per table plus load.sql, filled under a temporary name and renamed into
// place by Commit.
type csvTarget struct {
	dir, tmp string
	opts     Options
	files    [dataset.NumTables]*os.File
	ws       [dataset.NumTables]*bufio.Writer
	done     bool
}

// csvChunk is one batch encoded: the CSV text of table i is
// buf[end[i-1]:end[i]].
type csvChunk struct {
	buf []byte
	end [dataset.NumTables]int
}

var csvChunks = sync.Pool{New: func() any { return &csvChunk{buf: make([]byte, 0, 1<<20)} }}

// csvRowBytes is a generous average size of a CSV row.
const csvRowBytes = 80

// csvLoadScript is the name of the psql script in a csv directory.
const csvLoadScript = "load.sql"

// Begin implements Target.
func (t *csvTarget) Begin(ctx context.Context) error {
	dir := filepath.Clean(t.dir)
	if err := checkCSVDir(dir); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-*")
	if err != nil {
		return outfile.PathError(t.dir, err)
	}
	t.tmp = tmp
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("cannot write %s: %w", t.dir, err)
	}
	for i, tb := range dataset.Tables {
		f, err := os.Create(filepath.Join(tmp, tb.Name+".csv"))
		if err != nil {
			return fmt.Errorf("cannot write %s: %w", t.dir, err)
		}
		t.files[i] = f
		t.ws[i] = bufio.NewWriterSize(f, 256<<10)
	}
	return nil
}

// checkCSVDir refuses to replace anything but a directory that is empty or
// holds an earlier csv dataset.
func checkCSVDir(dir string) error {
	if err := outfile.CheckDir(dir); err != nil {
		return fmt.Errorf("%w (the csv format writes a directory)", err)
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", dir, err)
	}
	if len(entries) == 0 {
		return nil
	}
	head := make([]byte, 64)
	if f, err := os.Open(filepath.Join(dir, csvLoadScript)); err == nil {
		n, _ := f.Read(head)
		f.Close()
		if strings.HasPrefix(string(head[:n]), "-- gqlbench dataset") {
			return nil
		}
	}
	return fmt.Errorf("cannot write %s: the directory exists and does not hold a gqlbench csv dataset; remove it or choose another path", dir)
}

// Encode implements Target.
func (t *csvTarget) Encode(b *dataset.Batch) error {
	c := csvChunks.Get().(*csvChunk)
	c.buf = sized(c.buf, b.RowCount()*csvRowBytes)
	for i := range b.Tables {
		c.buf = appendCSV(c.buf, &b.Tables[i])
		c.end[i] = len(c.buf)
	}
	b.Out = c
	return nil
}

// appendCSV appends rows as RFC 4180 CSV the way PostgreSQL's COPY (FORMAT
// csv) reads it: NULL is an empty unquoted field, so an empty string is
// quoted.
func appendCSV(dst []byte, rows *dataset.Rows) []byte {
	cols := rows.Table.Columns
	for i, n := 0, rows.Len(); i < n; i++ {
		for j, v := range rows.Row(i) {
			if j > 0 {
				dst = append(dst, ',')
			}
			switch {
			case v.Null:
			case cols[j].Kind == dataset.Int:
				dst = strconv.AppendInt(dst, v.I, 10)
			default:
				dst = appendCSVText(dst, v.S)
			}
		}
		dst = append(dst, '\n')
	}
	return dst
}

func appendCSVText(dst []byte, s string) []byte {
	quote := s == "" || s == `\.` // \. alone would read as PostgreSQL's end-of-data marker
	for i := 0; i < len(s) && !quote; i++ {
		switch s[i] {
		case ',', '"', '\n', '\r':
			quote = true
		}
	}
	if !quote {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, s[i])
	}
	return append(dst, '"')
}

// Write implements Target.
func (t *csvTarget) Write(ctx context.Context, b *dataset.Batch) error {
	c := b.Out.(*csvChunk)
	b.Out = nil
	defer csvChunks.Put(c)
	start := 0
	for i, end := range c.end {
		if _, err := t.ws[i].Write(c.buf[start:end]); err != nil {
			return fmt.Errorf("write %s: %w", t.dir, err)
		}
		start = end
	}
	return nil
}

// Commit implements Target: it closes the CSV files, writes load.sql and
// moves the directory into place, replacing an earlier csv dataset.
func (t *csvTarget) Commit(ctx context.Context, m *dataset.Meta) error {
	for i, w := range t.ws {
		err := w.Flush()
		if err == nil {
			err = finishFile(t.files[i])
		}
		t.files[i] = nil
		if err != nil {
			return fmt.Errorf("write %s: %w", t.dir, err)
		}
	}
	script, err := pgCSVScript(t.opts, m)
	if err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(t.tmp, csvLoadScript))
	if err == nil {
		_, err = f.Write(script)
		if err == nil {
			err = finishFile(f)
		} else {
			f.Close()
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", t.dir, err)
	}
	if err := replaceDir(t.tmp, filepath.Clean(t.dir)); err != nil {
		return fmt.Errorf("write %s: %w", t.dir, err)
	}
	t.done = true
	syncDir(filepath.Dir(filepath.Clean(t.dir)))
	return nil
}

// replaceDir renames directory tmp to dir, replacing dir if it exists.
func replaceDir(tmp, dir string) error {
	old := ""
	if _, err := os.Lstat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// Close implements Target: before Commit it removes the temporary directory.
func (t *csvTarget) Close() error {
	for i, f := range t.files {
		if f != nil {
			f.Close()
			t.files[i] = nil
		}
	}
	if !t.done && t.tmp != "" {
		os.RemoveAll(t.tmp)
		t.tmp = ""
	}
	return nil
}
