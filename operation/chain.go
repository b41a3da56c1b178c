package operation

import (
	"encoding/json"
	"fmt"

	"github.com/gqlbench/gqlbench/queryfile"
)

// A chain is operations run one after another, each taking variables from
// the answer before it: a page of a connection, then the next page with
// the first one's pageInfo.endCursor as $after. It is written with a marker
// above every operation but the first,
//
//	# gqlbench: after FirstPage $after=books.pageInfo.endCursor
//	query NextPage($after: String, $first: Int) { … }
//
// and becomes entries of the first operation whose "steps" (queryfile's
// GraphQL steps, docs/tasks.md) run the chain: each step when the answer
// it depends on is in, the variables taken from it by {.path}, the others
// from the first operation's row (a step may use a variable the first
// operation defines, of the same type, and its row gives it). The entry's
// answer is the first operation's data under its name, each later step's
// data under its name inside the data of the one before; so every step's
// answer is recorded and checked.

// chains links every step to the operation it runs after and checks the
// chain: that operation exists, the chain has no cycle, every variable
// taken is the step's, and every other variable the step requires is
// defined by the chain's first operation with the same type.
func (s *Set) chains() []error {
	var errs []error
	for _, op := range s.Ops {
		a := op.After
		if a == nil {
			continue
		}
		prev := s.byName[a.Op]
		switch {
		case prev == nil:
			errs = append(errs, errorAt(a.pos, "operation %s runs after %s, which is not an operation (the operations: %s)", op.Name, a.Op, nameList(s.Names())[1:]))
			continue
		case prev == op:
			errs = append(errs, errorAt(a.pos, "operation %s cannot run after itself", op.Name))
			continue
		}
		for _, t := range a.Take {
			if op.def.VariableDefinitions.ForName(t.Var) == nil {
				errs = append(errs, errorAt(a.pos, "operation %s has no variable $%s to take from %s's answer (its variables: %s)", op.Name, t.Var, a.Op, varList(op)))
			}
		}
		prev.next = append(prev.next, op)
	}
	if len(errs) > 0 {
		return errs
	}
	for _, op := range s.Ops {
		if op.After == nil {
			continue
		}
		root := s.Root(op)
		if root.After != nil {
			errs = append(errs, errorAt(op.After.pos, "operation %s: the chain of after markers is a cycle", op.Name))
			continue
		}
		for _, v := range op.def.VariableDefinitions {
			if _, ok := op.After.taken(v.Variable); ok {
				continue
			}
			rv := root.def.VariableDefinitions.ForName(v.Variable)
			switch {
			case rv == nil && Required(v):
				errs = append(errs, errorAt(v.Position, "$%s: operation %s requires it, and it is neither taken from %s's answer (%s=path in the after marker) nor a variable of %s, the chain's first operation, whose rows give the chain's values",
					v.Variable, op.Name, op.After.Op, "$"+v.Variable, root.Name))
			case rv != nil && rv.Type.String() != v.Type.String():
				errs = append(errs, errorAt(v.Position, "$%s: %s in operation %s, %s in %s, the chain's first operation, whose row gives it: give them the same type",
					v.Variable, v.Type, op.Name, rv.Type, root.Name))
			}
		}
	}
	return errs
}

// Step reports whether op runs after another operation (a chain's step):
// it has no entries of its own.
func (op *Operation) Step() bool { return op.After != nil }

// chainEntry makes the entry of a chain that starts at op, for one
// candidate: its steps, and the row's variables as the entry's.
func chainEntry(op *Operation, c candidate, literal bool) (queryfile.Entry, error) {
	e := queryfile.Entry{ID: op.Name + "-" + ordinal(c.ord), Label: op.Name}
	if literal {
		return e, fmt.Errorf("%s: --literal does not apply to a chain (%s runs after %s): a value taken from an answer is sent as a variable", e.ID, op.next[0].Name, op.Name)
	}
	if len(c.vars) > 0 {
		b, err := marshal(c.vars)
		if err != nil {
			return e, fmt.Errorf("%s: %w", e.ID, err)
		}
		e.Variables = b
	}
	call, err := stepCall(op, c.vars)
	if err != nil {
		return e, fmt.Errorf("%s: %w", e.ID, err)
	}
	e.GraphQLPlan = queryfile.Plan{call}
	e.Unordered = unorderedChain(op)
	return e, nil
}

// stepCall is op's call in a chain, with the calls that run after it: its
// variables taken from the answer before ({.path}) or from the row
// ({name}), those the row does not give left out (their defaults apply).
func stepCall(op *Operation, row map[string]any) (queryfile.Call, error) {
	call := queryfile.Call{Query: op.Text, As: op.Name}
	vars := map[string]string{}
	for _, v := range op.def.VariableDefinitions {
		if path, ok := op.After.taken(v.Variable); ok {
			vars[v.Variable] = "{." + path + "}"
		} else if _, ok := row[v.Variable]; ok {
			vars[v.Variable] = "{" + v.Variable + "}"
		}
	}
	if len(vars) > 0 {
		b, err := json.Marshal(vars)
		if err != nil {
			return call, err
		}
		call.Body = b
	}
	for _, n := range op.next {
		k, err := stepCall(n, row)
		if err != nil {
			return call, err
		}
		call.Then = append(call.Then, k)
	}
	return call, nil
}

// unorderedChain reports whether any step of the chain is marked
// unordered: the entry's answer is one, compared as a whole.
func unorderedChain(op *Operation) bool {
	if op.Unordered {
		return true
	}
	for _, n := range op.next {
		if unorderedChain(n) {
			return true
		}
	}
	return false
}
