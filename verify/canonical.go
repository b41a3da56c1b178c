package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Decimals is the number of decimal places numbers are rounded to.
const Decimals = 6

// maxDigits bounds the integer digits of a number (float64 needs 309), so
// that a hostile exponent like 1e999999999 costs nothing.
const maxDigits = 1000

// Canonical returns the canonical form of the JSON value data, so that two
// answers are equal exactly when their canonical forms are equal bytes:
//
//   - no insignificant whitespace;
//   - object members sorted by key, compared as bytes of UTF-8; a key that
//     occurs twice in one object is an error (no GraphQL response has one);
//   - every number rounded to 6 decimal places, exactly, from its decimal
//     text (half away from zero), then written without exponent, without
//     trailing fractional zeros and without a decimal point when integral:
//     1.0, 1e0 and 1.0000001 are all 1; 2.50 is 2.5; 1e-7 and -0 are 0;
//   - strings written as UTF-8 with only ", \ and the control characters
//     escaped (\b \f \n \r \t, else \u00XX); escapes in the input, such as
//     \u00e9 or \/, are decoded first, and invalid UTF-8 becomes U+FFFD.
//
// Anything but exactly one JSON value (with surrounding whitespace) is an
// error.
func Canonical(data []byte) ([]byte, error) {
	c, err := AppendCanonical(make([]byte, 0, len(data)), data)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// member is one member of an object.
type member struct {
	key string
	val any
}

// object is a JSON object, its members in input order.
type object []member

// parse reads one value from dec: object, []any, string, json.Number, bool
// or nil.
func parse(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			var obj object
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("verify: %w", err)
				}
				key := kt.(string)
				if seen[key] {
					return nil, fmt.Errorf("verify: key %q occurs twice in an object", key)
				}
				seen[key] = true
				v, err := parse(dec)
				if err != nil {
					return nil, err
				}
				obj = append(obj, member{key, v})
			}
			_, err := dec.Token() // '}'
			return obj, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := parse(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token() // ']'
			return list, err
		}
		return nil, fmt.Errorf("verify: unexpected %v", t)
	default:
		return tok, nil
	}
}

// write writes v in canonical form.
func write(out *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case object:
		sorted := slices.Clone(x)
		slices.SortFunc(sorted, func(a, b member) int { return strings.Compare(a.key, b.key) })
		out.WriteByte('{')
		for i, m := range sorted {
			if i > 0 {
				out.WriteByte(',')
			}
			writeString(out, m.key)
			out.WriteByte(':')
			if err := write(out, m.val); err != nil {
				return err
			}
		}
		out.WriteByte('}')
	case []any:
		out.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				out.WriteByte(',')
			}
			if err := write(out, e); err != nil {
				return err
			}
		}
		out.WriteByte(']')
	case string:
		writeString(out, x)
	case json.Number:
		n, err := canonicalNumber(string(x))
		if err != nil {
			return err
		}
		out.WriteString(n)
	case bool:
		out.WriteString(strconv.FormatBool(x))
	case nil:
		out.WriteString("null")
	default:
		return fmt.Errorf("verify: unexpected %T", v)
	}
	return nil
}

// writeString writes s as a JSON string, escaping only what JSON requires.
func writeString(out *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	out.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			out.WriteByte('\\')
			out.WriteByte(byte(r))
		case r == '\b':
			out.WriteString(`\b`)
		case r == '\f':
			out.WriteString(`\f`)
		case r == '\n':
			out.WriteString(`\n`)
		case r == '\r':
			out.WriteString(`\r`)
		case r == '\t':
			out.WriteString(`\t`)
		case r < 0x20:
			out.WriteString(`\u00`)
			out.WriteByte(hex[r>>4])
			out.WriteByte(hex[r&0xf])
		default: // the decoder has already replaced invalid UTF-8 by U+FFFD
			out.WriteRune(r)
		}
		i += size
	}
	out.WriteByte('"')
}

// canonicalNumber rounds the JSON number lit to Decimals places, exactly,
// and writes it as described at Canonical. It works on the decimal digits,
// never through float64, so 0.1 is 0.1 and an integer of any length is
// kept exactly.
func canonicalNumber(lit string) (string, error) {
	neg := strings.HasPrefix(lit, "-")
	mant, expText, hasExp := strings.Cut(strings.TrimPrefix(lit, "-"), "e")
	if !hasExp {
		mant, expText, hasExp = strings.Cut(mant, "E")
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return "0", nil
	}
	// Exponents beyond ±10^15 need no arithmetic: no input has that many
	// digits, so the value is 0 after rounding, or too large.
	const hugeExp = 1_000_000_000_000_000
	exp := int64(0)
	if hasExp {
		e, err := strconv.ParseInt(expText, 10, 64)
		switch {
		case err == nil && -hugeExp < e && e < hugeExp:
			exp = e
		case strings.HasPrefix(expText, "-"):
			return "0", nil
		default:
			return "", fmt.Errorf("verify: number %.20s... is too large", lit)
		}
	}
	// The value is digits·10^scale; n = round(value·10^Decimals) = round(digits·10^shift).
	shift := exp - int64(len(frac)) + Decimals
	var n []byte
	if shift >= 0 {
		if int64(len(digits))+shift > maxDigits {
			return "", fmt.Errorf("verify: number %.20s... is too large", lit)
		}
		n = append([]byte(digits), bytes.Repeat([]byte{'0'}, int(shift))...)
	} else {
		if -shift > int64(len(digits)) {
			return "0", nil // below 0.5·10^-Decimals
		}
		keep := len(digits) + int(shift)
		n = []byte("0" + digits[:keep]) // a leading 0 takes a carry
		if digits[keep] >= '5' {        // half away from zero
			increment(n)
		}
	}
	s := strings.TrimLeft(string(n), "0")
	if s == "" {
		return "0", nil
	}
	if len(s) <= Decimals {
		s = strings.Repeat("0", Decimals+1-len(s)) + s
	}
	whole, fraction := s[:len(s)-Decimals], strings.TrimRight(s[len(s)-Decimals:], "0")
	if fraction != "" {
		whole += "." + fraction
	}
	if neg {
		whole = "-" + whole
	}
	return whole, nil
}

// increment adds 1 to the decimal digits n, which start with a 0 that
// absorbs the last carry.
func increment(n []byte) {
	for i := len(n) - 1; i >= 0; i-- {
		if n[i] < '9' {
			n[i]++
			return
		}
		n[i] = '0'
	}
}
