package dbloc

import (
	"bytes"
	"slices"
	"strings"
)

// Redact returns s with its secret hidden, whatever s holds: the redacted
// form of a location Parse reads, a cautious guess for anything else (see
// redactLoose), never s itself with a secret in it. Text where no secret
// can be — a word, a path without ':' or '@' — comes back unchanged.
//
// Redact is also the one redaction of the URLs of HTTP endpoints (load's
// --target and --reference, queries --schema URL): the password of the
// user part (a user part without one, as a token may be written, whole) and
// the value of every query or fragment parameter named as a secret
// (password, token, access_token, api_key, secret, key, sig, ...).
func Redact(s string) string {
	if l, err := Parse(s); err == nil {
		return l.redacted
	}
	return redactLoose(s)
}

// Secrets returns the secrets Redact hides in s, each as written and, where
// it differs, percent-decoded, longest first: for scrubbing a message that
// quotes one of them in another form than s (a driver's, an HTTP client's).
// Its result is nil for text where Redact hides nothing.
func Secrets(s string) []string {
	var out []string
	hidden := looseHidden(s)
	if _, err := Parse(s); err == nil {
		var p parsed
		if isURL(s) {
			p, _ = parseURL(s)
		} else if isKeyValue(s) {
			p, _ = parseKeyValue(s)
		}
		out = append(out, p.secrets...)
		hidden = spansHidden(s, p.hide)
	}
	for _, run := range hiddenRuns(s, hidden) {
		out = append(out, run)
		if v, ok := decode(run); ok && v != run && v != "" {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b string) int { // longest first: a secret may hold another
		if d := len(b) - len(a); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return slices.Compact(out)
}

// hiddenRuns are the maximal runs of s that hidden marks.
func hiddenRuns(s string, hidden []bool) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if !hidden[i] {
			continue
		}
		j := i
		for j < len(s) && hidden[j] {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// redactLoose hides where a secret may be in s, which Parse refused, so that
// its parts cannot be told apart for certain. It hides
//
//   - everything after a "password" (any case, percent-encoded or not) and
//     its '=': a URL's query parameter or a DSN's keyword, whatever follows;
//   - in TEXT@..., everything from the first ':' to the last '@': the user
//     part's password, whichever '@' was meant to end it;
//   - in SCHEME://HOST:PORT... without '@', every port that is not a number:
//     it may be the password of a URL whose @HOST is missing;
//   - in other text without '@' or "://", everything after the first ':',
//     for the same reason.
//
// A hidden run becomes xxxxx; the rest is s as written, never decoded.
func redactLoose(s string) string {
	return render(s, looseHidden(s))
}

// looseHidden marks the bytes of s redactLoose hides.
func looseHidden(s string) []bool {
	hidden := make([]bool, len(s))
	hide := func(from, to int) {
		for k := from; k < to; k++ {
			hidden[k] = true
		}
	}
	if _, b := findPassword(s); b >= 0 {
		if b = skipSpaces(s, b); b < len(s) && s[b] == '=' {
			b++
		}
		hide(b, len(s))
	}
	base := 0
	if k := strings.Index(s, "://"); k >= 0 {
		base = k + 3
	}
	rest := s[base:]
	switch at := strings.LastIndexByte(rest, '@'); {
	case at >= 0:
		if c := strings.IndexByte(rest[:at], ':'); c >= 0 {
			hide(base+c+1, base+at)
		} else if base > 0 && !isURL(s) && !strings.ContainsAny(rest[:at], "/?#") {
			hide(base, base+at) // SCHEME://TOKEN@HOST: a user part alone may be a token
		}
	case base > 0:
		for _, port := range ports(s, base, upTo(s, base, "/?")) {
			hide(port[0], port[1])
		}
	default:
		if c := strings.IndexByte(s, ':'); c >= 0 {
			hide(c+1, len(s))
		}
	}
	for _, v := range secretParams(s) {
		hide(v[0], v[1])
	}
	return hidden
}

// secretParams are the spans of the values of the query and fragment
// parameters of s (after its first '?' or '#', separated by '&' or ';')
// whose names say they are secrets (isSecretKey).
func secretParams(s string) [][2]int {
	q := strings.IndexAny(s, "?#")
	if q < 0 {
		return nil
	}
	var out [][2]int
	for i := q + 1; i < len(s); {
		end := upTo(s, i, "&;#")
		if eq := strings.IndexByte(s[i:end], '='); eq >= 0 {
			key, ok := decode(s[i : i+eq])
			if !ok {
				key = s[i : i+eq]
			}
			if isSecretKey(key) && i+eq+1 < end {
				out = append(out, [2]int{i + eq + 1, end})
			}
		}
		i = end + 1
	}
	return out
}

// ports are the spans of the ports in s[from:to], a HOST:PORT,... list,
// that are not numbers.
func ports(s string, from, to int) [][2]int {
	var out [][2]int
	for i := from; i < to; i++ {
		switch s[i] {
		case '[': // an IPv6 address: its colons are no port's
			if j := strings.IndexByte(s[i:to], ']'); j >= 0 {
				i += j
			}
		case ':':
			end := upTo(s[:to], i+1, ":,")
			if port, ok := decode(s[i+1 : end]); !ok || !validPort(port) {
				out = append(out, [2]int{i + 1, end})
			}
			i = end - 1
		}
	}
	return out
}

// findPassword returns the span of the first "password" in s, in any case
// and percent-encoded or not (pass%77ord), or -1, -1.
func findPassword(s string) (int, int) {
	const word = "password"
	dec := make([]byte, 0, len(s)) // s leniently decoded, in lower case
	at := make([]int, 0, len(s)+1) // where each byte of dec starts in s
	for i := 0; i < len(s); i++ {
		at = append(at, i)
		c := s[i]
		if c == '%' && i+2 < len(s) {
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				c = hi<<4 | lo
				i += 2
			}
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dec = append(dec, c)
	}
	at = append(at, len(s))
	k := bytes.Index(dec, []byte(word))
	if k < 0 {
		return -1, -1
	}
	return at[k], at[k+len(word)]
}

// maskSpans returns s with every span hidden.
func maskSpans(s string, spans [][2]int) string {
	return render(s, spansHidden(s, spans))
}

// spansHidden marks the bytes of s in spans.
func spansHidden(s string, spans [][2]int) []bool {
	hidden := make([]bool, len(s))
	for _, sp := range spans {
		for k := sp[0]; k < sp[1]; k++ {
			hidden[k] = true
		}
	}
	return hidden
}

// render writes s with each run of hidden bytes replaced by one mask.
func render(s string, hidden []bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if !hidden[i] {
			b.WriteByte(s[i])
			continue
		}
		b.WriteString(mask)
		for i+1 < len(s) && hidden[i+1] {
			i++
		}
	}
	return b.String()
}
