package queryfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// plainJSONCases are values plainJSON takes or leaves: what it takes must
// be valid JSON that encoding/json writes back unchanged.
var plainJSONCases = []string{
	`{"row":1}`, `{}`, `[]`, `{"a":"x","b":[1,-2.5e-3,0,1E+9,true,false,null,{}],"c":{"d":[[]]}}`,
	`{"s":"a\"b\\c\/\b\f\n\r\t\u00e9\u2028"}`, `"x"`, `12`, `null`,
	`{"row": 1}`, ` {"row":1}`, `{"row":1} `, "{\"s\":\"\t\"}", `{"s":"<b>"}`, `{"s":"&"}`, `{"s":"é"}`,
	"{\"s\":\"\u2028\"}", "{\"s\":\"\xff\"}", `{"s":"\x"}`, `{"s":"\u12"}`, `{"s":"\u12g4"}`,
	`{"a":01}`, `{"a":-}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":1e+}`, `{"a":+1}`, `{"a":1-2}`,
	`{"a":tru}`, `{"a":truex}`, `{"a":nul}`, `{"a":1,}`, `{"a":1`, `{"a"}`, `{"a":}`, `{a:1}`, `{"a":1}}`,
	`[1,]`, `[,1]`, `[1 2]`, `{"a":1}{}`, `{"a":[1}`, `{"a":{"b":1]}`, ``, `"`, `"abc`, `{"a":"b`,
	strings.Repeat("[", maxPlainDepth) + strings.Repeat("]", maxPlainDepth),
	strings.Repeat("[", maxPlainDepth+1) + strings.Repeat("]", maxPlainDepth+1),
}

// checkPlainJSON says whether plainJSON took v, failing t when it took a
// value encoding/json refuses or would write otherwise.
func checkPlainJSON(t *testing.T, v []byte) bool {
	if !plainJSON(v) {
		return false
	}
	if !json.Valid(v) {
		t.Errorf("plainJSON took %q, which is not JSON", v)
		return true
	}
	if got, err := json.Marshal(json.RawMessage(v)); err != nil || !bytes.Equal(got, v) {
		t.Errorf("plainJSON took %q, which encoding/json writes %q (%v)", v, got, err)
	}
	return true
}

// TestPlainJSON: the plain values are taken without encoding/json (the
// fast path of generated files' variables), and what is taken is JSON
// that encoding/json writes unchanged.
func TestPlainJSON(t *testing.T) {
	for _, v := range plainJSONCases {
		checkPlainJSON(t, []byte(v))
	}
	for _, v := range []string{`{"row":1}`, `{"id":"12","tags":["a","b"],"n":-1.5,"on":true,"x":null}`, `{"a":{"b":[{}]}}`, `{"s":"\"q\""}`} {
		if !plainJSON([]byte(v)) {
			t.Errorf("plainJSON left %s to encoding/json", v)
		}
	}
}

func FuzzPlainJSON(f *testing.F) {
	for _, v := range plainJSONCases {
		f.Add([]byte(v))
	}
	f.Fuzz(func(t *testing.T, v []byte) { checkPlainJSON(t, v) })
}

// TestReadRepeats: lines that repeat the strings of the line before, or
// leave them out, or go through encoding/json in between, read as each
// line alone does — nothing of a line leaks into the next.
func TestReadRepeats(t *testing.T) {
	lines := []string{
		`{"id":"1","template":"A","query":"query A { a }","operationName":"A","dialect":"postgraphile","variables":{"x":1}}`,
		`{"id":"2","template":"A","query":"query A { a }","operationName":"A","variables":{"x":2}}`,
		`{"id":"3","template":"A","query":"query A { a }","expect":"` + hash + `"}`,
		`{"id":"4","template":"B","query":"query A { a }","operationName":null}`,
		`{"id":"5","template":"B","query":"{ b(s: \"\u00e9\") }","operationName":"A"}`, // an escape: encoding/json's
		`{"id":"6","template":"B","query":"{ b(s: \"\u00e9\") }","operationName":"A","unordered":true}`,
		`{"id":"7","template":"A","query":"query A { a }","operationName":"","dialect":""}`,
		`{"id":"8","template":"A","query":"query A { a }","dataset":{"sf":1,"seed":2,"version":1}}`, // encoding/json's
		`{"id":"9","template":"A","query":"query A { a }","variables":{ "x" : [ 1 ] }}`,
		`{"id":"10","template":"C","query":"{ c }","operationName":"A","dialect":"postgraphile"}`,
		`{"id":"11","template":"C","query":"{ c }"}`,
	}
	data := []byte(strings.Join(lines, "\n") + "\n")
	for name, read := range map[string]func() ([]Entry, error){
		"whole":  func() ([]Entry, error) { return readData(bytes.Clone(data)) },
		"stream": func() ([]Entry, error) { return Read(bytes.NewReader(data)) },
	} {
		got, err := read()
		if err != nil {
			t.Fatal(name, err)
		}
		for i, l := range lines {
			want, err := Read(strings.NewReader(l)) // the line alone
			if err != nil {
				t.Fatal(err)
			}
			want[0].Line = i + 1
			if !reflect.DeepEqual(got[i], want[0]) {
				t.Errorf("%s, line %d:\n%+v\nwant\n%+v", name, i+1, got[i], want[0])
			}
		}
	}
}

// TestReadDuplicateLine: a duplicate id names the line its id was first
// used on, wherever that is.
func TestReadDuplicateLine(t *testing.T) {
	line := func(id string) string { return `{"id":"` + id + `","template":"t","query":"{x}"}` }
	in := strings.Join([]string{line("a"), "", line("b"), line("c"), line("d"), line("c")}, "\n")
	for name, read := range map[string]func() ([]Entry, error){
		"whole":  func() ([]Entry, error) { return readData([]byte(in)) },
		"stream": func() ([]Entry, error) { return Read(strings.NewReader(in)) },
	} {
		if _, err := read(); err == nil || err.Error() != `line 6: id "c" is already used on line 4` {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestBodiesMixed: Bodies is Body for each entry of a file whose entries
// alternate queries and operation names, with variables that need
// encoding/json's rewriting among plain ones.
func TestBodiesMixed(t *testing.T) {
	var entries []Entry
	for i := range 40 {
		e := Entry{ID: fmt.Sprint(i), Query: []string{"query A { a }", "query B { b }", "{ c }"}[i%3]}
		if i%2 == 0 {
			e.OperationName = []string{"A", "B"}[i%4/2]
		}
		switch i % 5 {
		case 1:
			e.Variables = json.RawMessage(fmt.Sprintf(`{"row":%d}`, i))
		case 2:
			e.Variables = json.RawMessage(fmt.Sprintf(`{"row": %d, "s":"<%d>"}`, i, i))
		case 3:
			e.Variables = json.RawMessage(`{}`)
		case 4:
			e.Variables = json.RawMessage(fmt.Sprintf(`{"s":"\u2028%d&"}`, i))
		}
		entries = append(entries, e)
	}
	got := bodiesAsBody(t, entries)
	for i := range entries {
		if cap(got[i]) != len(got[i]) {
			t.Errorf("entry %d: appending to its body would write into the next", i)
		}
	}
	var at []int
	if err := EachBody(entries, func(i int, b []byte) { at = append(at, i) }); err != nil || len(at) != len(entries) || at[len(at)-1] != len(entries)-1 {
		t.Errorf("EachBody gave %v, %v", at, err)
	}
	bad := append(entries[:3:3], Entry{ID: "bad", Query: "{a}", Variables: json.RawMessage(`{"a":`)})
	if err := EachBody(bad, func(i int, _ []byte) { t.Errorf("a body (of entry %d) given when entry 3 has none", i) }); err == nil || !strings.Contains(err.Error(), `"bad"`) {
		t.Errorf("EachBody took invalid variables: %v", err)
	}
}

// TestLabelsRepeats: Labels in order of first appearance, the label of
// the entry before repeated or not.
func TestLabelsRepeats(t *testing.T) {
	var entries []Entry
	for _, l := range []string{"A", "A", "B", "A", "A", "C", "B", "C", "C"} {
		entries = append(entries, Entry{Label: l})
	}
	if got := Labels(entries); !reflect.DeepEqual(got, []string{"A", "B", "C"}) {
		t.Errorf("Labels %v", got)
	}
}

// TestFastLineReusesStrings: a line that repeats the line before's label
// and query takes that line's strings again, without a look-up (with no
// table at all), and one that leaves them out or changes them does not.
func TestFastLineReusesStrings(t *testing.T) {
	l1 := []byte(`{"id":"1","template":"A","query":"query A { a }","operationName":"A"}`)
	l2 := []byte(`{"id":"2","template":"A","query":"query A { a }","operationName":"A"}`)
	l3 := []byte(`{"id":"3","template":"B","query":"query A { a }"}`)
	var raw rawLine
	if !fastLine(l1, &raw, nil, true) {
		t.Fatal("fastLine left line 1")
	}
	label, query, op := unsafe.StringData(raw.Label), unsafe.StringData(raw.Query), unsafe.StringData(raw.OperationName)
	if !fastLine(l2, &raw, nil, true) {
		t.Fatal("fastLine left line 2")
	}
	if unsafe.StringData(raw.Label) != label || unsafe.StringData(raw.Query) != query || unsafe.StringData(raw.OperationName) != op {
		t.Error("line 2 does not take line 1's strings again")
	}
	if raw.ID != "2" {
		t.Errorf("id %q", raw.ID)
	}
	if !fastLine(l3, &raw, nil, true) {
		t.Fatal("fastLine left line 3")
	}
	if raw.Label != "B" || raw.OperationName != "" || unsafe.StringData(raw.Query) != query {
		t.Errorf("line 3: %+v", raw)
	}
}

// TestIDSet: the set of ids finds every id used again, and the entry that
// used it first, as a map does — from empty through its growths, and
// sized ahead.
func TestIDSet(t *testing.T) {
	for _, sized := range []bool{false, true} {
		var entries []Entry
		var s idSet
		if sized {
			s = newIDSet(3000)
		}
		first := map[string]int{}
		for i := range 3000 {
			id := fmt.Sprint("q", (i*7919)%2111) // some used again, some not
			if i%5 == 0 {
				id = fmt.Sprint(i) // ids that are prefixes of others
			}
			entries = append(entries, Entry{ID: id})
			prev, dup := s.add(entries, len(entries)-1)
			want, wantDup := first[id]
			if dup != wantDup || dup && prev != want {
				t.Fatalf("sized %v, entry %d (%q): %d, %v; want %d, %v", sized, i, id, prev, dup, want, wantDup)
			}
			if dup {
				entries = entries[:len(entries)-1]
			} else {
				first[id] = len(entries) - 1
			}
		}
		if s.n != len(first) || 2*s.n > len(s.slots) {
			t.Errorf("sized %v: %d ids in %d slots, want %d in at least twice as many", sized, s.n, len(s.slots), len(first))
		}
	}
}

// TestIsHashEveryByte: IsHash, eight digits at a time, takes a hash with
// any one byte changed to any value exactly when that byte is a lowercase
// hex digit, at every position.
func TestIsHashEveryByte(t *testing.T) {
	base := []byte(strings.Repeat("0123456789abcdef", 4))
	for i := range base {
		for c := range 256 {
			h := bytes.Clone(base)
			h[i] = byte(c)
			want := strings.IndexByte("0123456789abcdef", byte(c)) >= 0
			if got := IsHash(string(h)); got != want {
				t.Fatalf("byte %d = %#x: IsHash %v, want %v", i, c, got, want)
			}
		}
	}
	for _, s := range []string{"", hash[:63], hash + "0", strings.ToUpper(hash), strings.Repeat("f", 64), strings.Repeat("g", 64)} {
		if got, want := IsHash(s), s == strings.Repeat("f", 64); got != want {
			t.Errorf("IsHash(%q) = %v", s, got)
		}
	}
}
