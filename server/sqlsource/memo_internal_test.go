package sqlsource

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestMemoKey: different statements or arguments never share a key.
func TestMemoKey(t *testing.T) {
	distinct := []stmt{
		{"SELECT 1", nil},
		{"SELECT 1", []any{int64(1)}},
		{"SELECT 1", []any{"1"}},                // a string is not an integer
		{"SELECT 1", []any{int64(1), int64(2)}}, // two arguments
		{"SELECT 1", []any{int64(12)}},          // are not their digits run together
		{"SELECT 1", []any{"a\x00sb"}},          // a separator inside a string
		{"SELECT 1", []any{"a", "b"}},           // is not two strings
		{"SELECT 1", []any{[]int64{1, 2}}},      // an array
		{"SELECT 1", []any{[]int64{12}}},        // is not its digits run together
		{"SELECT 2", []any{int64(1)}},           // another statement
		{"SELECT 1", []any{int64(1), "x"}},      // argument order
		{"SELECT 1", []any{"x", int64(1)}},      //
		{"SELECT 1\x00i1", nil},                 // text that looks like an argument
	}
	seen := map[string]int{}
	for i, st := range distinct {
		k := memoKey(st)
		if j, dup := seen[k]; dup {
			t.Errorf("statements %d and %d share the key %q", j, i, k)
		}
		seen[k] = i
	}
	if memoKey(stmt{"S", []any{int64(5), "a"}}) != memoKey(stmt{"S", []any{int64(5), "a"}}) {
		t.Error("equal statements have different keys")
	}
}

// TestMemoOnce: concurrent identical requests run the fetch once and all
// get its result; a different statement runs its own fetch.
func TestMemoOnce(t *testing.T) {
	m := newMemo()
	var runs atomic.Int32
	release := make(chan struct{})
	fetch := func() (any, error) {
		runs.Add(1)
		<-release // hold the first request until every other one is waiting or done
		return []int{42}, nil
	}
	st := stmt{"SELECT x FROM t WHERE k = ?", []any{int64(7)}}
	var wg sync.WaitGroup
	results := make([]any, 20)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := m.do(st, fetch)
			if err != nil {
				t.Error(err)
			}
			results[i] = v
		}()
	}
	close(release)
	wg.Wait()
	if n := runs.Load(); n != 1 {
		t.Errorf("the statement ran %d times, want once", n)
	}
	for i, v := range results {
		if l, ok := v.([]int); !ok || len(l) != 1 || l[0] != 42 {
			t.Errorf("request %d got %v", i, v)
		}
	}
	if _, err := m.do(stmt{st.sql, []any{int64(8)}}, fetch); err != nil || runs.Load() != 2 {
		t.Errorf("another argument: %d runs, error %v; want a second run", runs.Load(), err)
	}
}
