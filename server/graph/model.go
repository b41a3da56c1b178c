package graph

import (
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/99designs/gqlgen/graphql"

	"github.com/gqlbench/gqlbench/server/source"
)

// MarshalNr writes an nr as a GraphQL ID: a JSON string. gqlgen.yml binds
// the ID scalar to int64 through MarshalNr and UnmarshalNr, so resolvers and
// input types see nrs, never strings.
func MarshalNr(nr int64) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		var buf [24]byte
		b := append(buf[:0], '"')
		b = strconv.AppendInt(b, nr, 10)
		w.Write(append(b, '"'))
	})
}

// UnmarshalNr reads a GraphQL ID as an nr. A string must be a base-10
// 64-bit integer; an integer is taken as is. Anything else is an error,
// which gqlgen reports as a field error (the field is null).
func UnmarshalNr(v any) (int64, error) {
	switch v := v.(type) {
	case string:
		nr, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, argErrorf("ID %q is not an integer: every id of this schema is an integer nr", v)
		}
		return nr, nil
	case int:
		return int64(v), nil
	case int64:
		return v, nil
	case json.Number:
		return UnmarshalNr(string(v))
	case float64: // JSON numbers decoded without UseNumber
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return int64(v), nil
		}
		return 0, argErrorf("ID %v is not an integer", v)
	default:
		return 0, argErrorf("ID must be a string or an integer, got %T", v)
	}
}

// Faculty is a value of the GraphQL interface Faculty: a *Professor or a
// *Lecturer, chosen by the row's table (source.Faculty.Professor).
type Faculty interface{ isFaculty() }

// Author is a value of the GraphQL interface Author: a *Professor, a
// *Lecturer or a *source.GraduateStudent (a type of package source, which
// cannot carry a marker method, hence the empty interface).
type Author any

// Professor is a faculty row of the professor table.
type Professor struct{ *source.Faculty }

// Lecturer is a faculty row of the lecturer table.
type Lecturer struct{ *source.Faculty }

func (*Professor) isFaculty() {}
func (*Lecturer) isFaculty()  {}

// Position is always null: the data has no positions.
func (*Lecturer) Position() *string { return nil }

// facultyValue wraps a faculty row as the GraphQL type of its table.
func facultyValue(f *source.Faculty) Faculty {
	if f == nil {
		return nil
	}
	if f.Professor {
		return &Professor{f}
	}
	return &Lecturer{f}
}

// GradConnection is a University's graduateStudentConnection: the
// graduate students whose undergraduate degree is from University.
type GradConnection struct {
	University int64
}
