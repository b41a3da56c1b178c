package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Options say what of an answer is not part of it: the order of its lists
// (Unordered), and fields that change by nature, such as timestamps
// (Ignore). The zero Options compare everything, as Canonical does.
type Options struct {
	// Unordered compares every list as a multiset: its elements are
	// sorted by their canonical form before the comparison.
	Unordered bool
	// Ignore lists paths of members left out, as dotted member names from
	// the answer's root, e.g. "me.lastSeen"; a path goes through every
	// element of a list on its way ("books.updatedAt" leaves out each
	// book's updatedAt), and "[]" may mark the lists ("books[].updatedAt").
	// A leading "data." is dropped: paths may be written from the response.
	Ignore []Path
}

// Path is a parsed Ignore path: its member names.
type Path []string

// ParsePath parses a path as Options.Ignore describes it.
func ParsePath(s string) (Path, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "data.")
	if s == "" || s == "data" {
		return nil, errors.New("empty path: want member names joined by dots, e.g. me.lastSeen")
	}
	var p Path
	for _, seg := range strings.Split(s, ".") {
		seg = strings.TrimSuffix(seg, "[]")
		if seg == "" || strings.ContainsAny(seg, "[]") {
			return nil, fmt.Errorf("path %q: want member names joined by dots, e.g. books[].updatedAt", s)
		}
		p = append(p, seg)
	}
	return p, nil
}

// IsZero reports whether o compares everything.
func (o Options) IsZero() bool { return !o.Unordered && len(o.Ignore) == 0 }

// Normalize returns the canonical form of data (see Canonical) with o
// applied: the ignored members removed, every list sorted when unordered.
func Normalize(data []byte, o Options) ([]byte, error) {
	if o.IsZero() {
		return Canonical(data)
	}
	v, err := decode(data)
	if err != nil {
		return nil, err
	}
	for _, p := range o.Ignore {
		v = drop(v, p)
	}
	var out bytes.Buffer
	if o.Unordered {
		if v, err = sortLists(v); err != nil {
			return nil, err
		}
	}
	if err := write(&out, v); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// HashWith returns the hex SHA-256 of Normalize(data, o): Hash when o is
// zero.
func HashWith(data []byte, o Options) (string, error) {
	c, err := Normalize(data, o)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:]), nil
}

// decode parses one JSON value into the tree write writes.
func decode(data []byte) (any, error) {
	if !json.Valid(data) {
		return nil, errors.New("verify: not one valid JSON value")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return parse(dec)
}

// drop removes path p from v, through every list on the way.
func drop(v any, p Path) any {
	switch x := v.(type) {
	case []any:
		for i := range x {
			x[i] = drop(x[i], p)
		}
	case object:
		for i, m := range x {
			if m.key != p[0] {
				continue
			}
			if len(p) == 1 {
				return slices.Delete(x, i, i+1)
			}
			x[i].val = drop(m.val, p[1:])
			break
		}
		return x
	}
	return v
}

// sortLists sorts every list in v, deepest first, by its elements'
// canonical bytes.
func sortLists(v any) (any, error) {
	switch x := v.(type) {
	case object:
		for i := range x {
			s, err := sortLists(x[i].val)
			if err != nil {
				return nil, err
			}
			x[i].val = s
		}
	case []any:
		keys := make([]string, len(x))
		for i := range x {
			s, err := sortLists(x[i])
			if err != nil {
				return nil, err
			}
			x[i] = s
			var b bytes.Buffer
			if err := write(&b, s); err != nil {
				return nil, err
			}
			keys[i] = b.String()
		}
		idx := make([]int, len(x))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
		sorted := make([]any, len(x))
		for i, j := range idx {
			sorted[i] = x[j]
		}
		return sorted, nil
	}
	return v, nil
}
