package workload

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/queryfile"
)

// Instance is a query instance: a template and values for its variables.
type Instance struct {
	ID        string         // unique within a workload: "QT5-0001" for generated ones
	Template  int            // the template's ID, 1..16
	Query     string         // the template's query text
	Variables map[string]any // JSON-ready: IDs as strings, Int as int, enums and words as strings
	// Expect is the hash of the right answer's data (verify.Hash: hex
	// SHA-256 of its canonical JSON), "" when unknown. Generate leaves it
	// empty; `gqlbench queries --expect` fills it from the oracle.
	Expect string
	// Dataset is the dataset the instance was drawn from (nil: unknown), so
	// a run file can say which dataset its answers are right for.
	Dataset *DatasetRef
}

// DatasetRef names a generated dataset: its scale factor, seed and
// generator version (dataset.Meta's Scale, Seed and Version).
type DatasetRef = queryfile.DatasetRef

// Options selects what Generate produces.
type Options struct {
	PerTemplate int    // instances per template (all possible ones when fewer exist); > 0
	Templates   []int  // template IDs; nil means all 16
	Seed        uint64 // the same seed and metadata give the same instances
}

// Generate instantiates templates with values drawn from meta (LinGBM's query
// generator, paper Section 4.4.2). For each template it draws
// min(PerTemplate, Count) distinct instances uniformly at random, without
// replacement, from the cartesian product of its variables' domains; when
// PerTemplate ≥ Count that is every possible instance. Output is grouped by
// template in ascending ID order, with ids "QT<n>-0001", "QT<n>-0002", ...
//
// Each template draws from its own random stream (seeded by Seed and the
// template ID), so a template's instances do not depend on which other
// templates are generated, and the instances of a smaller PerTemplate are a
// prefix of those of a larger one.
func Generate(meta *dataset.Meta, opts Options) ([]Instance, error) {
	if meta == nil {
		return nil, fmt.Errorf("no metadata")
	}
	if opts.PerTemplate <= 0 {
		return nil, fmt.Errorf("the number of instances per template must be positive, got %d", opts.PerTemplate)
	}
	ids, err := templateSet(opts.Templates)
	if err != nil {
		return nil, err
	}
	var out []Instance
	for _, id := range ids {
		t, _ := TemplateByID(id)
		inst, err := t.generate(meta, opts.PerTemplate, opts.Seed)
		if err != nil {
			return nil, err
		}
		out = append(out, inst...)
	}
	return out, nil
}

// templateSet checks a list of template IDs (nil: all) and returns it sorted.
func templateSet(ids []int) ([]int, error) {
	if ids == nil {
		ids = make([]int, NumTemplates)
		for i := range ids {
			ids[i] = i + 1
		}
		return ids, nil
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("no templates selected")
	}
	seen := map[int]bool{}
	for _, id := range ids {
		if _, err := TemplateByID(id); err != nil {
			return nil, err
		}
		if seen[id] {
			return nil, fmt.Errorf("template QT%d selected twice", id)
		}
		seen[id] = true
	}
	out := slices.Clone(ids)
	slices.Sort(out)
	return out, nil
}

// generate draws n instances of t (fewer when fewer exist).
func (t *Template) generate(meta *dataset.Meta, n int, seed uint64) ([]Instance, error) {
	sizes, err := t.sizes(meta)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, uint64(t.ID)))
	ref := &DatasetRef{SF: meta.Scale, Seed: meta.Seed, Version: meta.Version}
	var digits [][]int
	if total := product(sizes); total.IsUint64() {
		digits = sampleIndexes(r, total.Uint64(), n, sizes)
	} else {
		digits = sampleDigits(r, n, sizes) // a product beyond 2^64: only with absurd metadata
	}
	out := make([]Instance, len(digits))
	for i, d := range digits {
		vars := make(map[string]any, len(t.Vars))
		for j, v := range t.Vars {
			vars[v.Name] = v.Domain.value(meta, d[j], vars)
		}
		out[i] = Instance{ID: instanceID(t, i+1), Template: t.ID, Query: t.Query, Variables: vars, Dataset: ref}
	}
	return out, nil
}

func instanceID(t *Template, ordinal int) string { return fmt.Sprintf("%s-%04d", t.Name, ordinal) }

// sampleIndexes draws min(n, total) distinct indexes into the mixed-radix
// product of sizes, uniformly, by a Fisher–Yates shuffle of 0..total-1 that
// is stopped after n steps and keeps only the displaced positions in a map:
// exact, duplicate-free, O(n) time and memory whatever total is. When
// n ≥ total the result is every index, in a seeded random order. The first k
// draws never depend on n, hence the prefix property of Generate.
func sampleIndexes(r *rand.Rand, total uint64, n int, sizes []int) [][]int {
	if uint64(n) > total {
		n = int(total)
	}
	moved := make(map[uint64]uint64, n)
	at := func(i uint64) uint64 {
		if v, ok := moved[i]; ok {
			return v
		}
		return i
	}
	out := make([][]int, n)
	for i := uint64(0); i < uint64(n); i++ {
		j := i + r.Uint64N(total-i)
		pick := at(j)
		moved[j] = at(i) // position i is never read again
		delete(moved, i)
		out[i] = decode(pick, sizes)
	}
	return out
}

// decode splits index k into one digit per variable, the first variable
// most significant.
func decode(k uint64, sizes []int) []int {
	d := make([]int, len(sizes))
	for i := len(sizes) - 1; i >= 0; i-- {
		d[i] = int(k % uint64(sizes[i]))
		k /= uint64(sizes[i])
	}
	return d
}

// sampleDigits draws n distinct digit tuples by drawing each digit uniformly
// (a uniform index into the product) and rejecting repeats; only used when
// the product exceeds 2^64, so repeats are vanishingly rare.
func sampleDigits(r *rand.Rand, n int, sizes []int) [][]int {
	seen := make(map[string]bool, n)
	out := make([][]int, 0, n)
	for len(out) < n {
		d := make([]int, len(sizes))
		var key strings.Builder
		for i, s := range sizes {
			d[i] = r.IntN(s)
			key.WriteString(strconv.Itoa(d[i]) + ",")
		}
		if !seen[key.String()] {
			seen[key.String()] = true
			out = append(out, d)
		}
	}
	return out
}
