package compiled

import (
	lru "container/list"
	"context"
	"errors"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlbench/gqlbench/server/db"
)

// plan is a compiled statement: its SQL, with ? placeholders, and where the
// value of each placeholder comes from. Its prepared statement is made on
// first use and closed when the plan leaves the cache and no request uses it.
type plan struct {
	sql    string
	params []*param
	writes []*mutationField // a mutation operation's root fields (mutation.go); nil for a query

	mu      sync.Mutex
	stmt    *db.Stmt
	users   int
	retired bool
}

// args is the parameter values for a request with coerced variables vars,
// and the field errors of values that do not stop the request (an ID that
// is not an integer matches nothing).
func (p *plan) args(vars map[string]any) ([]any, gqlerror.List, error) {
	args := make([]any, len(p.params))
	var warnings gqlerror.List
	for i, q := range p.params {
		v, err := q.valueFor(vars)
		var soft *fieldError
		switch {
		case errors.As(err, &soft):
			warnings = append(warnings, &gqlerror.Error{Message: soft.msg})
		case err != nil:
			return nil, nil, err
		}
		args[i] = v
	}
	return args, warnings, nil
}

// acquire returns the plan's prepared statement, preparing it if needed;
// release it when done.
func (p *plan) acquire(ctx context.Context, d *db.DB) (*db.Stmt, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stmt == nil {
		s, err := d.Prepare(ctx, p.sql)
		if err != nil {
			return nil, err
		}
		p.stmt = s
	}
	p.users++
	return p.stmt, nil
}

func (p *plan) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.users--
	p.closeIfIdle()
}

// retire marks a plan that left the cache: its statement is closed as soon
// as no request uses it.
func (p *plan) retire() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.retired = true
	p.closeIfIdle()
}

func (p *plan) closeIfIdle() {
	if p.retired && p.users == 0 && p.stmt != nil {
		p.stmt.Close()
		p.stmt = nil
	}
}

// entry is a cached document: parsed, validated and within the depth
// limit, with the plans compiled for its operation, one per shape of the
// variables (see shape).
type entry struct {
	key string
	doc *ast.QueryDocument
	op  *ast.OperationDefinition

	mu    sync.Mutex
	plans map[string]*plan
}

// maxShapes bounds the plans of one entry. A template has one shape per
// combination of its enum variables' values (QT8: 30 orderings); a client
// that varies the structure of its variables without end gets plans
// replaced.
const maxShapes = 64

// plan returns the entry's plan for shape, compiling it if needed. Requests
// for one entry wait for each other's compile, so a shape compiles once.
func (e *entry) plan(shape string, compile func() (*plan, error)) (*plan, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if p := e.plans[shape]; p != nil {
		return p, nil
	}
	p, err := compile()
	if err != nil {
		return nil, err
	}
	if len(e.plans) >= maxShapes {
		for k, old := range e.plans {
			delete(e.plans, k)
			old.retire()
			break
		}
	}
	e.plans[shape] = p
	return p, nil
}

// retire retires every plan of the entry.
func (e *entry) retire() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, p := range e.plans {
		p.retire()
	}
}

// cache is a bounded LRU of entries keyed by operation name and document
// text; safe for concurrent use.
type cache struct {
	mu    sync.Mutex
	max   int
	order *lru.List // of *entry, most recently used first
	byKey map[string]*lru.Element
}

func newCache(max int) *cache {
	return &cache{max: max, order: lru.New(), byKey: map[string]*lru.Element{}}
}

func cacheKey(query, operationName string) string { return operationName + "\x00" + query }

// get returns the entry for key, or nil.
func (c *cache) get(key string) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.byKey[key]
	if el == nil {
		return nil
	}
	c.order.MoveToFront(el)
	return el.Value.(*entry)
}

// put adds e and returns the entry cached for its key: e, or one that
// another request added first. The least recently used entries beyond the
// bound leave the cache.
func (c *cache) put(e *entry) *entry {
	c.mu.Lock()
	if el := c.byKey[e.key]; el != nil {
		c.mu.Unlock()
		return el.Value.(*entry)
	}
	c.byKey[e.key] = c.order.PushFront(e)
	var evicted []*entry
	for c.order.Len() > c.max {
		old := c.order.Remove(c.order.Back()).(*entry)
		delete(c.byKey, old.key)
		evicted = append(evicted, old)
	}
	c.mu.Unlock()
	for _, old := range evicted {
		old.retire()
	}
	return e
}

// len is the number of cached entries.
func (c *cache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// clear retires every entry.
func (c *cache) clear() {
	c.mu.Lock()
	var all []*entry
	for el := c.order.Front(); el != nil; el = el.Next() {
		all = append(all, el.Value.(*entry))
	}
	c.order.Init()
	c.byKey = map[string]*lru.Element{}
	c.mu.Unlock()
	for _, e := range all {
		e.retire()
	}
}
