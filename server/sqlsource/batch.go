package sqlsource

import (
	"context"
	"sync"

	"github.com/vikstrous/dataloadgen"

	"github.com/gqlbench/gqlbench/server/db"
	"github.com/gqlbench/gqlbench/server/source"
)

// batched is the Source of the batch and batch-memo techniques (the paper's
// server-side batching, 2.2.2): one per request, with a DataLoader
// (dataloadgen) per fetch. A loader collects the keys that resolvers ask
// for during its wait window and fetches them all with one statement
// (query.batch: WHERE key = ANY(?) / IN json_each(?), with ROW_NUMBER()
// windows for per-key paging), then splits the rows back per key. A fetch
// with parameters besides the key (a degree, an order, a filter) keys its
// loader by (parameters, key) and runs one statement per distinct set of
// parameters in the batch. Unkeyed fetches (the root lists) go through
// loaders too, so that batch-memo caches them like everything else.
//
// Caching: dataloadgen caches every key for the loader's lifetime (here, the
// request) unless built WithoutCache, which batch does: then every Load
// joins the next batch even if its key was loaded before, and a key asked
// twice within one batch is passed to the fetch twice — exactly
// JavaScript DataLoader's {cache: false}, the paper's batching-only server.
// batch-memo keeps the cache: a key loaded once in a request is never
// fetched again in it.
type batched struct {
	db   *db.DB
	d    dialect
	opts []dataloadgen.Option // with a window: dataloadgen; nil: tick batching
	memo bool                 // batch-memo: the loaders cache

	university    lazy[int64, *source.University]
	department    lazy[int64, *source.Department]
	researchGroup lazy[int64, *source.ResearchGroup]
	faculty       lazy[int64, *source.Faculty]
	graduate      lazy[int64, *source.GraduateStudent]
	undergraduate lazy[int64, *source.UndergraduateStudent]
	publication   lazy[int64, *source.Publication]
	headOf        lazy[int64, *source.Faculty]

	facultyByDegree     lazy[param[degreeParam], []*source.Faculty]
	facultyOfDepartment lazy[param[source.FacultyKind], []*source.Faculty]

	graduatesByUGDegree   lazy[param[string], []*source.GraduateStudent]
	graduates             lazy[string, []*source.GraduateStudent]
	gradQueries           sync.Map // gradQueryKey → source.GradQuery
	graduatesAdvisedBy    lazy[int64, []*source.GraduateStudent]
	graduatesOfDepartment lazy[int64, []*source.GraduateStudent]
	graduatesTaking       lazy[int64, []*source.GraduateStudent]
	coAuthors             lazy[int64, []*source.GraduateStudent]
	graduateAges          lazy[int64, source.Aggregate]

	undergraduatesAdvisedBy    lazy[int64, []*source.UndergraduateStudent]
	undergraduatesOfDepartment lazy[int64, []*source.UndergraduateStudent]
	undergraduatesTaking       lazy[int64, []*source.UndergraduateStudent]

	departmentsOf    lazy[int64, []*source.Department]
	researchGroupsOf lazy[int64, []*source.ResearchGroup]

	graduateCoursesTaughtBy      lazy[int64, []*source.GraduateCourse]
	undergraduateCoursesTaughtBy lazy[int64, []*source.UndergraduateCourse]
	graduateCoursesTakenBy       lazy[int64, []*source.GraduateCourse]
	undergraduateCoursesTakenBy  lazy[int64, []*source.UndergraduateCourse]
	coursesAssistedBy            lazy[int64, []*source.UndergraduateCourse]

	publicationsBy    lazy[param[orderParam], []*source.Publication]
	publicationSearch lazy[searchParam, []*source.Publication]
}

var _ source.Source = (*batched)(nil)

// lazy is a loader made on first use: a request uses few of them. It is a
// dataloadgen loader when the factory has a batching window, else a
// tickLoader (the default: see tickLoader for why).
type lazy[K comparable, V any] struct {
	once sync.Once
	l    *dataloadgen.Loader[K, V]
	t    *tickLoader[K, V]
}

// load loads key through z's loader, making it with fetch first if needed.
// fetch returns the values of the keys it found; absent keys get V's zero
// value (a nil row, an empty list, zero aggregates).
func (z *lazy[K, V]) load(ctx context.Context, b *batched, key K, fetch func(context.Context, []K) (map[K]V, error)) (V, error) {
	z.once.Do(func() {
		f := func(ctx context.Context, keys []K) ([]V, []error) {
			m, err := fetch(ctx, keys)
			if err != nil {
				return nil, []error{err} // one error: every key of the batch gets it
			}
			vals := make([]V, len(keys))
			for i, k := range keys {
				vals[i] = m[k]
			}
			return vals, nil
		}
		if b.opts == nil {
			z.t = newTickLoader(b.memo, f)
		} else {
			z.l = dataloadgen.NewLoader(f, b.opts...)
		}
	})
	if z.t != nil {
		return z.t.Load(ctx, key)
	}
	return z.l.Load(ctx, key)
}

// param is a loader key of a fetch with parameters besides the key.
type param[P comparable] struct {
	p   P
	key int64
}

type degreeParam struct {
	degree   source.Degree
	worksFor int64
	filtered bool // worksFor applies
}

type orderParam struct {
	ordered bool // o applies
	o       source.PublicationOrder
}

type searchParam struct {
	field source.PublicationField
	match source.StringMatch
}

// lists runs q for keys in one statement and splits the rows per key.
func lists[T any](ctx context.Context, b *batched, q *query[T], keys []int64) (map[int64][]*T, error) {
	st := q.batch(b.d, keys)
	out := make(map[int64][]*T, len(keys))
	var k, n int64
	before, after := []any{&k}, []any(nil)
	if q.paged() {
		after = []any{&n}
	}
	err := b.db.Select(ctx, st.sql, st.args, func(rs db.Rows) error {
		t, err := q.rows.scanWith(rs, before, after)
		out[k] = append(out[k], t)
		return err
	})
	return out, err
}

// firsts runs q for keys in one statement and keeps each key's first row.
func firsts[T any](ctx context.Context, b *batched, q *query[T], keys []int64) (map[int64]*T, error) {
	m, err := lists(ctx, b, q, keys)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]*T, len(m))
	for k, l := range m {
		out[k] = l[0]
	}
	return out, nil
}

// grouped runs, for each distinct parameter set among keys, the query mk
// makes for it over that set's keys: one statement per parameter set.
func grouped[P comparable, T any](ctx context.Context, b *batched, keys []param[P], mk func(P) (*query[T], error)) (map[param[P]][]*T, error) {
	var order []P
	groups := make(map[P][]int64)
	for _, k := range keys {
		if _, ok := groups[k.p]; !ok {
			order = append(order, k.p)
		}
		groups[k.p] = append(groups[k.p], k.key)
	}
	out := make(map[param[P]][]*T, len(keys))
	for _, p := range order {
		q, err := mk(p)
		if err != nil {
			return nil, err
		}
		m, err := lists(ctx, b, q, groups[p])
		if err != nil {
			return nil, err
		}
		for k, l := range m {
			out[param[P]{p, k}] = l
		}
	}
	return out, nil
}

// unkeyed runs, for each distinct key, the unkeyed query mk makes for it.
func unkeyed[K comparable, T any](ctx context.Context, b *batched, keys []K, mk func(K) (*query[T], error)) (map[K][]*T, error) {
	out := make(map[K][]*T, len(keys))
	for _, k := range keys {
		if _, done := out[k]; done {
			continue
		}
		q, err := mk(k)
		if err != nil {
			return nil, err
		}
		st := q.single(b.d, 0)
		var l []*T
		err = b.db.Select(ctx, st.sql, st.args, func(rs db.Rows) error {
			t, err := q.rows.scan(rs)
			l = append(l, t)
			return err
		})
		if err != nil {
			return nil, err
		}
		out[k] = l
	}
	return out, nil
}

// keyedBy returns the fetch of a loader of lists of q by int64 keys.
func keyedBy[T any](b *batched, q *query[T]) func(context.Context, []int64) (map[int64][]*T, error) {
	return func(ctx context.Context, keys []int64) (map[int64][]*T, error) { return lists(ctx, b, q, keys) }
}

// firstBy returns the fetch of a loader of single rows of q by int64 keys.
func firstBy[T any](b *batched, q *query[T]) func(context.Context, []int64) (map[int64]*T, error) {
	return func(ctx context.Context, keys []int64) (map[int64]*T, error) { return firsts(ctx, b, q, keys) }
}
