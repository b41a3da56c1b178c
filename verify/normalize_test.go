package verify

import (
	"reflect"
	"strings"
	"testing"
)

func paths(t *testing.T, ss ...string) []Path {
	var out []Path
	for _, s := range ss {
		p, err := ParsePath(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestNormalize: unordered lists compare as multisets, at every depth;
// ignored members are left out through lists; the zero options are
// Canonical's.
func TestNormalize(t *testing.T) {
	for _, c := range []struct {
		name, data string
		o          Options
		want       string
	}{
		{"zero options", `{"b":[2,1],"a":1.0}`, Options{}, `{"a":1,"b":[2,1]}`},
		{"unordered", `{"b":[2,1,{"y":[3,1]}],"a":[["b"],["a"]]}`, Options{Unordered: true}, `{"a":[["a"],["b"]],"b":[1,2,{"y":[1,3]}]}`},
		{"ignore at the root", `{"me":{"name":"x","lastSeen":5}}`, Options{Ignore: paths(t, "data.me.lastSeen")}, `{"me":{"name":"x"}}`},
		{"ignore through a list", `{"books":[{"id":1,"at":2},{"id":2,"at":3}]}`, Options{Ignore: paths(t, "books[].at")}, `{"books":[{"id":1},{"id":2}]}`},
		{"ignore a path that is not there", `{"a":1}`, Options{Ignore: paths(t, "b.c")}, `{"a":1}`},
		{"both", `{"l":[{"t":9,"v":2},{"t":8,"v":1}]}`, Options{Unordered: true, Ignore: paths(t, "l.t")}, `{"l":[{"v":1},{"v":2}]}`},
	} {
		got, err := Normalize([]byte(c.data), c.o)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %s, %v; want %s", c.name, got, err, c.want)
		}
	}
	a, _ := HashWith([]byte(`[1,2]`), Options{Unordered: true})
	b, _ := HashWith([]byte(`[2,1]`), Options{Unordered: true})
	c, _ := Hash([]byte(`[2,1]`))
	if a != b || a == c {
		t.Error("HashWith does not compare lists as multisets")
	}
	for _, bad := range []string{"", "data", "a..b", "a[0].b"} {
		if _, err := ParsePath(bad); err == nil {
			t.Errorf("ParsePath(%q) accepted", bad)
		}
	}
}

// TestDiff: the differences are named by their paths from data, in
// document order, with both values.
func TestDiff(t *testing.T) {
	exp := `{"book":{"id":"7","price":12.5,"tags":["a","b"]},"books":[{"id":1},{"id":2}]}`
	act := `{"books":[{"id":1},{"id":3},{"id":4}],"book":{"id":"7","price":13.5,"tags":["a","b"],"extra":true}}`
	got, err := Diff([]byte(exp), []byte(act), Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []Difference{
		{Path: "data.book.price", Expected: "12.5", Actual: "13.5"},
		{Path: "data.book.extra", Actual: "true"},
		{Path: "data.books.length", Expected: "2", Actual: "3"},
		{Path: "data.books[1].id", Expected: "2", Actual: "3"},
		{Path: "data.books[2]", Actual: `{"id":4}`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Diff:\n%+v\nwant\n%+v", got, want)
	}
	if got, _ := Diff([]byte(exp), []byte(act), Options{}, 1); len(got) != 1 || got[0].Path != "data.book.price" {
		t.Errorf("max 1: %+v", got)
	}
	if got, _ := Diff([]byte(`{"l":[1,2]}`), []byte(`{"l":[2,1]}`), Options{Unordered: true}, 0); len(got) != 0 {
		t.Errorf("unordered lists differ: %+v", got)
	}
	if _, err := Diff([]byte(`{`), []byte(`{}`), Options{}, 0); err == nil || !strings.Contains(err.Error(), "expected") {
		t.Errorf("bad expected answer: %v", err)
	}
}
