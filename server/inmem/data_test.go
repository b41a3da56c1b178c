package inmem

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/server/source"
)

// meta generates the metadata of c the way the loaders do.
func meta(t *testing.T, c dataset.Config) *dataset.Meta {
	t.Helper()
	mb := dataset.NewMetaBuilder(c)
	if err := c.Stream(context.Background(), 0, nil, func(b *dataset.Batch) error { mb.Add(b); return nil }); err != nil {
		t.Fatal(err)
	}
	return mb.Meta()
}

func TestGenerate(t *testing.T) {
	c := dataset.Config{Seed: 7, Scale: 2}
	m := meta(t, c)
	d, err := ForMeta(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(d.Rows, m.Rows) {
		t.Fatalf("rows %v, want %v", d.Rows, m.Rows)
	}
	ctx := context.Background()
	// Every id the metadata lists can be looked up.
	for _, nr := range m.IDs["universityID"] {
		if u, _ := d.University(ctx, nr); u == nil {
			t.Fatalf("university %d is missing", nr)
		}
	}
	for _, nr := range m.IDs["facultyID"] {
		if f, _ := d.Faculty(ctx, nr); f == nil {
			t.Fatalf("faculty %d is missing", nr)
		}
	}
	for _, nr := range m.IDs["lecturerID"] {
		if f, _ := d.Faculty(ctx, nr); f == nil || f.Professor {
			t.Fatalf("lecturer %d is missing or a professor", nr)
		}
	}
	// Every department has exactly one head.
	for _, nr := range m.IDs["departmentID"] {
		if len(d.heads[nr]) != 1 {
			t.Errorf("department %d has %d heads", nr, len(d.heads[nr]))
		}
	}
	all, _ := d.Graduates(ctx, source.GradQuery{})
	var byUG int
	for _, u := range m.IDs["universityID"] {
		gs, _ := d.GraduatesByUGDegree(ctx, u, source.GradQuery{})
		byUG += len(gs)
	}
	if int64(len(all)) != m.Rows["graduateStudent"] || int64(byUG) != m.Rows["graduateStudent"] {
		t.Errorf("%d graduate students, %d by undergraduate degree; want %d", len(all), byUG, m.Rows["graduateStudent"])
	}
	// The strings were copied out of the generator's reused buffers, which
	// later universities overwrite: each email still names its own department.
	for i, g := range all {
		suffix := fmt.Sprintf("@department%d.university%d.edu", g.MemberOf%100, g.MemberOf/100)
		if !strings.HasSuffix(g.EmailAddress, suffix) || len(g.Telephone) != 12 {
			t.Fatalf("graduate student %d: email %q (want suffix %q), telephone %q", g.Nr, g.EmailAddress, suffix, g.Telephone)
		}
		if i > 0 && all[i-1].Nr >= g.Nr {
			t.Fatalf("graduate students not ascending by nr at %d", i)
		}
	}
}

func TestForMetaRefusesOtherData(t *testing.T) {
	m := meta(t, dataset.Config{Seed: 7, Scale: 1})
	m.Rows["graduateStudent"]++
	if _, err := ForMeta(context.Background(), m); err == nil {
		t.Error("metadata with other row counts was accepted")
	}
}

// TestGenerateSF10 loads a larger dataset whole. How long it takes is measured by
// BenchmarkGenerate, never asserted: the machines are shared and noisy.
func TestGenerateSF10(t *testing.T) {
	if testing.Short() {
		t.Skip("loads sf=10")
	}
	d, err := Generate(context.Background(), dataset.Config{Seed: 1, Scale: 10})
	if err != nil {
		t.Fatal(err)
	}
	if n := sum(d.Rows); n < 500000 {
		t.Errorf("sf=10 loaded %d rows, want about 566,000", n)
	}
}

// BenchmarkGenerate times loading sf=10 into memory.
func BenchmarkGenerate(b *testing.B) {
	for b.Loop() {
		if _, err := Generate(context.Background(), dataset.Config{Seed: 1, Scale: 10}); err != nil {
			b.Fatal(err)
		}
	}
}

func sum(m map[string]int64) (n int64) {
	for _, v := range m {
		n += v
	}
	return n
}
