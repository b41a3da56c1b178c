// Package operation turns the files people already have — .graphql files of
// named operations, a table of variable values, a schema, a graphql-bench
// configuration — into a queries file (package queryfile) that gqlbench
// load replays and checks.
//
// The steps, each usable alone:
//
//	set, _ := operation.ReadPath("ops/")              // parse; variable use checked locally
//	schema, _ := operation.LoadSchema(ctx, "schema.graphql", nil)
//	_ = set.Validate(schema)                           // optional: gqlparser's validator
//	vars, _ := operation.ReadVarsFile("vars.csv")     // CSV or JSON lines
//	res, _ := operation.Build(set, vars, operation.Options{PerOp: 100})
//	queryfile.Write(os.Stdout, res.Entries)
//
// An operation's entries are self-contained: the operation's text as
// written, followed by exactly the fragments it uses, with its variables
// bound from the rows that apply to it (coerced by the variables' types),
// or written inline as GraphQL literals (Options.Literal). No schema is
// needed; with one (from SDL, an introspection result or a live endpoint)
// the operations are validated and the variables checked against it.
package operation
