package rest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/server/write"
)

// FuzzAppendString: the JSON strings the encoder writes decode to what
// encoding/json's decode to: the string itself, invalid UTF-8 replaced.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "tab\tnl\ncr\r\x00\x1f", "ünï©ødé", "bad \xff\xfe utf-8", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got, want string
		if err := json.Unmarshal(appendString(nil, s), &got); err != nil {
			t.Fatalf("%q: not a JSON string: %v", s, err)
		}
		b, _ := json.Marshal(s)
		json.Unmarshal(b, &want)
		if got != want {
			t.Fatalf("%q: decodes to %q, encoding/json's to %q", s, got, want)
		}
	})
}

// FuzzQuery: any query string, on any collection, either shapes a request
// or is refused with a 400; never a panic.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{"", "fields=id,emailAddress", "embed=advisor&fields%5Badvisor%5D=id", "limit=3&offset=9",
		"embed=a.b", "fields=&embed=", "%zz", "limit=-1", "embed=graduateStudents,professors", "fields[x]=y"} {
		f.Add(s, 6, true)
	}
	f.Fuzz(func(t *testing.T, raw string, coll int, paging bool) {
		c := collections[(coll%len(collections)+len(collections))%len(collections)]
		q, p := parseQuery(raw, paging, true)
		if p == nil {
			var es []*embed
			if es, p = embeds(c, q); p == nil {
				var must []*field
				for _, e := range es {
					if e.ref != nil {
						must = append(must, e.ref)
					}
				}
				var fs []*field
				if fs, p = selectFields(c, "fields", q.fields, must); p == nil {
					if len(fs) == 0 || fs[0].kind != idKind {
						t.Fatalf("%q: fields %v without id first", raw, fs)
					}
					return
				}
			}
		}
		if p.status != http.StatusBadRequest || p.detail == "" {
			t.Fatalf("%q: refused with %d %q", raw, p.status, p.detail)
		}
	})
}

// FuzzBody: any request body of a write is a validated input or a 400.
func FuzzBody(f *testing.F) {
	for _, s := range []string{`{"title":"t","abstract":"a","mainAuthor":"1000000000000000"}`, `{"age":20.5}`, `[`, `{"a":1,"a":2}`,
		`{"title":"x"} trailing`, `{"memberOf":1e300}`, `null`, `{"advisor":null}`} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, body string, pub bool) {
		c := undergraduateStudents
		if pub {
			c = publications
		}
		m, p := decodeObject([]byte(body), c)
		if p != nil {
			if p.status != http.StatusBadRequest {
				t.Fatalf("%q: %d", body, p.status)
			}
			return
		}
		if _, err := write.Parse(c.write, m, strings.Contains(body, "create")); err != nil {
			if we, ok := err.(*write.Error); !ok || we.Kind != write.Invalid {
				t.Fatalf("%q: %v", body, err)
			}
		}
	})
}
