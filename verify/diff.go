package verify

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Difference is one place where an answer differs from the expected one.
type Difference struct {
	Path     string `json:"path"`               // e.g. data.book.price, data.books[3].title
	Expected string `json:"expected,omitempty"` // canonical JSON, "" when absent
	Actual   string `json:"actual,omitempty"`   // canonical JSON, "" when absent
}

// Diff compares two answers (the "data" members of responses) field by
// field after normalising both with o, and returns where they differ, in
// document order, at most max differences (0: all). Paths start with
// "data"; list elements are compared by position (after sorting, when
// unordered), a list of another length differs at its own path too.
func Diff(expected, actual []byte, o Options, max int) ([]Difference, error) {
	ev, err := normalized(expected, o)
	if err != nil {
		return nil, fmt.Errorf("the expected answer: %w", err)
	}
	av, err := normalized(actual, o)
	if err != nil {
		return nil, fmt.Errorf("the answer: %w", err)
	}
	d := differ{max: max}
	d.walk("data", ev, av, true, true)
	return d.out, nil
}

// normalized decodes data with o applied.
func normalized(data []byte, o Options) (any, error) {
	v, err := decode(data)
	if err != nil {
		return nil, err
	}
	for _, p := range o.Ignore {
		v = drop(v, p)
	}
	if o.Unordered {
		return sortLists(v)
	}
	return v, nil
}

type differ struct {
	max int
	out []Difference
}

func (d *differ) full() bool { return d.max > 0 && len(d.out) >= d.max }

func (d *differ) add(path string, e, a any, hasE, hasA bool) {
	if d.full() {
		return
	}
	diff := Difference{Path: path}
	if hasE {
		diff.Expected = text(e)
	}
	if hasA {
		diff.Actual = text(a)
	}
	d.out = append(d.out, diff)
}

func (d *differ) walk(path string, e, a any, hasE, hasA bool) {
	if d.full() {
		return
	}
	if !hasE || !hasA {
		d.add(path, e, a, hasE, hasA)
		return
	}
	switch ex := e.(type) {
	case object:
		ax, ok := a.(object)
		if !ok {
			d.add(path, e, a, true, true)
			return
		}
		d.objects(path, ex, ax)
	case []any:
		ax, ok := a.([]any)
		if !ok {
			d.add(path, e, a, true, true)
			return
		}
		if len(ex) != len(ax) {
			d.add(path+".length", len(ex), len(ax), true, true)
		}
		for i := range max(len(ex), len(ax)) {
			var ev, av any
			if i < len(ex) {
				ev = ex[i]
			}
			if i < len(ax) {
				av = ax[i]
			}
			d.walk(path+"["+strconv.Itoa(i)+"]", ev, av, i < len(ex), i < len(ax))
		}
	default:
		if text(e) != text(a) {
			d.add(path, e, a, true, true)
		}
	}
}

// objects compares two objects member by member, in the expected one's
// key order, then the members only the actual one has.
func (d *differ) objects(path string, e, a object) {
	am := map[string]any{}
	for _, m := range a {
		am[m.key] = m.val
	}
	seen := map[string]bool{}
	for _, m := range sortedMembers(e) {
		seen[m.key] = true
		av, ok := am[m.key]
		d.walk(path+"."+m.key, m.val, av, true, ok)
	}
	for _, m := range sortedMembers(a) {
		if !seen[m.key] {
			d.walk(path+"."+m.key, nil, m.val, false, true)
		}
	}
}

func sortedMembers(o object) object {
	s := slices.Clone(o)
	slices.SortFunc(s, func(a, b member) int { return strings.Compare(a.key, b.key) })
	return s
}

// text is v's canonical JSON (a length as a number).
func text(v any) string {
	if n, ok := v.(int); ok {
		return strconv.Itoa(n)
	}
	var b bytes.Buffer
	if err := write(&b, v); err != nil {
		return fmt.Sprint(v)
	}
	return b.String()
}
