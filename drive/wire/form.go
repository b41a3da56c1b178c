package wire

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
)

// AcceptHeader is what the load generator accepts, as the GraphQL-over-HTTP
// specification asks of a client: its own media type first, then JSON.
const AcceptHeader = "application/graphql-response+json, application/json"

// form is how requests go on the wire, as real clients send them: POST of
// JSON (the default) or GET with the request in the query string (the
// GraphQL-over-HTTP specification's encoding), optionally as automatic
// persisted queries (the query's SHA-256 first, the text only when the
// server does not know it), with the user's headers, some of whose values
// are made anew for every request ({{uuid}}, {{seq}}) so that no cache can
// serve the benchmark.
type form struct {
	get, apq bool
	path     string // the target's path and query
	static   []header
	dynamic  []header // headers with placeholders, expanded per request
	seq      atomic.Uint64
}

// header is one request header; a dynamic one's value is split around its
// placeholders: parts[0] ph[0] parts[1] ph[1] ... parts[n].
type header struct {
	name, value string
	parts       []string
	ph          []string // "uuid" or "seq"
}

// newForm checks the options' headers and method.
func newForm(path string, o Options) (*form, error) {
	f := &form{path: path, apq: o.APQ}
	switch strings.ToUpper(o.Method) {
	case "", "POST":
	case "GET":
		f.get = true
	default:
		return nil, fmt.Errorf("method %q: want GET or POST", o.Method)
	}
	for n, hd := range o.Header {
		name, value, ok := strings.Cut(hd, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		// The header's text may hold a secret: errors name it by number.
		if !ok || name == "" || strings.ContainsAny(hd, "\r\n") || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("header %d of %d: want \"Name: value\" on one line", n+1, len(o.Header))
		}
		h := header{name: name, value: value}
		if h.parts, h.ph = placeholders(value); len(h.ph) > 0 {
			f.dynamic = append(f.dynamic, h)
		} else {
			f.static = append(f.static, h)
		}
	}
	return f, nil
}

// placeholders splits v around {{uuid}} and {{seq}}; other braces are
// kept as written.
func placeholders(v string) (parts, ph []string) {
	cur := ""
	for {
		i := strings.Index(v, "{{")
		if i < 0 {
			return append(parts, cur+v), ph
		}
		if j := strings.Index(v[i:], "}}"); j > 0 {
			if name := v[i+2 : i+j]; name == "uuid" || name == "seq" {
				parts, ph, cur = append(parts, cur+v[:i]), append(ph, name), ""
				v = v[i+j+2:]
				continue
			}
		}
		cur += v[:i+2]
		v = v[i+2:]
	}
}

// request returns the method, path-and-query and body of request r: its
// first attempt, or with full, the text after a persisted-query miss.
func (f *form) request(r *Request, full bool) (method, path string, body []byte, err error) {
	ext := ""
	if f.apq {
		sum := sha256.Sum256([]byte(r.Query))
		ext = `{"persistedQuery":{"version":1,"sha256Hash":"` + hex.EncodeToString(sum[:]) + `"}}`
	}
	withQuery := !f.apq || full
	if f.get && !r.Mutation { // GET for queries, POST for mutations: GraphQL over HTTP runs no mutation sent by GET
		v := url.Values{}
		if withQuery {
			v.Set("query", r.Query)
		}
		if r.OperationName != "" {
			v.Set("operationName", r.OperationName)
		}
		if len(r.Variables) > 0 {
			v.Set("variables", string(r.Variables))
		}
		if ext != "" {
			v.Set("extensions", ext)
		}
		sep := "?"
		if strings.Contains(f.path, "?") {
			sep = "&"
		}
		return "GET", f.path + sep + v.Encode(), nil, nil
	}
	if !f.apq {
		return "POST", f.path, r.Body, nil
	}
	b := struct {
		Query         string          `json:"query,omitempty"`
		OperationName string          `json:"operationName,omitempty"`
		Variables     json.RawMessage `json:"variables,omitempty"`
		Extensions    json.RawMessage `json:"extensions"`
	}{OperationName: r.OperationName, Extensions: json.RawMessage(ext)}
	if withQuery {
		b.Query = r.Query
	}
	if len(r.Variables) > 0 {
		b.Variables = r.Variables
	}
	body, err = json.Marshal(b)
	return "POST", f.path, body, err
}

// expander makes the per-request values of the placeholders; one per
// connection.
type expander struct {
	f   *form
	rng *mrand.Rand
}

func (f *form) expander() *expander {
	var seed [16]byte
	rand.Read(seed[:])
	return &expander{f: f, rng: mrand.New(mrand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:])))}
}

// appendHeaders appends the dynamic headers, "Name: value\r\n" each, with
// fresh values.
func (x *expander) appendHeaders(b []byte) []byte {
	for _, h := range x.f.dynamic {
		b = append(b, h.name...)
		b = append(b, ": "...)
		b = x.appendValue(b, &h)
		b = append(b, "\r\n"...)
	}
	return b
}

// appendValue appends h's value with fresh placeholders.
func (x *expander) appendValue(b []byte, h *header) []byte {
	for k, p := range h.parts {
		b = append(b, p...)
		if k < len(h.ph) {
			if h.ph[k] == "seq" {
				b = strconv.AppendUint(b, x.f.seq.Add(1), 10)
			} else {
				b = x.appendUUID(b)
			}
		}
	}
	return b
}

// appendUUID appends a random (version 4) UUID.
func (x *expander) appendUUID(b []byte) []byte {
	var u [16]byte
	binary.LittleEndian.PutUint64(u[:8], x.rng.Uint64())
	binary.LittleEndian.PutUint64(u[8:], x.rng.Uint64())
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], u[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], u[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], u[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], u[8:10])
	s[23] = '-'
	hex.Encode(s[24:], u[10:])
	return append(b, s[:]...)
}

// persistedQueryNotFound reports whether a response says the server does
// not know a persisted query's hash: a GraphQL error whose message is
// PersistedQueryNotFound or whose extensions.code is
// PERSISTED_QUERY_NOT_FOUND (read as JSON, not searched as text).
func persistedQueryNotFound(body []byte) bool {
	if !bytes.Contains(body, []byte("ersisted")) && !bytes.Contains(body, []byte("ERSISTED")) {
		return false // the common case, decided without decoding
	}
	var r struct {
		Errors []struct {
			Message    string `json:"message"`
			Extensions struct {
				Code string `json:"code"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &r) != nil {
		return false
	}
	for _, e := range r.Errors {
		if e.Message == "PersistedQueryNotFound" || e.Extensions.Code == "PERSISTED_QUERY_NOT_FOUND" {
			return true
		}
	}
	return false
}
