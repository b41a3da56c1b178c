package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/gqlbench/gqlbench/dataset"
)

// FingerprintDB reads every data table of db (any database/sql driver: the
// pgx stdlib adapter, SQLite, ...) and returns its fingerprint, for comparing
// a database with the generator.
func FingerprintDB(ctx context.Context, db *sql.DB) (dataset.Fingerprint, error) {
	var f dataset.Fingerprint
	for _, t := range dataset.Tables {
		cols := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			cols[i] = c.Name
		}
		rows, err := db.QueryContext(ctx, fmt.Sprintf("SELECT %s FROM %s", strings.Join(cols, ", "), t.Name))
		if err != nil {
			return f, fmt.Errorf("read %s: %w", t.Name, err)
		}
		ints := make([]sql.NullInt64, len(cols))
		strs := make([]sql.NullString, len(cols))
		dest := make([]any, len(cols))
		for i, c := range t.Columns {
			if c.Kind == dataset.Int {
				dest[i] = &ints[i]
			} else {
				dest[i] = &strs[i]
			}
		}
		row := make([]dataset.Value, len(cols))
		for rows.Next() {
			if err := rows.Scan(dest...); err != nil {
				rows.Close()
				return f, fmt.Errorf("read %s: %w", t.Name, err)
			}
			for i, c := range t.Columns {
				if c.Kind == dataset.Int {
					row[i] = dataset.Value{I: ints[i].Int64, Null: !ints[i].Valid}
				} else {
					row[i] = dataset.Value{S: strs[i].String, Null: !strs[i].Valid}
				}
			}
			f.AddRow(t.ID, row)
		}
		if err := rows.Close(); err != nil {
			return f, err
		}
		if err := rows.Err(); err != nil {
			return f, fmt.Errorf("read %s: %w", t.Name, err)
		}
	}
	return f, nil
}

// GeneratorFingerprint returns the fingerprint of dataset c straight from the
// generator.
func GeneratorFingerprint(ctx context.Context, c dataset.Config) (dataset.Fingerprint, error) {
	var f dataset.Fingerprint
	err := c.Stream(ctx, 0, nil, func(b *dataset.Batch) error { f.AddBatch(b); return nil })
	return f, err
}
