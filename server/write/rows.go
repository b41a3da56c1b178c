package write

import "github.com/gqlbench/gqlbench/server/source"

// Publication is r, a row of Publication, as package source's row type.
func (r *Row) Publication() *source.Publication {
	e := Publication
	return &source.Publication{Nr: r.Nr, Title: str(r.Value(e, "title")), Abstract: str(r.Value(e, "abstract")),
		MainAuthor: num(r.Value(e, "mainAuthor"))}
}

// UndergraduateStudent is r, a row of UndergraduateStudent, as package
// source's row type.
func (r *Row) UndergraduateStudent() *source.UndergraduateStudent {
	e := UndergraduateStudent
	s := &source.UndergraduateStudent{Nr: r.Nr, Telephone: str(r.Value(e, "telephone")), EmailAddress: str(r.Value(e, "emailAddress")),
		Age: num(r.Value(e, "age")), MemberOf: num(r.Value(e, "memberOf"))}
	if a, ok := r.Value(e, "advisor").(int64); ok {
		s.Advisor = &a
	}
	return s
}

func str(v any) string { s, _ := v.(string); return s }
func num(v any) int64  { n, _ := v.(int64); return n }
