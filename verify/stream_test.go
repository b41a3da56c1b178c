package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// canonicalTree is the canonical form as it was computed before
// AppendCanonical, through encoding/json and a tree of values: the
// reference AppendCanonical must equal, byte for byte.
func canonicalTree(data []byte) ([]byte, error) {
	if !json.Valid(data) {
		return nil, errNotOne
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parse(dec)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := write(&out, v); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// sameAsTree fails unless AppendCanonical agrees with canonicalTree on in:
// the same bytes, or both an error.
func sameAsTree(t *testing.T, in []byte) {
	t.Helper()
	want, werr := canonicalTree(in)
	got, gerr := AppendCanonical(nil, in)
	if (werr != nil) != (gerr != nil) || werr == nil && !bytes.Equal(got, want) {
		t.Fatalf("AppendCanonical(%.200q) = %.200q, %v; the tree's %.200q, %v", in, got, gerr, want, werr)
	}
}

// TestStreamEqualsTree: the streaming canonical form is the tree's on
// every shape: the canonical tests' inputs, strings of every escape,
// invalid UTF-8 and surrogates, numbers of every form, broken JSON,
// duplicate keys, nesting at and beyond encoding/json's limit, and random
// documents.
func TestStreamEqualsTree(t *testing.T) {
	inputs := []string{
		`{"a":1,"b":2}`, `{"b":1,"a":2}`, `{"a":1,"a":2}`, `{"b":1,"a":2,"b":3}`, `{"a":1,"b":{"c":1,"c":1}}`,
		`{"é":1,"a":2,"B":3,"":4}`, `{"\u00e9":1,"é":2}`, `{"\ud800":1,"\ufffd":2}`, `{"\ud800":1,"\udc00":2}`,
		`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00\ud83d"`, `"\ud83d\u0041"`, `"\ud83dx"`, `"\ud83d\ud83d\ude00"`,
		"\"\xff\xfe\"", "\"\xed\xa0\x80\"", "\"\xc3\"", "\"a\x7fb\"", "\"\xe2\x80\xa8\"",
		`"\b\f\n\r\t\/\\\""`, `"\u0000\u001f\u0020\u007f"`, `"\x"`, `"\u12"`, `"\u12g4"`, "\"\x01\"", `"abc`,
		`0`, `-0`, `-0.0`, `1.0`, `1e3`, `1E+3`, `1e-7`, `5e-7`, `-5e-7`, `0.1234565`, `123456789012345678901234567890`,
		`1e999999999`, `1e-99999999999999999999`, `01`, `-`, `1.`, `.1`, `1e`, `1e+`, `+1`, `-01`, `0x10`, `1.5e20`,
		`true`, `false`, `null`, `tru`, `nulll`, `True`, `[true,false,null]`, `[1,]`, `[,1]`, `{"a":1,}`, `{,}`,
		`{"a" 1}`, `{a:1}`, `{"a":}`, `[`, `]`, `{`, `}`, ``, ` `, `1 2`, `[] []`, " \t\n\r[ 1 , 2 ]\r\n ",
		`{"data":{"university":{"aggregate":{"age":{"avg":23.4567891,"max":27.0,"min":20}}}}}`,
		`[{"b":false},{"a":null}]`, `{"z":{"y":{"x":[]}},"":{}}`, `{"a":[{"c":1,"b":2},{"e":[3,{"g":1,"f":2}]}]}`,
	}
	for _, s := range inputs {
		sameAsTree(t, []byte(s))
	}
	for _, depth := range []int{1, 100, maxDepth - 1, maxDepth, maxDepth + 1, 3 * maxDepth} {
		for _, open := range []string{"[", `{"a":`} {
			closing := map[string]string{"[": "]", `{"a":`: "}"}[open]
			sameAsTree(t, []byte(strings.Repeat(open, depth)+"1"+strings.Repeat(closing, depth)))
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		doc := randomJSON(r, 0)
		sameAsTree(t, doc)
		if _, err := canonicalTree(doc); err == nil {
			sameAsTree(t, permuted(t, doc))
		}
		// and broken: a byte cut out, or changed
		if len(doc) > 1 {
			i := r.IntN(len(doc))
			sameAsTree(t, append(append([]byte{}, doc[:i]...), doc[i+1:]...))
			b := bytes.Clone(doc)
			const bytes = "\"\\{}[],:0e.-a\xff"
			b[i] = bytes[r.IntN(len(bytes))]
			sameAsTree(t, b)
		}
	}
}

// randomJSON writes a random JSON value, with the shapes that matter to
// the canonical form: unsorted and escaped keys, numbers to round, strings
// with escapes and invalid bytes.
func randomJSON(r *rand.Rand, depth int) []byte {
	var b bytes.Buffer
	var val func(d int)
	str := func() {
		parts := []string{"a", "b", "é", `\u00e9`, `\n`, `\"`, `\\`, `\/`, `\ud83d\ude00`, `\ud83d`, "\xff", `\u0001`, "Z", "\t"[:0]}
		b.WriteByte('"')
		for range r.IntN(4) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		b.WriteByte('"')
	}
	nums := []string{"0", "-0", "1", "-17", "2.50", "1e3", "0.1234565", "-0.0000005", "9.9999999", "123456789012345678901", "1E-2", "7.0"}
	val = func(d int) {
		k := r.IntN(8)
		if d > 4 {
			k = 4 + r.IntN(4)
		}
		switch k {
		case 0, 1:
			b.WriteByte('{')
			for i := range r.IntN(5) {
				if i > 0 {
					b.WriteByte(',')
				}
				str()
				b.WriteString(" : ")
				val(d + 1)
			}
			b.WriteByte('}')
		case 2, 3:
			b.WriteByte('[')
			for i := range r.IntN(4) {
				if i > 0 {
					b.WriteString(", ")
				}
				val(d + 1)
			}
			b.WriteByte(']')
		case 4:
			str()
		case 5, 6:
			b.WriteString(nums[r.IntN(len(nums))])
		default:
			b.WriteString([]string{"true", "false", "null"}[r.IntN(3)])
		}
	}
	val(depth)
	return b.Bytes()
}

// TestCanonicalMemory: the canonical form of a 14 MB answer of a million
// keys takes a few times its size, not a tree of a hundred times it.
func TestCanonicalMemory(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"data":{`)
	const n = 1_000_000
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%07d":%d.5`, n-i, i%10)
	}
	b.WriteString(`}}`)
	in := []byte(b.String())
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c, err := Canonical(in)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 6*uint64(len(in)) {
		t.Errorf("the canonical form of %d bytes allocated %d bytes", len(in), alloc)
	}
	if !bytes.HasPrefix(c, []byte(`{"data":{"k0000001":9.5,"k0000002":8.5`)) {
		t.Errorf("canonical form %.60s", c)
	}
}

// FuzzStreamEqualsTree: AppendCanonical and the tree agree on any input.
func FuzzStreamEqualsTree(f *testing.F) {
	for _, s := range []string{`{"b":[1,2.50,{"d":1e-7,"c":"\u00e9"}],"a":null}`, `"\ud83d\ude00\ud800"`, "\"\xff\"", `{"a":1,"a":2}`, `[-0.0,1E+2]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { sameAsTree(t, in) })
}

// TestCanonicalWithin: the canonical form within a limit is the canonical
// form; beyond it, ErrLonger comes before the whole input is read.
func TestCanonicalWithin(t *testing.T) {
	in := []byte(`{"b":[1,2.50,"x"],"a":{"d":null,"c":true}}`)
	want, _ := Canonical(in)
	for _, limit := range []int{len(want), len(want) + 1, 1000} {
		if got, err := AppendCanonicalWithin(nil, in, limit); err != nil || !bytes.Equal(got, want) {
			t.Errorf("limit %d: %q, %v", limit, got, err)
		}
	}
	if _, err := AppendCanonicalWithin(nil, in, len(want)-1); err != ErrLonger {
		t.Errorf("limit %d: %v, want ErrLonger", len(want)-1, err)
	}
	huge := []byte(`[` + strings.Repeat(`"xxxxxxxx",`, 1<<20) + `1]`)
	var err error
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	_, err = AppendCanonicalWithin(nil, huge, 100)
	runtime.ReadMemStats(&b)
	if err != ErrLonger || b.TotalAlloc-a.TotalAlloc > 64<<10 {
		t.Errorf("a long list within 100 bytes: %v, %d bytes allocated", err, b.TotalAlloc-a.TotalAlloc)
	}
}
