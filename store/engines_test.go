package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/internal/pglocal/pgtest"
	"github.com/gqlbench/gqlbench/store"
)

// TestWireOptionsSQL: each choice turned off changes the statements it
// names, and only those.
func TestWireOptionsSQL(t *testing.T) {
	tab := dataset.Tables[0]
	for _, c := range []struct {
		w    store.WireOptions
		want string
	}{
		{store.WireOptions{}, "FROM STDIN (FORMAT binary, FREEZE)"},
		{store.WireOptions{NoFreeze: true}, "FROM STDIN WITH BINARY"},
		{store.WireOptions{CopyText: true}, "FROM STDIN (FREEZE)"},
		{store.WireOptions{CopyText: true, NoFreeze: true}, "FROM STDIN"},
	} {
		if got := store.CopySQL(tab, c.w); !strings.HasSuffix(got, c.want) || !strings.HasPrefix(got, "COPY "+tab.Name+" (") {
			t.Errorf("%+v: %s, want it to end %q", c.w, got, c.want)
		}
	}
	plain := store.DDL(dbloc.Postgres, store.Options{})
	wire := store.DDL(dbloc.Postgres, store.Options{Wire: store.WireOptions{NoCollateC: true, KeysFirst: true}})
	all := func(s []string) string { return strings.Join(s, "\n") }
	if !strings.Contains(all(plain.Create), `COLLATE "C"`) || strings.Contains(all(wire.Create), "COLLATE") {
		t.Errorf("COLLATE \"C\" not turned off:\n%s", all(wire.Create))
	}
	if strings.Contains(all(plain.Create), "PRIMARY KEY") || strings.Count(all(wire.Create), "PRIMARY KEY") != dataset.NumTables ||
		strings.Contains(all(wire.After), "PRIMARY KEY") || !strings.Contains(all(plain.After), "ADD PRIMARY KEY") {
		t.Errorf("primary keys not moved into CREATE TABLE:\n%s\n%s", all(wire.Create), all(wire.After))
	}
	if e, err := store.EngineByName("cockroach"); err != nil || !e.Wire.NoFreeze || !e.Wire.KeysFirst || e.Wire.CopyText {
		t.Errorf("cockroach: %+v, %v", e, err)
	}
	if _, err := store.EngineByName("oracle"); err == nil || !strings.Contains(err.Error(), "yugabyte") {
		t.Errorf("an unknown engine: %v", err)
	}
}

// TestEnginePresetsLoadPostgres: every preset, and text COPY, loads
// PostgreSQL with the generator's rows, every key and every foreign key
// validated, and the collation the preset asks for.
func TestEnginePresetsLoadPostgres(t *testing.T) {
	presets := append(store.Engines(), "text")
	for _, name := range presets {
		t.Run(name, func(t *testing.T) {
			var w store.WireOptions
			if name == "text" {
				w = store.WireOptions{CopyText: true}
			} else {
				e, err := store.EngineByName(name)
				if err != nil {
					t.Fatal(err)
				}
				w = e.Wire
			}
			url := pgtest.URL(t)
			c := dataset.Config{Scale: 1, Seed: 2}
			if _, err := store.Fill(context.Background(), &store.PostgresTarget{URL: url, Options: store.Options{Wire: w}}, c, store.FillOptions{}); err != nil {
				t.Fatal(err)
			}
			wantFingerprint(t, databases[0], url, c)
			db := databases[0].open(t, url)
			var keys, fks, valid, collC int
			q := `SELECT (SELECT count(*) FROM pg_constraint WHERE contype = 'p' AND connamespace = current_schema()::regnamespace AND conrelid::regclass::text <> 'gqlbench_meta'),
				(SELECT count(*) FROM pg_constraint WHERE contype = 'f'),
				(SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND convalidated),
				(SELECT count(*) FROM pg_attribute a JOIN pg_collation k ON k.oid = a.attcollation
					WHERE a.attrelid = 'university'::regclass AND a.attname = 'name' AND k.collname = 'C')`
			if err := db.QueryRow(q).Scan(&keys, &fks, &valid, &collC); err != nil {
				t.Fatal(err)
			}
			if keys != dataset.NumTables || fks != 24 || valid != 24 {
				t.Errorf("%d primary keys, %d foreign keys of which %d validated; want %d, 24, 24", keys, fks, valid, dataset.NumTables)
			}
			if want := map[bool]int{true: 0, false: 1}[w.NoCollateC]; collC != want {
				t.Errorf("university.name COLLATE \"C\": %d, want %d", collC, want)
			}
		})
	}
}
