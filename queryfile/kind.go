package queryfile

// OperationKind returns the kind of the operation a GraphQL document runs:
// "query", "mutation" or "subscription" — of the operation named
// operationName when given, else of the document's first operation ("" when
// there is none, or none of that name). A shorthand query ({ … }) is a
// query. The document is read token by token (strings, block strings and
// comments skipped), without a GraphQL parser: this package links none.
func OperationKind(document, operationName string) string {
	first := ""
	for _, op := range operations(document) {
		if operationName != "" && op.name == operationName {
			return op.kind
		}
		if first == "" {
			first = op.kind
		}
	}
	if operationName != "" {
		return ""
	}
	return first
}

// Mutation reports whether the entry runs a mutation: its query, or any of
// its GraphQL steps'.
func (e *Entry) Mutation() bool {
	if e.Query != "" && OperationKind(e.Query, e.OperationName) == "mutation" {
		return true
	}
	return stepsMutate(e.GraphQLPlan)
}

func stepsMutate(p Plan) bool {
	for i := range p {
		if p[i].Query != "" && OperationKind(p[i].Query, "") == "mutation" || stepsMutate(p[i].Then) {
			return true
		}
	}
	return false
}

// opHead is an operation's kind and name, as its definition starts.
type opHead struct{ kind, name string }

// operations returns the operations a document defines, in order.
func operations(doc string) []opHead {
	var out []opHead
	depth := 0    // of braces, brackets and parentheses
	pending := "" // at depth 0: the keyword read, "-" once the operation is counted
	for i := 0; i < len(doc); {
		c := doc[i]
		switch {
		case c == '#':
			for i < len(doc) && doc[i] != '\n' && doc[i] != '\r' {
				i++
			}
			continue
		case c == '"':
			i = skipGraphQLString(doc, i)
			continue
		case c == '{' || c == '(' || c == '[':
			if depth == 0 {
				switch pending {
				case "":
					if c == '{' {
						out = append(out, opHead{kind: "query"}) // a shorthand query
					}
				case "query", "mutation", "subscription": // anonymous
					out = append(out, opHead{kind: pending})
					pending = "-"
				}
				if c == '{' {
					pending = "" // the body: the next definition follows it
				}
			}
			depth++
		case c == '}' || c == ')' || c == ']':
			if depth > 0 {
				depth--
			}
		case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			j := i
			for j < len(doc) && (doc[j] == '_' || doc[j] >= 'A' && doc[j] <= 'Z' || doc[j] >= 'a' && doc[j] <= 'z' || doc[j] >= '0' && doc[j] <= '9') {
				j++
			}
			word := doc[i:j]
			i = j
			if depth != 0 {
				continue
			}
			switch {
			case pending == "" && (word == "query" || word == "mutation" || word == "subscription" || word == "fragment"):
				pending = word
			case pending != "" && pending != "fragment":
				out = append(out, opHead{kind: pending, name: word})
				pending = "-" // the name is taken; the body follows
			}
			continue
		}
		i++
	}
	return out
}

// skipGraphQLString returns the end of the string or block string that
// starts at doc[i] == '"'.
func skipGraphQLString(doc string, i int) int {
	if len(doc) >= i+3 && doc[i:i+3] == `"""` {
		for j := i + 3; j+2 < len(doc); j++ {
			switch {
			case doc[j] == '\\' && len(doc) >= j+4 && doc[j+1:j+4] == `"""`:
				j += 3
			case doc[j:j+3] == `"""`:
				return j + 3
			}
		}
		return len(doc)
	}
	for j := i + 1; j < len(doc); j++ {
		switch doc[j] {
		case '\\':
			j++
		case '"', '\n':
			return j + 1
		}
	}
	return len(doc)
}
