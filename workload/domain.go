package workload

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/dataset"
)

// DomainKind says where a variable's values come from.
type DomainKind int

// The kinds of domains (DESIGN Appendix C).
const (
	IDList        DomainKind = iota + 1 // the ids of one kind in the metadata (Meta.IDs[IDKind])
	IntRange                            // the integers Lo..Hi, inclusive
	EnumValues                          // the values of a schema enum
	TitleWords                          // the words that occur in publication titles (Meta.Words.Title)
	InterestWords                       // the words that occur in research interests (Meta.Words.Interest)
)

// Domain is the set of values a template variable is drawn from. The possible
// instances of a template are the cartesian product of its variables' domains.
type Domain struct {
	Kind   DomainKind
	IDKind string   // IDList: the metadata's id list, by LinGBM name (dataset.IDKinds)
	Lo, Hi int      // IntRange
	Enum   string   // EnumValues: the enum type
	Values []string // EnumValues: its values, in schema order
	// DistinctFrom names an earlier variable over the same enum whose value
	// this one must differ from (QT8's two ordering attributes).
	DistinctFrom string
}

// String describes d the way template headers write it.
func (d Domain) String() string {
	switch d.Kind {
	case IDList:
		return "ids " + d.IDKind
	case IntRange:
		return fmt.Sprintf("range %d..%d", d.Lo, d.Hi)
	case EnumValues:
		s := "enum " + d.Enum
		if d.DistinctFrom != "" {
			s += ", distinct from $" + d.DistinctFrom
		}
		return s
	case TitleWords:
		return "words title"
	case InterestWords:
		return "words interest"
	}
	return "invalid domain"
}

// parseDomain reads a domain as template headers write it: "ids KIND",
// "range LO..HI", "enum TYPE[, distinct from $VAR]", "words title|interest".
func parseDomain(spec string, earlier []Var) (Domain, error) {
	kind, arg, _ := strings.Cut(spec, " ")
	arg = strings.TrimSpace(arg)
	switch kind {
	case "ids":
		for _, k := range dataset.IDKinds {
			if k.Name == arg {
				return Domain{Kind: IDList, IDKind: arg}, nil
			}
		}
		return Domain{}, fmt.Errorf("no id list %q in the metadata", arg)
	case "range":
		lo, hi, ok := strings.Cut(arg, "..")
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if !ok || err1 != nil || err2 != nil || a > b {
			return Domain{}, fmt.Errorf("bad range %q: want LO..HI", arg)
		}
		return Domain{Kind: IntRange, Lo: a, Hi: b}, nil
	case "enum":
		name, distinct, hasDistinct := strings.Cut(arg, ",")
		def := Schema().Types[name]
		if def == nil || len(def.EnumValues) == 0 {
			return Domain{}, fmt.Errorf("no enum %q in the schema", name)
		}
		d := Domain{Kind: EnumValues, Enum: name}
		for _, v := range def.EnumValues {
			d.Values = append(d.Values, v.Name)
		}
		if hasDistinct {
			other, ok := strings.CutPrefix(strings.TrimSpace(distinct), "distinct from $")
			if !ok {
				return Domain{}, fmt.Errorf("bad %q: want `enum TYPE, distinct from $VAR`", arg)
			}
			found := false
			for _, v := range earlier {
				found = found || (v.Name == other && v.Domain.Kind == EnumValues && v.Domain.Enum == name)
			}
			if !found || len(d.Values) < 2 {
				return Domain{}, fmt.Errorf("distinct from $%s: no earlier variable over enum %s", other, name)
			}
			d.DistinctFrom = other
		}
		return d, nil
	case "words":
		switch arg {
		case "title":
			return Domain{Kind: TitleWords}, nil
		case "interest":
			return Domain{Kind: InterestWords}, nil
		}
	}
	return Domain{}, fmt.Errorf("unknown domain %q", spec)
}

// graphQLType is the variable type a domain's values have.
func (d Domain) graphQLType() string {
	switch d.Kind {
	case IDList:
		return "ID!"
	case IntRange:
		return "Int!"
	case EnumValues:
		return d.Enum + "!"
	}
	return "String!"
}

// Size returns the number of values d offers with metadata meta.
func (d Domain) Size(meta *dataset.Meta) (int, error) {
	n := 0
	switch d.Kind {
	case IDList:
		n = len(meta.IDs[d.IDKind])
	case IntRange:
		n = d.Hi - d.Lo + 1
	case EnumValues:
		n = len(d.Values)
		if d.DistinctFrom != "" {
			n--
		}
	case TitleWords:
		n = len(meta.Words.Title)
	case InterestWords:
		n = len(meta.Words.Interest)
	}
	if n <= 0 {
		return 0, fmt.Errorf("the metadata offers no values for %s", d)
	}
	return n, nil
}

// value returns the i-th value of d (0 ≤ i < Size) as JSON-ready Go value:
// ids as strings (GraphQL ID), integers as int, enum values and words as
// strings. vars holds the values of the earlier variables.
func (d Domain) value(meta *dataset.Meta, i int, vars map[string]any) any {
	switch d.Kind {
	case IDList:
		return strconv.FormatInt(meta.IDs[d.IDKind][i], 10)
	case IntRange:
		return d.Lo + i
	case EnumValues:
		if d.DistinctFrom != "" {
			// Skip the other variable's value: i indexes the remaining values.
			if i >= indexOf(d.Values, vars[d.DistinctFrom]) {
				i++
			}
		}
		return d.Values[i]
	case TitleWords:
		return meta.Words.Title[i]
	case InterestWords:
		return meta.Words.Interest[i]
	}
	panic("workload: invalid domain")
}

func indexOf(list []string, v any) int {
	for i, s := range list {
		if s == v {
			return i
		}
	}
	return len(list)
}

// sizes returns the domain sizes of t's variables with metadata meta.
func (t *Template) sizes(meta *dataset.Meta) ([]int, error) {
	if meta == nil {
		return nil, fmt.Errorf("no metadata")
	}
	out := make([]int, len(t.Vars))
	for i, v := range t.Vars {
		n, err := v.Domain.Size(meta)
		if err != nil {
			return nil, fmt.Errorf("%s $%s: %w", t.Name, v.Name, err)
		}
		out[i] = n
	}
	return out, nil
}

// Count returns the number of possible instances of template id with
// metadata meta: the product of its variables' domain sizes.
func Count(meta *dataset.Meta, id int) (*big.Int, error) {
	t, err := TemplateByID(id)
	if err != nil {
		return nil, err
	}
	sizes, err := t.sizes(meta)
	if err != nil {
		return nil, err
	}
	return product(sizes), nil
}

func product(sizes []int) *big.Int {
	p := big.NewInt(1)
	for _, n := range sizes {
		p.Mul(p, big.NewInt(int64(n)))
	}
	return p
}
