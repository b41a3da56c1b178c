package dialect

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Var says where a variable of a dialect template takes its value from: a
// variable of the benchmark template, as it is or through a table of
// values (an enum of the benchmark schema becomes one of the dialect's).
// The benchmark's variables that no Var names keep their names and values.
type Var struct {
	Name string // the dialect template's variable, without "$"
	From string // the benchmark template's variable it comes from
	// Values maps the benchmark's values to the dialect's; nil: the value
	// as it is. A value the table lacks is an error.
	Values map[string]string
	// NoBackslash refuses a string value with a backslash: one that the
	// dialect's operator would not match literally (PostGraphile's
	// includes escapes % and _ in its LIKE pattern, not \).
	NoBackslash bool
}

// String is the Var as a template header writes it.
func (v Var) String() string {
	s := v.Name + " from " + v.From
	keys := make([]string, 0, len(v.Values))
	for k := range v.Values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s += " " + k + "=" + v.Values[k]
	}
	if v.NoBackslash {
		s += " " + noBackslash
	}
	return s
}

const noBackslash = "no-backslash"

// Variables returns the dialect template's variables for an instance of
// the benchmark template whose variables are bench (JSON-ready values:
// strings, numbers, objects).
func (t *Template) Variables(bench map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(bench))
	used := map[string]bool{}
	for _, v := range t.Vars {
		val, ok := bench[v.From]
		if !ok {
			return nil, fmt.Errorf("%s: the benchmark's instance has no $%s (for $%s)", t.Label, v.From, v.Name)
		}
		used[v.From] = true
		s, isString := val.(string)
		if v.NoBackslash && isString && strings.Contains(s, `\`) {
			return nil, fmt.Errorf("%s: $%s = %q has a backslash, which %s does not match literally: the instance cannot be written in this dialect with the same meaning", t.Label, v.From, s, t.dialect)
		}
		if v.Values != nil {
			to, ok := v.Values[s]
			if !isString || !ok {
				return nil, fmt.Errorf("%s: $%s = %s has no value in the dialect (the values are %s)", t.Label, v.From, jsonText(val), strings.Join(sortedKeys(v.Values), ", "))
			}
			val = to
		}
		out[v.Name] = val
	}
	for k, val := range bench {
		if used[k] {
			continue
		}
		if _, clash := out[k]; clash {
			return nil, fmt.Errorf("%s: $%s is both a benchmark variable and a dialect one made from another", t.Label, k)
		}
		out[k] = val
	}
	return out, nil
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
