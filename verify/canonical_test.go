package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// whitespace and key order
		{` { "b" : 1 , "a" : [ 1 , 2 ] } `, `{"a":[1,2],"b":1}`},
		{`{"a":{"d":null,"c":true}}`, `{"a":{"c":true,"d":null}}`},
		{`{"é":1,"a":2,"B":3,"":4}`, `{"":4,"B":3,"a":2,"é":1}`}, // bytes: "" < B < a < é
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`[{"b":false},{"a":null}]`, `[{"b":false},{"a":null}]`}, // list order is kept
		// integral floats are integers
		{`1.0`, `1`},
		{`-1.000`, `-1`},
		{`1e3`, `1000`},
		{`1E+3`, `1000`},
		{`12.5e-1`, `1.25`},
		{`-0`, `0`},
		{`-0.0`, `0`},
		{`0e10`, `0`},
		{`23.5`, `23.5`},
		{`2.50`, `2.5`},
		// rounded to 6 places, half away from zero, from the decimal text
		{`0.1234565`, `0.123457`},
		{`0.12345649999`, `0.123456`},
		{`-0.1234565`, `-0.123457`},
		{`23.499999999999996`, `23.5`},
		{`20.0078125`, `20.007813`},
		{`1.0000001`, `1`},
		{`0.9999995`, `1`},
		{`9.9999999`, `10`},
		{`1e-7`, `0`},
		{`-4e-7`, `0`},
		{`5e-7`, `0.000001`},
		{`-5e-7`, `-0.000001`},
		{`1e-99999999999999999999`, `0`},
		{`1e-1000000000000001`, `0`},
		{`1` + strings.Repeat("0", 1200) + `e-1195`, `100000`},
		{`0.` + strings.Repeat("0", 1200) + `1e1200`, `0.1`},
		{`0.1`, `0.1`},
		// integers of any length are exact
		{`123456789012345678901234567890`, `123456789012345678901234567890`},
		{`-9007199254740993`, `-9007199254740993`},
		{`1.5e20`, `150000000000000000000`},
		// strings: escapes decoded, only what JSON needs escaped
		{`"\u00e9\/\""`, `"é/\""`},
		{`"a\u0001b\n\t\\"`, `"a\u0001b\n\t\\"`},
		{`"\u2028"`, "\"\u2028\""},
		{`"<&>"`, `"<&>"`},
		{"\"\xff\"", "\"\uFFFD\""},
		{`{"\u0062":1,"a":2}`, `{"a":2,"b":1}`},
	} {
		got, err := Canonical([]byte(c.in))
		if err != nil {
			t.Errorf("Canonical(%s): %v", c.in, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("Canonical(%s) = %s, want %s", c.in, got, c.want)
		}
		if again, err := Canonical(got); err != nil || !bytes.Equal(again, got) {
			t.Errorf("Canonical(Canonical(%s)) = %s, %v; want it unchanged", c.in, again, err)
		}
	}
}

func TestCanonicalErrors(t *testing.T) {
	for _, in := range []string{
		``,
		`{`,
		`{"a":1}{"b":2}`, // two values
		`{"a":1,"a":1}`,  // a duplicate key
		`[1,]`,
		`NaN`,
		`1e1001`, // absurdly large
		`1e99999999999999999999`,
		`1e1000000000000001`,
		strings.Repeat("[", 20000) + strings.Repeat("]", 20000),
	} {
		if got, err := Canonical([]byte(in)); err == nil {
			t.Errorf("Canonical(%.40s) = %.40s, want an error", in, got)
		}
	}
}

func TestHash(t *testing.T) {
	sum := sha256.Sum256([]byte(`{"a":[1,0.5],"b":"x"}`))
	want := hex.EncodeToString(sum[:])
	for _, in := range []string{
		`{"a":[1,0.5],"b":"x"}`,
		`{"b":"x","a":[1.0,0.50]}`,
		"{\n  \"b\": \"x\",\n  \"a\": [1e0, 5e-1]\n}\n",
		`{"a":[1.0000004,0.4999996],"b":"\u0078"}`,
	} {
		got, err := Hash([]byte(in))
		if err != nil || got != want {
			t.Errorf("Hash(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{`{"a":[1,0.5],"b":"y"}`, `{"a":[0.5,1],"b":"x"}`, `{"a":[1,0.500001],"b":"x"}`} {
		if got, _ := Hash([]byte(in)); got == want {
			t.Errorf("Hash(%s) equals the hash of another answer", in)
		}
	}
}

func TestCheck(t *testing.T) {
	expect, _ := Hash([]byte(`{"u":{"id":"1"}}`))
	for _, c := range []struct {
		body string
		want error // nil: the response is right
	}{
		{`{"data":{"u":{"id":"1"}}}`, nil},
		{`{"data":{"u":{"id":"1"}},"errors":[],"extensions":{"t":1}}`, nil},
		{`{"errors":null,"data":{"u":{"id":"1"}}}`, nil},
		{`{"data":{"u":{"id":"2"}}}`, ErrWrongAnswer},
		{`{"data":null,"errors":[{"message":"boom"}]}`, ErrGraphQL},
		{`{"data":{"u":{"id":"1"}},"errors":[{"message":"partial"}]}`, ErrGraphQL},
		{`{"Data":{"u":{"id":"1"}}}`, ErrMalformed}, // member names are exact
		{`{"errors":"x","data":{}}`, ErrMalformed},
		{`<html>502</html>`, ErrMalformed},
		{`[1]`, ErrMalformed},
	} {
		err := Check([]byte(c.body), expect)
		if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("Check(%s) = %v, want %v", c.body, err, c.want)
		}
	}
	if err := Check([]byte(`{"data":{"anything":1}}`), ""); err != nil {
		t.Errorf("Check without an expected hash: %v", err)
	}
}

// permuted writes the value of JSON text in with every object's members in
// reverse order and other whitespace: the same value as in.
func permuted(t *testing.T, in []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.UseNumber()
	v, err := parse(dec)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var out bytes.Buffer
	var w func(any)
	w = func(v any) {
		switch x := v.(type) {
		case object:
			out.WriteString("{ ")
			for i := len(x) - 1; i >= 0; i-- {
				k, _ := json.Marshal(x[i].key)
				out.Write(k)
				out.WriteString(" :\n")
				w(x[i].val)
				if i > 0 {
					out.WriteString(" ,")
				}
			}
			out.WriteString("}")
		case []any:
			out.WriteString("[\t")
			for i, e := range x {
				if i > 0 {
					out.WriteString(",  ")
				}
				w(e)
			}
			out.WriteString("]")
		case json.Number:
			out.WriteString(string(x))
		default:
			b, _ := json.Marshal(x)
			out.Write(b)
		}
	}
	w(v)
	return out.Bytes()
}

func FuzzCanonical(f *testing.F) {
	for _, s := range []string{
		`{"data":{"university":{"graduateStudentConnection":{"aggregate":{"age":{"avg":23.4567891,"max":27.0,"min":20}}}}}}`,
		`{"b":[1,2,{"d":1e-7,"c":"\u00e9"}],"a":null}`,
		`[true,false,null,"x\\y\"z",-0.0000005,123456789012345678901234567890]`,
		`{"z":{"y":{"x":[]}},"":{}}`,
		`"\ud800"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := Canonical(in)
		if err != nil {
			return
		}
		if !json.Valid(c) {
			t.Fatalf("Canonical(%q) = %q: not valid JSON", in, c)
		}
		again, err := Canonical(c)
		if err != nil || !bytes.Equal(again, c) {
			t.Fatalf("not idempotent: Canonical(%q) = %q, then %q, %v", in, c, again, err)
		}
		p := permuted(t, in)
		pc, err := Canonical(p)
		if err != nil || !bytes.Equal(pc, c) {
			t.Fatalf("key order matters: Canonical(%q) = %q, but Canonical(%q) = %q, %v", in, c, p, pc, err)
		}
	})
}
