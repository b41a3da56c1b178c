package dbloc

import (
	"fmt"
	"strings"
)

// spaces are what separates keyword/value pairs.
const spaces = " \t\n\r\v\f"

// isKeyValue says whether s reads as a keyword/value DSN: it starts with a
// keyword and '='.
func isKeyValue(s string) bool {
	s = strings.TrimLeft(s, spaces)
	eq := strings.IndexByte(s, '=')
	return eq > 0 && isKeyword(strings.TrimRight(s[:eq], spaces))
}

// isKeyword says whether k can be a keyword: libpq's (host, dbname,
// sslmode ...) and the run-time parameters pgx passes on (search_path,
// pool_max_conns, a.custom_setting). Not a flag such as --db=...
func isKeyword(k string) bool {
	for i := 0; i < len(k); i++ {
		c := k[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '.')) {
			return false
		}
	}
	return k != ""
}

// parseKeyValue reads a keyword/value DSN as pgx (and libpq) do:
// KEY=VALUE pairs separated by spaces, a value in single quotes when it
// holds a space, a backslash escaping the next byte.
func parseKeyValue(s string) (parsed, error) {
	p := parsed{s: s}
	fail := func(reason string) (parsed, error) {
		return parsed{}, fmt.Errorf("malformed PostgreSQL keyword/value DSN %q: %s (want host=HOST port=PORT user=USER password='PASS' dbname=DB)", redactLoose(s), reason)
	}
	if strings.IndexByte(s, 0) >= 0 {
		return fail("it holds a NUL byte")
	}
	for i := skipSpaces(s, 0); i < len(s); i = skipSpaces(s, i) {
		start := i
		eq := strings.IndexByte(s[i:], '=')
		if eq < 0 {
			return fail("a word without '=': quote a value that holds a space (password='p w')")
		}
		key := strings.TrimRight(s[i:i+eq], spaces)
		if !isKeyword(key) {
			return fail("a keyword is letters, digits and '_' before an '=': quote a value that holds a space (password='p w')")
		}
		i = skipSpaces(s, i+eq+1)
		val := [2]int{i, i}
		var v strings.Builder
		if i < len(s) && s[i] == '\'' {
			for i++; i < len(s) && s[i] != '\''; i++ {
				if s[i] == '\\' {
					if i++; i == len(s) {
						break
					}
				}
				v.WriteByte(s[i])
			}
			if i >= len(s) {
				return fail("a quoted value without its closing quote")
			}
			i++
		} else {
			for ; i < len(s) && strings.IndexByte(spaces, s[i]) < 0; i++ {
				if s[i] == '\\' {
					if i++; i == len(s) {
						break
					}
				}
				v.WriteByte(s[i])
			}
		}
		val[1] = i
		if isSecretKey(key) {
			p.secret(val, v.String())
		} else {
			p.part(val)
		}
		if key == "dbname" || key == "database" {
			p.db = append(p.db, [2]int{start, skipSpaces(s, i)})
		}
	}
	return p, nil
}

// skipSpaces is the index of the first byte of s[i:] that is no space.
func skipSpaces(s string, i int) int {
	for i < len(s) && strings.IndexByte(spaces, s[i]) >= 0 {
		i++
	}
	return i
}

// quoteValue quotes v as a keyword/value DSN's value.
func quoteValue(v string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}
