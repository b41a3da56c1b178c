package sqlsource

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// memo is the per-request memoisation of the memo technique (the paper's
// server-side caching, 2.2.2): within one GraphQL request, the same SQL
// statement with the same arguments runs once and every later identical
// request gets its result. The key is the statement text and an
// unambiguous encoding of the arguments; concurrent identical requests wait
// for the first one instead of running the statement again. Errors are
// kept too (within a request, a failed statement fails its repetitions).
type memo struct {
	mu      sync.Mutex
	entries map[string]*memoEntry
}

type memoEntry struct {
	done chan struct{} // closed when val and err are set
	val  any
	err  error
}

func newMemo() *memo { return &memo{entries: make(map[string]*memoEntry)} }

// do returns the result of fetch for st, running fetch only for the first
// request of st.
func (m *memo) do(st stmt, fetch func() (any, error)) (any, error) {
	k := memoKey(st)
	m.mu.Lock()
	if e, ok := m.entries[k]; ok {
		m.mu.Unlock()
		<-e.done
		return e.val, e.err
	}
	e := &memoEntry{done: make(chan struct{})}
	m.entries[k] = e
	m.mu.Unlock()
	defer close(e.done) // also when fetch panics: waiters then see a nil result and this error
	e.err = fmt.Errorf("sqlsource: memoised statement did not complete")
	e.val, e.err = fetch()
	return e.val, e.err
}

// memoKey encodes a statement and its arguments unambiguously: the text
// after its length, then each argument tagged with its type and, for
// strings, its length.
func memoKey(st stmt) string {
	var b strings.Builder
	b.Grow(len(st.sql) + 8 + 16*len(st.args))
	b.WriteString(strconv.Itoa(len(st.sql)))
	b.WriteByte(':')
	b.WriteString(st.sql)
	for _, a := range st.args {
		switch a := a.(type) {
		case int64:
			b.WriteString("\x00i")
			b.WriteString(strconv.FormatInt(a, 10))
		case string:
			b.WriteString("\x00s")
			b.WriteString(strconv.Itoa(len(a)))
			b.WriteByte(':')
			b.WriteString(a)
		case []int64:
			b.WriteString("\x00a")
			for _, k := range a {
				b.WriteString(strconv.FormatInt(k, 10))
				b.WriteByte(',')
			}
		default:
			fmt.Fprintf(&b, "\x00%T:%v", a, a)
		}
	}
	return b.String()
}
