package drive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
)

// errorLog counts the errors of the current interval by kind, status and
// reason, keeping one sample body per reason; the collector takes them
// with each interval. At most runfile.MaxErrorReasons reasons are kept, the
// errors of any further one counted under its kind's runfile.OtherReason,
// so a server that says something new every time costs a few entries.
type errorLog struct {
	mu      sync.Mutex
	cur     []runfile.ErrorReason
	last    string   // the last error's kind and reason
	secrets []string // hidden in sample bodies
}

// add counts one error; body is its answer's body, or nil.
func (l *errorLog) add(kind measure.Outcome, status int, reason string, body []byte) {
	k := runfile.ErrorReason{Kind: kind.String(), Status: status, Reason: reason}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last = k.String()
	for i := range l.cur {
		if l.cur[i].Same(k) {
			l.cur[i].Count++
			return
		}
	}
	if runfile.DistinctReasons(l.cur) >= runfile.MaxErrorReasons {
		k = runfile.ErrorReason{Kind: k.Kind, Reason: runfile.OtherReason}
		for i := range l.cur {
			if l.cur[i].Same(k) {
				l.cur[i].Count++
				return
			}
		}
		body = nil
	}
	k.Count = 1
	k.Sample = sampleBody(body, l.secrets)
	l.cur = append(l.cur, k)
}

// collect returns the interval's reasons, most frequent first, and starts
// the next interval's.
func (l *errorLog) collect() []runfile.ErrorReason {
	l.mu.Lock()
	out := l.cur
	l.cur = nil
	l.mu.Unlock()
	runfile.SortErrorReasons(out)
	return out
}

// putBack returns reasons collected for an interval that was not written
// (an empty tail interval): the next one counts them.
func (l *errorLog) putBack(rs []runfile.ErrorReason) {
	if len(rs) == 0 {
		return
	}
	l.mu.Lock()
	l.cur = runfile.AddErrorReasons(rs, l.cur)
	l.mu.Unlock()
}

// lastError is the last error's kind and reason, "" before the first.
func (l *errorLog) lastError() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last
}

// sampleBody is the start of body for an ErrorReason: at most
// runfile.SampleBodyBytes, cut on a character, each secret replaced by
// "(secret)".
func sampleBody(body []byte, secrets []string) string {
	if len(body) == 0 {
		return ""
	}
	s := string(body[:min(len(body), runfile.SampleBodyBytes+256)])
	for _, sec := range secrets {
		s = strings.ReplaceAll(s, sec, "(secret)")
	}
	if len(s) > runfile.SampleBodyBytes {
		s = s[:runfile.SampleBodyBytes]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return strings.ToValidUTF8(s, "?")
}

// secretsOf returns what a sample body must not show of the request
// headers "Name: value": every value, and every word of 8 bytes or more in
// one ("Bearer TOKEN" echoed as TOKEN alone).
func secretsOf(headers []string) []string {
	var out []string
	for _, h := range headers {
		_, v, ok := strings.Cut(h, ":")
		if v = strings.TrimSpace(v); !ok || len(v) < 4 {
			continue
		}
		out = append(out, v)
		for _, w := range strings.Fields(v) {
			if len(w) >= 8 && w != v {
				out = append(out, w)
			}
		}
	}
	return out
}

// checkReason says why the checker found an answer to be an error of kind:
// its status, its first GraphQL error's message, or what about its body is
// not a GraphQL answer. Called for errors only: it reads the body again.
func checkReason(kind measure.Outcome, status int, body []byte) string {
	switch kind {
	case measure.ErrStatus:
		if t := http.StatusText(status); t != "" {
			return fmt.Sprintf("HTTP %d %s", status, t)
		}
		return fmt.Sprintf("HTTP %d", status)
	case measure.ErrGraphQL:
		var r struct {
			Errors []struct {
				Message string `json:"message"`
			} `json:"errors"`
		}
		if json.Unmarshal(body, &r) == nil && len(r.Errors) > 0 && r.Errors[0].Message != "" {
			m := r.Errors[0].Message
			if len(m) > 80 {
				m = strings.ToValidUTF8(m[:80], "") + "…"
			}
			return "the first: " + m
		}
		return "errors in the answer"
	}
	b := bytes.TrimSpace(body)
	switch {
	case len(b) == 0:
		return "empty body"
	case !json.Valid(b):
		if len(b) <= 1<<20 {
			var syn *json.SyntaxError
			if err := json.Unmarshal(b, new(struct{})); errors.As(err, &syn) {
				return "the body is not JSON: " + syn.Error()
			}
		}
		return "the body is not JSON"
	case b[0] != '{':
		return "the body is not a JSON object"
	}
	d, _, ok := scanResponse(b)
	if !ok && len(b) <= 1<<20 { // (a larger one is not read twice)
		d, _, ok = slowScan(b)
	}
	switch {
	case !ok:
		return "the body is not a GraphQL answer"
	case d == nil:
		return `no "data" in the answer`
	}
	return "the data cannot be read as JSON"
}
