package store

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"golang.org/x/sync/errgroup"

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
)

// PostgresTarget loads a dataset into PostgreSQL. Every table streams through
// its own connection with COPY in binary format, so the tables load in
// parallel while the generator runs on other cores; primary keys, indexes and
// foreign keys are built after the data (faster than maintaining them row by
// row), and the metadata row turns 'complete' last.
type PostgresTarget struct {
	URL     string
	Options Options
	// Force replaces tables of the same names that gqlbench did not create.
	Force bool

	conns   [dataset.NumTables]*pgx.Conn
	streams [dataset.NumTables]chan []byte
	copies  errgroup.Group
	cancel  context.CancelFunc
	done    bool
}

var chunkPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// Begin implements Target.
func (p *PostgresTarget) Begin(ctx context.Context) error {
	conn, err := benchdb.ConnectPostgres(ctx, p.URL)
	if err != nil {
		return err
	}
	p.conns[0] = conn
	if err := p.checkForeign(ctx, conn); err != nil {
		return err
	}
	schema := DDL(dbloc.Postgres, p.Options)
	stmts := []string{MetaDDL(dbloc.Postgres),
		fmt.Sprintf("DELETE FROM %s", benchdb.MetaTable),
		fmt.Sprintf("INSERT INTO %s VALUES (1, 'loading', %d, NULL)", benchdb.MetaTable, dataset.Version)}
	if err := p.exec(ctx, conn, stmts); err != nil {
		return err
	}
	if err := p.exec(ctx, conn, append(schema.Drop, schema.Create...)); err != nil {
		return err
	}
	for i := 1; i < dataset.NumTables; i++ {
		if p.conns[i], err = benchdb.ConnectPostgres(ctx, p.URL); err != nil {
			return err
		}
	}
	copyCtx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	for i, t := range dataset.Tables {
		ch := make(chan []byte, 16)
		p.streams[i] = ch
		conn := p.conns[i]
		p.copies.Go(func() error { return copyTable(copyCtx, conn, t, ch, p.Options.Wire) })
	}
	return nil
}

// checkForeign refuses to drop tables that gqlbench did not create.
func (p *PostgresTarget) checkForeign(ctx context.Context, conn *pgx.Conn) error {
	names := make([]string, 0, dataset.NumTables+1)
	for _, t := range dataset.Tables {
		names = append(names, strings.ToLower(t.Name))
	}
	names = append(names, benchdb.MetaTable)
	rows, err := conn.Query(ctx, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_name = ANY($1)`, names)
	if err != nil {
		return fmt.Errorf("inspect the database: %w", err)
	}
	found, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("inspect the database: %w", err)
	}
	ours := false
	var tables []string
	for _, n := range found {
		if n == benchdb.MetaTable {
			ours = true
		} else {
			tables = append(tables, n)
		}
	}
	if len(tables) > 0 && !ours && !p.Force {
		return fmt.Errorf("the database already holds tables that gqlbench did not create (%s): "+
			"use another database, or pass --force to replace them", strings.Join(tables, ", "))
	}
	return nil
}

func (p *PostgresTarget) exec(ctx context.Context, conn *pgx.Conn, stmts []string) error {
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			cfg := conn.Config()
			return benchdb.ExplainPostgres(fmt.Errorf("%s: %w", firstWords(s), err), cfg.Host, cfg.Port, cfg.User, cfg.Database)
		}
	}
	return nil
}

func firstWords(s string) string {
	if f := strings.Fields(s); len(f) > 4 {
		return strings.Join(f[:4], " ")
	}
	return s
}

// copyTable streams one table: TRUNCATE and COPY ... FREEZE in one
// transaction, so the rows are written frozen and the first queries do not
// pay for setting hint bits on every page. With w.NoFreeze, the COPY
// alone (the table is new); with w.CopyText, in COPY's text format.
func copyTable(ctx context.Context, conn *pgx.Conn, t *dataset.Table, chunks <-chan []byte, w WireOptions) error {
	drain := func() {
		for range chunks {
		}
	}
	if !w.NoFreeze {
		if _, err := conn.Exec(ctx, "BEGIN; TRUNCATE "+t.Name); err != nil {
			drain()
			return fmt.Errorf("load %s: %w", t.Name, err)
		}
	}
	r := &chunkReader{chunks: chunks, cur: append([]byte(nil), pgCopyHeader...), trailer: []byte{0xff, 0xff}}
	if w.CopyText {
		r.cur, r.trailer = nil, nil
	}
	sql := CopySQL(t, w)
	if _, err := conn.PgConn().CopyFrom(ctx, r, sql); err != nil {
		drain()
		return fmt.Errorf("load %s: %w", t.Name, err)
	}
	if !w.NoFreeze {
		if _, err := conn.Exec(ctx, "COMMIT"); err != nil {
			return fmt.Errorf("load %s: %w", t.Name, err)
		}
	}
	return nil
}

// CopySQL is the COPY statement that loads table t: binary format and
// FREEZE, each unless w turns it off. Without FREEZE it is written in the
// form CockroachDB documents (FROM STDIN WITH BINARY), which PostgreSQL
// takes too.
func CopySQL(t *dataset.Table, w WireOptions) string {
	cols := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = c.Name
	}
	head := fmt.Sprintf("COPY %s (%s) FROM STDIN", t.Name, strings.Join(cols, ", "))
	switch {
	case !w.NoFreeze && w.CopyText:
		return head + " (FREEZE)"
	case !w.NoFreeze:
		return head + " (FORMAT binary, FREEZE)"
	case w.CopyText:
		return head
	}
	return head + " WITH BINARY"
}

// pgCopyHeader starts a binary COPY stream: signature, flags, extension length.
var pgCopyHeader = []byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00")

// chunkReader turns a channel of encoded chunks into the io.Reader that
// pgconn's CopyFrom consumes; chunks go back to chunkPool once read.
type chunkReader struct {
	chunks   <-chan []byte
	cur      []byte
	pooled   *[]byte
	trailer  []byte
	finished bool
}

func (r *chunkReader) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		if r.pooled != nil {
			*r.pooled = (*r.pooled)[:0]
			chunkPool.Put(r.pooled)
			r.pooled = nil
		}
		if r.finished {
			return 0, io.EOF
		}
		c, ok := <-r.chunks
		if !ok {
			r.cur, r.finished = r.trailer, true
			continue
		}
		r.cur = c
		r.pooled = &c
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// Encode implements Target: every table of b in PostgreSQL's binary COPY
// format (its text format with Options.Wire.CopyText).
func (p *PostgresTarget) Encode(b *dataset.Batch) error {
	var out [dataset.NumTables][]byte
	for i := range b.Tables {
		rows := &b.Tables[i]
		if rows.Len() == 0 {
			continue
		}
		buf := (*chunkPool.Get().(*[]byte))[:0]
		if p.Options.Wire.CopyText {
			out[i] = appendCopyText(buf, rows)
		} else {
			out[i] = encodeBinary(buf, rows)
		}
	}
	b.Out = &out
	return nil
}

func encodeBinary(buf []byte, rows *dataset.Rows) []byte {
	cols := rows.Table.Columns
	for r, n := 0, rows.Len(); r < n; r++ {
		buf = binary.BigEndian.AppendUint16(buf, uint16(len(cols)))
		for i, v := range rows.Row(r) {
			switch {
			case v.Null:
				buf = binary.BigEndian.AppendUint32(buf, 0xffffffff)
			case cols[i].Kind == dataset.Int:
				buf = binary.BigEndian.AppendUint32(buf, 8)
				buf = binary.BigEndian.AppendUint64(buf, uint64(v.I))
			default:
				buf = binary.BigEndian.AppendUint32(buf, uint32(len(v.S)))
				buf = append(buf, v.S...)
			}
		}
	}
	return buf
}

// Write implements Target.
func (p *PostgresTarget) Write(ctx context.Context, b *dataset.Batch) error {
	out := b.Out.(*[dataset.NumTables][]byte)
	for i, chunk := range out {
		if chunk == nil {
			continue
		}
		select {
		case p.streams[i] <- chunk:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Commit implements Target. The work after the data runs in three phases,
// each spread over as many connections as there are CPUs, biggest tables
// first: primary keys and indexes; foreign keys, declared NOT VALID (a
// catalog change) and then validated per referencing table, which takes only
// light locks, so validations of different tables run in parallel where
// adding validated constraints would serialise or deadlock; ANALYZE, so the
// first benchmark queries get real plans. Then the metadata turns 'complete'.
func (p *PostgresTarget) Commit(ctx context.Context, m *dataset.Meta) error {
	if err := p.Flush(ctx); err != nil {
		return err
	}
	bySize := make([]*dataset.Table, 0, dataset.NumTables)
	bySize = append(bySize, dataset.Tables[:]...)
	sort.SliceStable(bySize, func(i, j int) bool { return m.Rows[bySize[i].Name] > m.Rows[bySize[j].Name] })

	var keys, declare, validate [][]string
	for _, t := range bySize {
		if !p.Options.Wire.KeysFirst { // else declared with the table
			keys = append(keys, []string{fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (%s)", t.Name, strings.Join(t.Key, ", "))})
		}
		for _, r := range t.Refs {
			if !p.Options.NoIndexes && r.Column != t.Key[0] {
				keys = append(keys, []string{CreateIndex(t, r)})
			}
		}
		var v []string
		if !p.Options.NoForeignKeys {
			for _, r := range t.Refs {
				name := ForeignKeyName(t, r)
				add := fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s FOREIGN KEY (%s) REFERENCES %s (%s)", t.Name, name, r.Column, r.RefTable, r.RefColumn)
				if p.Options.Wire.ValidFKs { // checked as it is added
					declare = append(declare, []string{add})
					continue
				}
				declare = append(declare, []string{add + " NOT VALID"})
				v = append(v, fmt.Sprintf("ALTER TABLE %s VALIDATE CONSTRAINT %s", t.Name, name))
			}
		}
		validate = append(validate, append(v, "ANALYZE "+t.Name))
	}
	if p.Options.Trigram {
		ddl := TrigramDDL()
		if err := p.exec(ctx, p.conns[0], ddl[:1]); err != nil { // the extension, before its indexes
			return err
		}
		for _, q := range ddl[1:] {
			keys = append(keys, []string{q})
		}
	}
	workers := min(max(2, runtime.NumCPU()), dataset.NumTables)
	for _, phase := range [][][]string{keys, nil, validate} {
		if phase == nil { // declarations take exclusive locks on two tables each: one at a time
			for _, d := range declare {
				if err := p.exec(ctx, p.conns[0], d); err != nil {
					return err
				}
			}
			continue
		}
		if err := p.parallel(ctx, workers, phase); err != nil {
			return err
		}
	}
	js, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = p.conns[0].Exec(ctx, fmt.Sprintf("UPDATE %s SET status = 'complete', version = $1, meta = $2 WHERE id = 1", benchdb.MetaTable), m.Version, string(js))
	if err != nil {
		return fmt.Errorf("record the dataset as complete: %w", err)
	}
	p.done = true
	return nil
}

// parallel runs jobs on the first n connections, each job's statements in
// order on one connection, jobs taken in order as connections come free.
func (p *PostgresTarget) parallel(ctx context.Context, n int, jobs [][]string) error {
	next := make(chan []string, len(jobs))
	for _, j := range jobs {
		next <- j
	}
	close(next)
	var g errgroup.Group
	for w := 0; w < n; w++ {
		conn := p.conns[w]
		g.Go(func() error {
			for j := range next {
				if err := p.exec(ctx, conn, j); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}

// Flush implements Flusher: it ends the COPY streams and waits until every
// row is stored.
func (p *PostgresTarget) Flush(context.Context) error {
	p.closeStreams()
	return p.copies.Wait()
}

func (p *PostgresTarget) closeStreams() {
	for i, ch := range p.streams {
		if ch != nil {
			close(ch)
			p.streams[i] = nil
		}
	}
}

// Close implements Target. Before Commit it aborts the COPY streams; the
// metadata row stays 'loading', so the partial dataset never looks complete.
func (p *PostgresTarget) Close() error {
	if !p.done && p.cancel != nil {
		p.cancel()
	}
	p.closeStreams()
	err := p.copies.Wait()
	if p.done || errors.Is(err, context.Canceled) {
		err = nil
	}
	for _, c := range p.conns {
		if c != nil {
			c.Close(context.Background())
		}
	}
	if p.cancel != nil {
		p.cancel()
	}
	return err
}
