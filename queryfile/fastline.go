package queryfile

import (
	"encoding/json"
	"unicode/utf8"
	"unsafe"

	"github.com/gqlbench/gqlbench/internal/jsonscan"
)

// fastLine reads a line the way json.Unmarshal into rawLine would, without
// reflection, when the line is of the plain shape generated files have: a
// JSON object whose members are the known ones, each once, spelled
// exactly; whose strings have no escapes, control characters or invalid
// UTF-8; "unordered" a literal; "variables", "answer", "plan" and "steps"
// any valid JSON value. ok is false for anything else — another member,
// "dataset", an escape, a duplicate, invalid JSON — and the caller then
// asks encoding/json, which decides (and explains a bad line). A load
// generator's start reads every entry of its queries file: this is most
// of it.
//
// Strings repeated from line to line (labels, queries, operation names,
// dialects) are shared through strs. With alias, the other strings and
// the raw values are b's bytes, not copies: b must never change (a
// file's bytes read whole, kept for its hash).
func fastLine(b []byte, raw *rawLine, strs map[string]string, alias bool) (ok bool) {
	i := jsonscan.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = jsonscan.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return jsonscan.SkipSpace(b, i+1) == len(b)
	}
	var seen uint16
	for {
		key, end, ok := plainString(b, i)
		if !ok {
			return false
		}
		i = jsonscan.SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		vs := jsonscan.SkipSpace(b, i+1)
		ve, ok := jsonscan.ValueEnd(b, vs)
		if !ok {
			return false
		}
		v := b[vs:ve]
		var bit uint16
		switch string(key) {
		case "id":
			bit, ok = 1<<0, stringValue(v, &raw.ID, nil, alias)
		case "template":
			bit, ok = 1<<1, stringValue(v, &raw.Label, strs, alias)
		case "query":
			bit, ok = 1<<2, stringValue(v, &raw.Query, strs, alias)
		case "operationName":
			bit, ok = 1<<3, stringValue(v, &raw.OperationName, strs, alias)
		case "dialect":
			bit, ok = 1<<4, stringValue(v, &raw.Dialect, strs, alias)
		case "expect":
			bit = 1 << 5
			if string(v) != "null" {
				ok = stringValue(v, &raw.expect, nil, alias)
				raw.Expect = &raw.expect
			}
		case "unordered":
			bit = 1 << 6
			switch string(v) {
			case "true":
				raw.Unordered = true
			case "false", "null":
			default:
				ok = false
			}
		case "variables":
			bit, ok = 1<<7, copyValue(v, &raw.Variables, alias)
		case "answer":
			bit, ok = 1<<8, copyValue(v, &raw.Answer, alias)
		case "plan":
			bit, ok = 1<<9, copyValue(v, &raw.Plan, alias)
		case "steps":
			bit, ok = 1<<10, copyValue(v, &raw.Steps, alias)
		default: // "dataset", another member, another spelling: encoding/json's
			return false
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		i = jsonscan.SkipSpace(b, ve)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			return jsonscan.SkipSpace(b, i+1) == len(b)
		}
		if b[i] != ',' {
			return false
		}
		i = jsonscan.SkipSpace(b, i+1)
	}
}

// plainString returns the contents of the string at b[i] when it has no
// escape, control character or invalid UTF-8, and the index after it.
func plainString(b []byte, i int) (s []byte, end int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	ascii := true
	for j := i + 1; ; j++ {
		j = jsonscan.PlainEnd(b, j) // eight bytes at a time to the next byte that is not plain ASCII
		switch {
		case j >= len(b):
			return nil, 0, false
		case b[j] == '"':
			s = b[i+1 : j]
			return s, j + 1, ascii || utf8.Valid(s)
		case b[j] == '\\' || b[j] < 0x20:
			return nil, 0, false
		}
		ascii = false // ≥ 0x80: checked as UTF-8 at the end
	}
}

// stringValue sets *dst to the string value v (null leaves it, as
// encoding/json does), shared through strs when strs is not nil, v's own
// bytes with alias.
func stringValue(v []byte, dst *string, strs map[string]string, alias bool) bool {
	if string(v) == "null" {
		return true
	}
	s, end, ok := plainString(v, 0)
	if !ok || end != len(v) {
		return false
	}
	own := func() string {
		if alias && len(s) > 0 {
			return unsafe.String(&s[0], len(s))
		}
		return string(s)
	}
	if strs == nil {
		*dst = own()
		return true
	}
	if shared, ok := strs[string(s)]; ok {
		*dst = shared
		return true
	}
	*dst = own()
	strs[*dst] = *dst
	return true
}

// copyValue sets *dst to v when it is valid JSON: a copy, as
// json.RawMessage makes, or v itself (its capacity cut) with alias.
func copyValue(v []byte, dst *json.RawMessage, alias bool) bool {
	if !json.Valid(v) {
		return false
	}
	if alias {
		*dst = v[:len(v):len(v)]
		return true
	}
	*dst = append((*dst)[:0:0], v...)
	return true
}
