package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/gqlbench/gqlbench/server/trace"
)

// ErrorResponse is a response made of one error with message msg, answered
// with HTTP status (0: 200).
func ErrorResponse(status int, msg string) *Response {
	return &Response{Errors: gqlerror.List{{Message: msg}}, Status: status}
}

// MutationOverGet is the response to a mutation sent by GET, which the
// GraphQL-over-HTTP spec forbids: 405, with Allow: POST (Handler).
func MutationOverGet() *Response {
	r := ErrorResponse(http.StatusMethodNotAllowed, "mutations are not allowed over GET: send them by POST")
	r.RequestError = true
	return r
}

// ResponseTooLarge is the response to a request whose answer reached size
// bytes, over the limit (see ResponseLimit); size may be where an executor
// gave up, so the message says "at least". Its status is 500: see Handler.
func ResponseTooLarge(size, limit int64) *Response {
	return ErrorResponse(http.StatusInternalServerError, fmt.Sprintf(
		"response too large: at least %d bytes, over the server's limit of %d bytes (--max-response-bytes); ask for less data (a smaller limit, fewer fields)",
		size, limit))
}

// Response media types; shared slices, so setting them allocates nothing.
var (
	jsonType    = []string{"application/json; charset=utf-8"}
	graphqlType = []string{"application/graphql-response+json; charset=utf-8"}
)

// Keys of the encoded response, each as the first member ({"key":) and as a
// later one (,"key":), in the order written.
var (
	firstKey = [3][]byte{[]byte(`{"errors":`), []byte(`{"data":`), []byte(`{"extensions":`)}
	laterKey = [3][]byte{[]byte(`,"errors":`), []byte(`,"data":`), []byte(`,"extensions":`)}

	nullData     = []byte("null")
	closeBrace   = []byte(`}`)
	encodeFailed = `{"errors":[{"message":"internal server error: cannot encode the response"}]}`
)

// write encodes resp as the answer to r: {"errors", "data", "extensions"},
// errors first as the GraphQL spec suggests, Data copied as it is.
//
// With tr (a traced request), the response gets extensions.timing, written
// in a pooled buffer, and the Server-Timing header.
func (h *handler) write(w http.ResponseWriter, r *http.Request, resp *Response, tr *traced) {
	var t timing
	if tr != nil {
		tr.executed = trace.Now()
		t = tr.timing()
	}
	modern := prefersGraphQLResponse(r.Header.Get("Accept"))
	status := resp.Status
	if status == 0 {
		status = http.StatusOK
		// The GraphQL-over-HTTP spec: a request error (the request was well
		// formed, the document could not be executed) is a 400 under
		// application/graphql-response+json, but 200 under application/json,
		// whose client cannot tell a 4xx of the server's from an
		// intermediary's.
		if resp.RequestError && modern {
			status = http.StatusBadRequest
		}
	}
	var errs, ext []byte
	var err error
	if len(resp.Errors) > 0 {
		if errs, err = json.Marshal(resp.Errors); err != nil {
			h.writeRaw(w, r, http.StatusInternalServerError, encodeFailed)
			return
		}
	}
	switch {
	case tr != nil && len(resp.Extensions) == 0:
		eb := extBufs.Get().(*[]byte)
		defer extBufs.Put(eb)
		*eb = append(t.appendJSON(append((*eb)[:0], `{"timing":`...)), '}')
		ext = *eb
	case tr != nil || len(resp.Extensions) > 0:
		if ext, err = marshalExtensions(resp.Extensions, tr != nil, &t); err != nil {
			h.writeRaw(w, r, http.StatusInternalServerError, encodeFailed)
			return
		}
	}
	data := []byte(resp.Data)
	if len(data) == 0 && len(errs) == 0 && !resp.RequestError {
		data = nullData // executed, nothing to say: data is null
	}
	if len(data) == 0 && len(errs) == 0 {
		errs, _ = json.Marshal(gqlerror.List{{Message: http.StatusText(status)}})
	}

	parts := [3][]byte{errs, data, ext}
	size := encodedSize(parts)
	if lim := h.o.MaxResponseBytes; lim > 0 && size > lim {
		// The error itself is written whatever its size: no recursion.
		errs, _ = json.Marshal(ResponseTooLarge(size, lim).Errors)
		status, parts = http.StatusInternalServerError, [3][]byte{errs, nil, nil}
		size = encodedSize(parts)
	}

	hdr := w.Header()
	if status == http.StatusMethodNotAllowed && hdr.Get("Allow") == "" {
		hdr.Set("Allow", "POST") // a mutation by GET (MutationOverGet)
	}
	hdr["Content-Type"] = mediaType(modern)
	hdr["Content-Length"] = []string{strconv.FormatInt(size, 10)}
	if tr != nil {
		tr.serverTiming(hdr, &t)
	}
	w.WriteHeader(status)
	keys := &firstKey
	for i, p := range parts {
		if len(p) > 0 {
			w.Write(keys[i])
			w.Write(p)
			keys = &laterKey
		}
	}
	w.Write(closeBrace)
}

// encodedSize is the size of the response object made of parts.
func encodedSize(parts [3][]byte) int64 {
	size := int64(len(closeBrace))
	for i, p := range parts {
		if len(p) > 0 {
			size += int64(len(laterKey[i]) + len(p)) // a first key is as long
		}
	}
	return size
}

// writeRaw writes a fixed body.
func (h *handler) writeRaw(w http.ResponseWriter, r *http.Request, status int, body string) {
	w.Header()["Content-Type"] = mediaType(prefersGraphQLResponse(r.Header.Get("Accept")))
	w.Header()["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write([]byte(body))
}

// extBufs recycles the buffers of extensions.timing: the body is copied
// as it is written, so a buffer is free again once written.
var extBufs = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// marshalExtensions encodes ext plus, when traced, the timing t under
// "timing", without modifying ext (the Response may be shared).
func marshalExtensions(ext map[string]any, traced bool, t *timing) ([]byte, error) {
	if !traced {
		return json.Marshal(ext)
	}
	m := make(map[string]any, len(ext)+1)
	for k, v := range ext {
		m[k] = v
	}
	m["timing"] = json.RawMessage(t.appendJSON(nil))
	return json.Marshal(m)
}

// mediaType is the response's Content-Type: application/graphql-response+json
// when modern, else application/json.
func mediaType(modern bool) []string {
	if modern {
		return graphqlType
	}
	return jsonType
}

// prefersGraphQLResponse says, from an Accept header, whether the response
// is application/graphql-response+json: when the client accepts it at least
// as much as application/json; not for no Accept, */*, or media types we do
// not produce (then the response is application/json).
func prefersGraphQLResponse(accept string) bool {
	if accept == "" || !strings.Contains(strings.ToLower(accept), "graphql-response+json") {
		return false
	}
	gq, js := -1.0, -1.0
	for part := range strings.SplitSeq(accept, ",") {
		typ, params, _ := strings.Cut(part, ";")
		q := quality(params)
		switch strings.ToLower(strings.TrimSpace(typ)) {
		case "application/graphql-response+json":
			gq = max(gq, q)
		case "application/json", "application/*", "*/*":
			js = max(js, q)
		}
	}
	return gq > 0 && gq >= js
}

// quality is the q parameter in an Accept entry's parameters (default 1).
func quality(params string) float64 {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(p, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || q < 0 {
				return 0
			}
			return q
		}
	}
	return 1
}
