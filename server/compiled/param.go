package compiled

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// param is one SQL parameter of a compiled statement: where its value comes
// from and how it is converted. A literal's value is converted once, at
// compile time; a variable's at every request.
type param struct {
	leaf  *leaf
	conv  conv
	what  string // the argument, for error messages
	value any    // a literal's converted value
	err   error  // a literal's *fieldError
}

// valueFor is the parameter's value for a request with coerced variables
// vars. A *fieldError comes with a value the request runs with.
func (p *param) valueFor(vars map[string]any) (any, error) {
	if p.leaf.lit != nil {
		return p.value, p.err
	}
	x := lookup(vars[p.leaf.name], p.leaf.path)
	if isNil(x) { // the shape of the variables said it was not null
		return nil, fmt.Errorf("%s: variable $%s changed shape", p.what, p.leaf.name)
	}
	return convert(x, p.conv, nil, p.what)
}

// Markers stand for parameters in SQL under construction, so that the
// parts of a statement can be written in any order and a parameter can
// occur several times: finish turns them into ? placeholders in text order.
// They are control characters, which nothing else in the SQL contains.
const (
	markOpen  = '\x01'
	markClose = '\x02'
)

// param registers the parameter for leaf l, converted as k (not an enum:
// see constEnum), and returns its SQL: a marker, cast to sqlType where the
// dialect needs it. The same leaf
// and conversion give the same marker, so equal SQL means equal meaning.
func (c *compiler) param(l *leaf, k conv, sqlType, what string) string {
	key := fmt.Sprintf("%p/%s/%v/%d", l.lit, l.name, l.path, k)
	i, ok := c.paramIndex[key]
	if !ok {
		p := &param{leaf: l, conv: k, what: what}
		if l.lit != nil {
			x, err := l.lit.Value(nil)
			if err == nil {
				x, err = convert(x, k, nil, what)
			}
			var soft *fieldError
			switch {
			case errors.As(err, &soft):
				p.err = err
			case err != nil:
				c.fail(err)
			}
			p.value = x
		}
		i = len(c.params)
		c.params = append(c.params, p)
		c.paramIndex[key] = i
	}
	return c.d.param(string(markOpen)+strconv.Itoa(i)+string(markClose), sqlType)
}

// constEnum is the canonical name of enum value l of type def: a literal's,
// or a variable's, which is part of the shape (see shape), so the compiler
// writes SQL for that value alone.
func (c *compiler) constEnum(l *leaf, def *ast.Definition, what string) string {
	var x any
	if l.lit != nil {
		x = l.lit.Raw
	} else {
		x = lookup(c.vars[l.name], l.path)
	}
	name, err := convert(x, convEnum, def, what)
	if err != nil {
		c.fail(err)
		return ""
	}
	return name.(string)
}

// finish replaces the markers of sql by ? placeholders and returns the
// parameters in placeholder order.
func finish(sql string, params []*param) (string, []*param) {
	var b strings.Builder
	var order []*param
	for {
		i := strings.IndexByte(sql, markOpen)
		if i < 0 {
			b.WriteString(sql)
			return b.String(), order
		}
		j := strings.IndexByte(sql[i:], markClose) + i
		n, _ := strconv.Atoi(sql[i+1 : j])
		b.WriteString(sql[:i])
		b.WriteByte('?')
		order = append(order, params[n])
		sql = sql[j+1:]
	}
}
