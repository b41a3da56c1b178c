package operation

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/queryfile"
)

// mixStream is the random stream of the mix shuffle, apart from the rows'
// draws (one stream per operation, from its name).
const mixStream = 0x6d69_78 // "mix", as workload's

// Options say how a Set and its rows become entries.
type Options struct {
	PerOp   int            // entries per operation at most; 0 for every row that applies to it
	Shuffle bool           // draw an operation's rows at random (seeded), else take them in order
	Seed    uint64         // the seed of the draws and of the mix
	Weights map[string]int // a mix: Weights[op]·PerOp entries of each operation named, shuffled; nil for none
	Literal bool           // write the variables into the query text as literals
}

// Result is what Build makes: the entries, and notes for the user.
type Result struct {
	Entries []queryfile.Entry
	Notes   []string // e.g. an operation with fewer rows than asked
}

// candidate is one possible entry of an operation: its variables and its
// ordinal among the operation's rows.
type candidate struct {
	ord  int
	vars map[string]any
}

// Build makes the entries of set's operations with the rows of vars (nil
// for no variables file).
//
// A row with an operation is bound to it; a row without one to every
// operation it Applies to, and a row that applies to none is an error. An
// operation without variables has one entry (weight·PerOp identical ones in
// a mix, so that the mix keeps its proportions); one with variables has one
// candidate per row bound to it, numbered in file order, and PerOp of them
// are taken in order, or drawn at random with Shuffle. Without a variables
// file, an operation whose variables are all optional has one entry.
//
// Entry ids are <operation>-<ordinal>, the ordinal (0001, 0002, ...) being
// the row's place among the operation's rows, whatever the draw or mix: the
// same row keeps its id. Labels are operation names. With Weights only the
// operations named are written, weight·PerOp entries each (all candidates
// when fewer, with a note), in one sequence shuffled with Seed.
func Build(set *Set, vars *Vars, opt Options) (*Result, error) {
	if err := checkOptions(set, opt); err != nil {
		return nil, err
	}
	cands, err := candidates(set, vars)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	for _, op := range set.Ops {
		if op.Step() {
			continue // its chain's first operation's entries carry it
		}
		want := opt.PerOp
		if opt.Weights != nil {
			w, ok := opt.Weights[op.Name]
			if !ok {
				continue
			}
			want = w * opt.PerOp
		}
		cs := cands[op]
		if len(op.def.VariableDefinitions) == 0 && opt.Weights != nil {
			for len(cs) < want {
				cs = append(cs, candidate{ord: len(cs) + 1})
			}
		}
		picked := pick(cs, want, opt, op.Name)
		if want > 0 && len(picked) < want && len(op.def.VariableDefinitions) > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("%s has only %d rows: all of them are used, not %d", op.Name, len(picked), want))
		}
		for _, c := range picked {
			e, err := entry(set, op, c, opt.Literal)
			if err != nil {
				return nil, err
			}
			res.Entries = append(res.Entries, e)
		}
	}
	if opt.Weights != nil {
		r := rand.New(rand.NewPCG(opt.Seed, mixStream))
		r.Shuffle(len(res.Entries), func(i, j int) { res.Entries[i], res.Entries[j] = res.Entries[j], res.Entries[i] })
	}
	return res, nil
}

func checkOptions(set *Set, opt Options) error {
	if opt.PerOp < 0 {
		return fmt.Errorf("entries per operation must not be negative, got %d", opt.PerOp)
	}
	if opt.Weights == nil {
		return nil
	}
	if opt.PerOp == 0 {
		return fmt.Errorf("a mix needs a number of entries per unit of weight (--per-op)")
	}
	if len(opt.Weights) == 0 {
		return fmt.Errorf("empty mix")
	}
	for name, w := range opt.Weights {
		op := set.Lookup(name)
		if op == nil {
			return fmt.Errorf("the mix names %s, which is not an operation (the operations: %s)", name, strings.Join(set.Names(), ", "))
		}
		if op.Step() {
			return fmt.Errorf("the mix names %s, a step that runs after %s: name the chain's first operation, %s", name, op.After.Op, set.Root(op).Name)
		}
		if w <= 0 {
			return fmt.Errorf("the weight of %s must be positive, got %d", name, w)
		}
	}
	return nil
}

// candidates binds every row to the operations it is for.
func candidates(set *Set, vars *Vars) (map[*Operation][]candidate, error) {
	out := map[*Operation][]candidate{}
	add := func(op *Operation, v map[string]any) {
		out[op] = append(out[op], candidate{ord: len(out[op]) + 1, vars: v})
	}
	var errs []error
	if vars != nil {
		errs = append(errs, checkColumns(set, vars)...)
		for i := range vars.Rows {
			if len(errs) >= maxErrors {
				break
			}
			row := &vars.Rows[i]
			ops, err := rowOps(set, vars, row)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			for _, op := range ops {
				v, err := Bind(op, row, vars, set.Schema)
				if err != nil {
					errs = append(errs, err)
					continue
				}
				add(op, v)
			}
		}
	}
	rowErrors := len(errs) > 0 // then operations without rows are no news
	for _, op := range set.Ops {
		switch {
		case op.Step():
		case len(op.def.VariableDefinitions) == 0:
			add(op, nil)
		case len(out[op]) > 0:
		case vars == nil && !anyRequired(op):
			add(op, nil)
		case vars == nil:
			errs = append(errs, fmt.Errorf("operation %s needs values for its variables (%s): give a variables file", op.Name, varList(op)))
		case !rowErrors:
			errs = append(errs, fmt.Errorf("%s: no row is for operation %s (its variables: %s)", vars.File, op.Name, varList(op)))
		}
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	return out, nil
}

// checkColumns refuses CSV columns that no operation defines.
func checkColumns(set *Set, vars *Vars) []error {
	var errs []error
	for _, c := range vars.Columns {
		found := false
		for _, op := range set.Ops {
			found = found || op.def.VariableDefinitions.ForName(c) != nil
		}
		if !found {
			errs = append(errs, fmt.Errorf("%s: column %s is not a variable of any operation", vars.File, c))
		}
	}
	return errs
}

// rowOps returns the operations row is for.
func rowOps(set *Set, vars *Vars, row *Row) ([]*Operation, error) {
	if row.Op != "" {
		op := set.Lookup(row.Op)
		if op == nil {
			return nil, fmt.Errorf("%s: %s %q is not an operation (the operations: %s)", row.where(vars), OpColumn, row.Op, strings.Join(set.Names(), ", "))
		}
		if op.Step() {
			return nil, fmt.Errorf("%s: operation %s is a step that runs after %s: its values come from the row of %s, the chain's first operation", row.where(vars), op.Name, op.After.Op, set.Root(op).Name)
		}
		if len(op.def.VariableDefinitions) == 0 {
			return nil, fmt.Errorf("%s: operation %s has no variables, and has its one entry without rows", row.where(vars), op.Name)
		}
		return []*Operation{op}, nil
	}
	var ops []*Operation
	for _, op := range set.Ops {
		if !op.Step() && Applies(op, row) {
			ops = append(ops, op)
		}
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("%s applies to no operation: no operation defines all of its variables (%s) and gets all those it requires from it; name one in an %q column",
			row.where(vars), nameList(row.Names()), OpColumn)
	}
	return ops, nil
}

func anyRequired(op *Operation) bool {
	for _, v := range op.def.VariableDefinitions {
		if Required(v) {
			return true
		}
	}
	return false
}

func nameList(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return "$" + strings.Join(names, ", $")
}

// pick takes want candidates (all when want is 0 or more than there are):
// the first ones, or a seeded draw without replacement.
func pick(cs []candidate, want int, opt Options, name string) []candidate {
	if want <= 0 || want > len(cs) {
		want = len(cs)
	}
	if !opt.Shuffle {
		return cs[:want]
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	r := rand.New(rand.NewPCG(opt.Seed, h.Sum64()))
	out := make([]candidate, 0, want)
	for _, i := range r.Perm(len(cs))[:want] {
		out = append(out, cs[i])
	}
	return out
}

// entry makes op's entry for one candidate.
func entry(set *Set, op *Operation, c candidate, literal bool) (queryfile.Entry, error) {
	if len(op.next) > 0 {
		return chainEntry(op, c, literal)
	}
	e := queryfile.Entry{ID: op.Name + "-" + ordinal(c.ord), Label: op.Name, Query: op.Text, Unordered: op.Unordered}
	if literal {
		q, err := op.Literal(c.vars, set.Schema)
		if err != nil {
			return e, fmt.Errorf("%s: %w", e.ID, err)
		}
		e.Query = q
		return e, nil
	}
	if len(c.vars) > 0 {
		b, err := marshal(c.vars)
		if err != nil {
			return e, fmt.Errorf("%s: %w", e.ID, err)
		}
		e.Variables = b
	}
	return e, nil
}

// ordinal writes n in at least four digits.
func ordinal(n int) string {
	s := strconv.Itoa(n)
	if len(s) < 4 {
		s = strings.Repeat("0", 4-len(s)) + s
	}
	return s
}

// ParseWeights reads a mix: OP:WEIGHT,... such as "Search:3,Home:1"; a
// missing weight is 1. Weights are relative counts of entries.
func ParseWeights(s string) (map[string]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty mix: want OPERATION:WEIGHT,... such as Search:3,Home:1")
	}
	m := map[string]int{}
	for _, part := range strings.Split(s, ",") {
		name, w, hasWeight := strings.Cut(strings.TrimSpace(part), ":")
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, fmt.Errorf("mix %q: an empty operation name", s)
		}
		weight := 1
		if hasWeight {
			n, err := strconv.Atoi(strings.TrimSpace(w))
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("mix %q: the weight of %s must be a positive integer, got %q", s, name, w)
			}
			weight = n
		}
		if _, dup := m[name]; dup {
			return nil, fmt.Errorf("mix %q: %s appears twice", s, name)
		}
		m[name] = weight
	}
	return m, nil
}
