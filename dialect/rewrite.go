package dialect

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gqlbench/gqlbench/queryfile"
)

// Rewrite returns the benchmark-schema entry e written in the dialect: its
// template's query in the dialect, the variables made from e's (see
// Template.Variables), "dialect" set; its id, label, dataset and expected
// answer stay, for the dialect's answers are mapped to the benchmark's
// before they are compared.
func (d *Dialect) Rewrite(e queryfile.Entry) (queryfile.Entry, error) {
	if e.Dialect != "" {
		return e, fmt.Errorf("%q is written in dialect %q already", e.ID, e.Dialect)
	}
	t, err := d.Template(e.Label)
	if err != nil {
		return e, fmt.Errorf("%q: %w", e.ID, err)
	}
	bench := map[string]any{}
	if len(e.Variables) > 0 {
		dec := json.NewDecoder(bytes.NewReader(e.Variables))
		dec.UseNumber()
		if err := dec.Decode(&bench); err != nil {
			return e, fmt.Errorf("%q: variables: %w", e.ID, err)
		}
	}
	vars, err := t.Variables(bench)
	if err != nil {
		return e, fmt.Errorf("%q: %w", e.ID, err)
	}
	var b []byte
	if len(vars) > 0 {
		if b, err = json.Marshal(vars); err != nil {
			return e, fmt.Errorf("%q: %w", e.ID, err)
		}
	}
	e.Query, e.OperationName, e.Variables, e.Dialect, e.Line = t.Query, "", b, d.Name, 0
	return e, nil
}
