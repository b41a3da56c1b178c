package queryfile

import "testing"

// TestOperationKind: the kind of the operation a document runs, read
// without a parser: comments, strings and block strings do not fool it,
// operationName picks one of several, fragments are no operations.
func TestOperationKind(t *testing.T) {
	for _, c := range []struct{ doc, name, want string }{
		{"{ book(id: 1) { id } }", "", "query"},
		{"query { a }", "", "query"},
		{"mutation AddReview($id: ID!, $s: Int = 3) @x { addReview(bookId: $id, stars: $s) { id } }", "", "mutation"},
		{"mutation ($id: ID!) { addReview(bookId: $id) { id } }", "", "mutation"},
		{"# mutation X { a }\nquery Q { a }", "", "query"},
		{"query Q { search(text: \"mutation M { a }\") { id } }", "", "query"},
		{"query Q { search(text: \"\"\"\n} mutation M {\n\"\"\") { id } }\nmutation M { b }", "M", "mutation"},
		{"fragment F on Book { id }\nmutation M { addReview { ...F } }", "", "mutation"},
		{"query A { a }\nmutation B { b }", "B", "mutation"},
		{"query A { a }\nmutation B { b }", "A", "query"},
		{"query A { a }\nmutation B { b }", "", "query"},
		{"query A { a }", "Nope", ""},
		{"subscription S { s }", "", "subscription"},
		{"query Q($f: BookFilter = {genre: FICTION}) { books(filter: $f) { id } }\nmutation M { m }", "", "query"},
		{"", "", ""},
	} {
		if got := OperationKind(c.doc, c.name); got != c.want {
			t.Errorf("OperationKind(%q, %q) = %q, want %q", c.doc, c.name, got, c.want)
		}
	}
	e := Entry{GraphQLPlan: Plan{{Query: "query A { a }", Then: []Call{{Query: "mutation B { b }"}}}}}
	if !e.Mutation() {
		t.Errorf("steps with a mutation: not a mutation")
	}
}

// TestBodyPlaceholderPath: a body's field placeholder may be a dotted path
// of member names; anything else is no placeholder.
func TestBodyPlaceholderPath(t *testing.T) {
	for s, want := range map[string]bool{"{.a}": true, "{.a.b.c}": true, "{name}": true, "{.a..b}": false, "{a.b}": false, "{.}": false, "{.a.}": false} {
		if _, ok := BodyPlaceholder(s); ok != want {
			t.Errorf("BodyPlaceholder(%q) = %v, want %v", s, ok, want)
		}
	}
}
