package queryfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var hash = strings.Repeat("0123456789abcdef", 4)

// TestRoundTrip: what Write writes, Read reads back unchanged, lines and
// all; absent variables are written as {} and read back as none.
func TestRoundTrip(t *testing.T) {
	in := []Entry{
		{ID: "QT5-0001", Label: "QT5", Query: "query QT5($d: ID!) { department(nr: $d) { id } }", Variables: json.RawMessage(`{"d":"12"}`),
			Expect: hash, Dataset: &DatasetRef{SF: 1, Seed: 7, Version: 1}},
		{ID: "m", Label: "Mine", Query: "query A { a } query Mine { b }", OperationName: "Mine", Dialect: "postgraphile",
			Unordered: true, Answer: json.RawMessage(`{"b":[2,1]}`)},
	}
	var b bytes.Buffer
	if err := Write(&b, in); err != nil {
		t.Fatal(err)
	}
	want := `{"id":"QT5-0001","template":"QT5","query":"query QT5($d: ID!) { department(nr: $d) { id } }","variables":{"d":"12"},"expect":"` + hash + `","dataset":{"sf":1,"seed":7,"version":1}}
{"id":"m","template":"Mine","query":"query A { a } query Mine { b }","operationName":"Mine","variables":{},"dialect":"postgraphile","unordered":true,"answer":{"b":[2,1]}}
`
	if b.String() != want {
		t.Errorf("written:\n%s\nwant:\n%s", b.String(), want)
	}
	back, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	in[0].Line, in[1].Line = 1, 2
	if !reflect.DeepEqual(back, in) {
		t.Errorf("read back %+v\nwant %+v", back, in)
	}
}

// TestBody: an entry is sent as an ordinary GraphQL-over-HTTP body.
func TestBody(t *testing.T) {
	for _, c := range []struct {
		e    Entry
		want string
	}{
		{Entry{Query: "{a}"}, `{"query":"{a}","variables":{}}`},
		{Entry{Query: "query Q($x: Int) { a(x: $x) }", OperationName: "Q", Variables: json.RawMessage(`{"x":1}`)},
			`{"query":"query Q($x: Int) { a(x: $x) }","operationName":"Q","variables":{"x":1}}`},
	} {
		got, err := c.e.Body()
		if err != nil || string(got) != c.want {
			t.Errorf("Body() = %s, %v; want %s", got, err, c.want)
		}
	}
}

// TestReadRejects: every malformed line is refused with its line number and
// what is wrong; the GraphQL inside is not this package's business.
func TestReadRejects(t *testing.T) {
	good := `{"id":"a","template":"mine","query":"{ x }","variables":{"u":1}}`
	for _, c := range []struct {
		name, input, want string
	}{
		{"not JSON", "{", "line 1: not a JSON object"},
		{"two values", good + " {}", "more than one"},
		{"missing id", `{"template":"t","query":"{x}"}`, `missing "id"`},
		{"empty id", `{"id":"","template":"t","query":"{x}"}`, `missing "id"`},
		{"missing label", `{"id":"a","query":"{x}"}`, `"a": missing "template"`},
		{"empty label", `{"id":"a","template":"","query":"{x}"}`, `missing "template"`},
		{"label as a number", `{"id":"a","template":5,"query":"{x}"}`, "not a JSON object"},
		{"missing query", `{"id":"a","template":"t"}`, `missing "query"`},
		{"variables a list", strings.Replace(good, `{"u":1}`, `[1]`, 1), `"variables" must be a JSON object`},
		{"variables a string", strings.Replace(good, `{"u":1}`, `"x"`, 1), `"variables" must be a JSON object`},
		{"expect not a hash", strings.Replace(good, `"id":"a",`, `"id":"a","expect":"abc",`, 1), `"expect" must be`},
		{"duplicate id", good + "\n" + good, `line 2: id "a" is already used on line 1`},
		{"error on a later line", good + "\n\n{", "line 3"},
		{"too long", `{"id":"` + strings.Repeat("x", MaxLineBytes) + `"}`, "longer than"},
	} {
		_, err := Read(strings.NewReader(c.input))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
}

// TestReadAccepts: any query text is accepted as it is; null or absent
// variables are none, and a variables object is kept compacted.
func TestReadAccepts(t *testing.T) {
	got, err := Read(strings.NewReader("\n" + `{"id":"a","template":"t","query":"not even GraphQL","variables":null}` + "\n" +
		`{"id":"b","template":"t","query":"{x}"}` + "\n" + `{"id":"c","template":"t","query":"{x}","variables":{ "a" : [ 1, 2 ] },"other":1}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Variables != nil || got[1].Variables != nil || string(got[2].Variables) != `{"a":[1,2]}` || got[2].Line != 4 {
		t.Errorf("%+v", got)
	}
	if l := Labels(append(got, Entry{Label: "u"})); !reflect.DeepEqual(l, []string{"t", "u"}) {
		t.Errorf("Labels = %v", l)
	}
}

// FuzzRead: Read never panics, and what it accepts survives Write and Read.
func FuzzRead(f *testing.F) {
	f.Add(`{"id":"a","template":"t","query":"{x}","variables":{"u":1},"expect":"` + hash + `"}`)
	f.Add(`{"id":"a","template":"t","query":"{x}","operationName":"Q","dialect":"d","dataset":{"sf":1,"seed":2,"version":3}}`)
	f.Add("{}\n\n{")
	f.Add(`{"id":"a","template":"t","variables":{"facultyID":"1"},"plan":` + qt1Plan + `}`)
	f.Add(`{"id":"c","template":"t","variables":{"t":"x"},"plan":[{"call":"POST /p","body":{"a":["{t}",1]},"as":"c","keep":[],"status":201}]}`)
	f.Fuzz(func(t *testing.T, input string) {
		entries, err := Read(strings.NewReader(input))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := Write(&b, entries); err != nil {
			t.Fatal(err)
		}
		back, err := Read(&b)
		if err != nil {
			t.Fatalf("written entries do not read back: %v\n%s", err, b.String())
		}
		if len(back) != len(entries) {
			t.Fatalf("%d entries read back, want %d", len(back), len(entries))
		}
		for i := range back {
			a, b := back[i], entries[i]
			a.Line, b.Line = 0, 0
			if len(b.Variables) == 0 {
				b.Variables = nil
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("entry %d: %+v, want %+v", i, a, b)
			}
		}
	})
}

// benchFile is n lines as bench/tools.sh writes them: one query, one
// variables row each, the answer's hash.
func benchFile(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `{"id":"q%d","template":"Q","query":"query Q($row: Int) { __typename }","variables":{"row":%d},"expect":"%s"}`+"\n", i+1, i+1, hash)
	}
	return b.Bytes()
}

// BenchmarkRead reads a file of 10,000 entries: the load generator's start.
func BenchmarkRead(b *testing.B) {
	data := benchFile(10000)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadFile reads a file of 10,000 entries whole, as the load
// generator does.
func BenchmarkReadFile(b *testing.B) {
	data := benchFile(10000)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := readData(data); err != nil {
			b.Fatal(err)
		}
	}
}

// bodiesAsBody returns Bodies(entries), failing t for each body that is
// not the entry's Body.
func bodiesAsBody(t *testing.T, entries []Entry) [][]byte {
	t.Helper()
	got, err := Bodies(entries)
	if err != nil {
		t.Fatal(err)
	}
	for i := range entries {
		want, err := entries[i].Body()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got[i], want) {
			t.Errorf("entry %s: Bodies %s\nBody %s", entries[i].ID, got[i], want)
		}
	}
	return got
}

// TestBodies: Bodies makes every entry's Body byte for byte — the
// escapes encoding/json writes (HTML characters, U+2028, control
// characters, invalid UTF-8), operation names, variables absent, spaced
// or escaped — and refuses what Body refuses.
func TestBodies(t *testing.T) {
	queries := []string{"{a}", "query Q($x: Int) { a(x: $x) }", `{ a(s: "<b>&\u2028\u2029\t\"é\x01") }`, "{ a(s: \"\xff\xfe\") }"}
	vars := []string{"", `{"x":1}`, `{"x": 1, "y" :[ 2 ]}`, `{"s":"<&>"}`, "{\"s\":\"\u2028\"}", `{"s":"é\u00e9"}`}
	var entries []Entry
	for qi, q := range queries {
		for vi, v := range vars {
			e := Entry{ID: fmt.Sprint(qi, vi), Query: q, Variables: json.RawMessage(v)}
			if vi%2 == 1 {
				e.OperationName = "Q<" + fmt.Sprint(qi) + ">"
			}
			entries = append(entries, e)
		}
	}
	got := bodiesAsBody(t, entries)
	got[0] = append(got[0], 'x') // a body's capacity ends with it
	if !bytes.HasPrefix(got[1], []byte(`{"query"`)) {
		t.Errorf("appending to one body wrote into the next: %s", got[1])
	}
	bad := []Entry{{ID: "bad", Query: "{a}", Variables: json.RawMessage(`{"x":}`)}}
	if _, err := bad[0].Body(); err == nil {
		t.Fatal("Body took invalid variables")
	}
	if _, err := Bodies(bad); err == nil {
		t.Error("Bodies took invalid variables")
	}
}

// TestReadAllocations: the load generator's start reads a line of a
// queries file in a few allocations (its strings and variables), not
// twenty.
func TestReadAllocations(t *testing.T) {
	data := benchFile(1000)
	path := filepath.Join(t.TempDir(), "q.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func() ([]Entry, error){
		"Read":     func() ([]Entry, error) { return Read(bytes.NewReader(data)) },
		"ReadFile": func() ([]Entry, error) { f, err := ReadFile(path); return f.Entries, err },
	} {
		n := testing.AllocsPerRun(5, func() {
			if es, err := read(); err != nil || len(es) != 1000 {
				t.Fatal(len(es), err)
			}
		})
		if perLine := n / 1000; perLine > 11 {
			t.Errorf("%s: %.1f allocations a line", name, perLine)
		}
		// a file read whole: the entries are its bytes, not copies
		if perLine := n / 1000; name == "ReadFile" && perLine > 0.1 {
			t.Errorf("%s: %.2f allocations a line, want the entries made of the file's bytes", name, perLine)
		}
	}
}

// TestReadFileAliases: the entries of a file read whole, made of its
// bytes, are the entries Read copies out of a stream — every member, on
// lines of every shape the fast reader takes and of some it leaves to
// encoding/json — and appending to one's variables changes neither the
// file's bytes nor the next entry.
func TestReadFileAliases(t *testing.T) {
	var b bytes.Buffer
	b.Write(benchFile(50))
	b.WriteString(`{"id":"a","template":"T","query":"{ a }","operationName":"Op","dialect":"pg","variables":{"x":[1,2]},"answer":{"a":1},"unordered":true}` + "\n")
	b.WriteString(`{"id":"b","template":"T","query":"{ b }","variables":{"s":"é"},"expect":null}` + "\n")
	b.WriteString(`{"id":"c","template":"T","query":"{ \"esc\" }","variables":{"y":1}}` + "\n") // an escape: encoding/json's
	b.WriteString(`{"id":"d","template":"T","query":"{ d }","dataset":{"sf":1,"seed":2,"version":3}}` + "\n")
	data := b.Bytes()
	want, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "q.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.Entries, want) {
		t.Fatalf("ReadFile's entries differ from Read's:\n%+v\n%+v", f.Entries[50:], want[50:])
	}
	before := bytes.Clone(f.Data)
	_ = append(f.Entries[0].Variables, `,"z":0}`...)
	if !bytes.Equal(f.Data, before) || !reflect.DeepEqual(f.Entries, want) {
		t.Fatal("appending to an entry's variables changed the file's bytes")
	}
}
