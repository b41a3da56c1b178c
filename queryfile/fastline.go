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
// dialects) are shared through strs; the ones raw holds when it is called
// (the line before's, as the reader keeps one rawLine for all) are taken
// again without a look-up where the line repeats them — a file's lines
// mostly repeat one template's. raw is cleared first: what the line leaves
// out reads as absent. With alias, the other strings and the raw values
// are b's bytes, not copies: b must never change (a file's bytes read
// whole, kept for its hash).
func fastLine(b []byte, raw *rawLine, strs map[string]string, alias bool) (ok bool) {
	prev := [...]string{raw.Label, raw.Query, raw.OperationName, raw.Dialect}
	*raw = rawLine{}
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
		k := memberOf(key)
		var ve int
		var str []byte // a string member's contents, nil for null
		switch {
		case k == mNone: // "dataset", another member, another spelling: encoding/json's
			return false
		case k <= mExpect: // a string: plain, or null
			if str, ve, ok = stringMember(b, vs); !ok {
				return false
			}
		case k >= mVariables: // a raw value: plain (checked as it is scanned), or encoding/json's to check
			var plain bool
			if ve, plain = plainValue(b, vs, 0); !plain {
				if ve, ok = jsonscan.ValueEnd(b, vs); !ok || !json.Valid(b[vs:ve]) {
					return false
				}
			}
		default:
			if ve, ok = jsonscan.ValueEnd(b, vs); !ok {
				return false
			}
		}
		v := b[vs:ve]
		bit := uint16(1) << k
		switch k {
		case mID:
			stringValue(str, &raw.ID, alias)
		case mTemplate:
			internValue(str, &raw.Label, prev[0], strs, alias)
		case mQuery:
			internValue(str, &raw.Query, prev[1], strs, alias)
		case mOperationName:
			internValue(str, &raw.OperationName, prev[2], strs, alias)
		case mDialect:
			internValue(str, &raw.Dialect, prev[3], strs, alias)
		case mExpect:
			if str != nil {
				stringValue(str, &raw.expect, alias)
				raw.Expect = &raw.expect
			}
		case mUnordered:
			switch string(v) {
			case "true":
				raw.Unordered = true
			case "false", "null":
			default:
				ok = false
			}
		case mVariables:
			setRaw(v, &raw.Variables, alias)
		case mAnswer:
			setRaw(v, &raw.Answer, alias)
		case mPlan:
			setRaw(v, &raw.Plan, alias)
		case mSteps:
			setRaw(v, &raw.Steps, alias)
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

// The members fastLine reads: the strings first, the raw values last;
// each one's bit in its set of members seen is 1 << its number.
const (
	mID = iota
	mTemplate
	mQuery
	mOperationName
	mDialect
	mExpect
	mUnordered
	mVariables
	mAnswer
	mPlan
	mSteps
	mNone
)

// memberOf returns the member a key names, spelled exactly; mNone for any
// other.
func memberOf(key []byte) int {
	switch string(key) {
	case "id":
		return mID
	case "template":
		return mTemplate
	case "query":
		return mQuery
	case "operationName":
		return mOperationName
	case "dialect":
		return mDialect
	case "expect":
		return mExpect
	case "unordered":
		return mUnordered
	case "variables":
		return mVariables
	case "answer":
		return mAnswer
	case "plan":
		return mPlan
	case "steps":
		return mSteps
	}
	return mNone
}

// stringMember reads the string member's value at b[i]: a plain string
// (its contents, not nil even when empty) or null (nil), and the index
// after it.
func stringMember(b []byte, i int) (s []byte, end int, ok bool) {
	if i < len(b) && b[i] == 'n' {
		if len(b)-i < 4 || string(b[i:i+4]) != "null" {
			return nil, 0, false
		}
		return nil, i + 4, true
	}
	if s, end, ok = plainString(b, i); s == nil {
		s = b[i:i] // "": not null
	}
	return s, end, ok
}

// stringValue sets *dst to the string s (nil, for null, leaves it, as
// encoding/json does): s's own bytes with alias, a copy without.
func stringValue(s []byte, dst *string, alias bool) {
	if s != nil {
		*dst = own(s, alias)
	}
}

// internValue is stringValue of a string repeated from line to line:
// prev (the line before's) when s is the same, else shared through strs.
func internValue(s []byte, dst *string, prev string, strs map[string]string, alias bool) {
	switch {
	case s == nil:
	case string(s) == prev:
		*dst = prev
	default:
		if shared, found := strs[string(s)]; found {
			*dst = shared
			return
		}
		*dst = own(s, alias)
		if strs != nil {
			strs[*dst] = *dst
		}
	}
}

// own is s as a string: s's bytes with alias, a copy without.
func own(s []byte, alias bool) string {
	if alias && len(s) > 0 {
		return unsafe.String(&s[0], len(s))
	}
	return string(s)
}

// setRaw sets *dst to v, a valid JSON value: a copy, as
// json.RawMessage makes, or v itself (its capacity cut) with alias.
func setRaw(v []byte, dst *json.RawMessage, alias bool) {
	if alias {
		*dst = v[:len(v):len(v)]
		return
	}
	*dst = append((*dst)[:0:0], v...)
}
