package experiment

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/workload"
)

// The parsing of the flag values that the experiments share. Every error
// is an *exitcode.UsageError that names the flag.

// Scale is a scale factor flag: a positive integer, with a message that
// says so.
type Scale int

func (s *Scale) String() string { return strconv.Itoa(int(*s)) }

// Set parses a scale factor.
func (s *Scale) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return fmt.Errorf("the scale factor must be a positive integer (the number of universities), got %q", v)
	}
	*s = Scale(n)
	return nil
}

// parseInts parses the comma-separated positive integers of flag --name.
func parseInts(name, s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, usagef("--%s: want comma-separated positive integers, got %q", name, s)
		}
		out = append(out, n)
	}
	return out, nil
}

// joinInts is "1,2,5" for xs: a default of a flag parseInts reads.
func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// parseTemplates parses --templates: nil for all.
func parseTemplates(s string) ([]int, error) {
	ids, err := workload.ParseTemplateList(s)
	if err != nil {
		return nil, usagef("--templates: %v", err)
	}
	return ids, nil
}

// parseVariants parses --variants: registered server variants, each once,
// at least one, and not null.
func parseVariants(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		v, ok := server.Lookup(name)
		if !ok {
			return nil, usagef("unknown variant %q: the variants are %s", name, variantNames())
		}
		if !v.GraphQL() {
			return nil, usagef("%s is not a GraphQL server (it serves an API of its own), so it cannot answer the templates", name)
		}
		if v.Dialect != "" {
			return nil, usagef("%s serves its own schema, not the benchmark's: it is measured with its dialect (gqlbench queries --dialect %s, then gqlbench load)", name, v.Dialect)
		}
		if name == "null" {
			return nil, usagef("null answers every query with the same canned data, so every answer would be wrong: it is measured as the load generator's ceiling instead (quickstart --ceiling)")
		}
		if seen[name] {
			return nil, usagef("variant %s appears twice", name)
		}
		seen[name] = true
		out = append(out, name)
	}
	if len(out) == 0 {
		return nil, usagef("no variants: give --variants naive,batch,...")
	}
	return out, nil
}

// variantNames is "batch, batch-memo, ..." for every registered variant.
func variantNames() string {
	var names []string
	for _, v := range server.Variants() {
		names = append(names, v.Name)
	}
	return strings.Join(names, ", ")
}

// allVariants are every variant with a place in the lists people read
// (server.Variant.Order), in that order, but null, whose canned answer is
// wrong for every template (quickstart measures it as the ceiling), and the
// ones that are not GraphQL servers (rest), the servers of other stacks
// (server.Variant.Process), which need PostgreSQL and a first install from
// npm: they are asked for by name, and the variants that serve a dialect
// instead of the benchmark's schema.
func allVariants() []string {
	var out []string
	for _, v := range server.Ordered() {
		if v.Name != "null" && v.GraphQL() && v.Process == nil && v.Dialect == "" {
			out = append(out, v.Name)
		}
	}
	return out
}
