package dbloc

import (
	"fmt"
	"strconv"
	"strings"
)

// isURL says whether s is a PostgreSQL URL, as pgx decides it.
func isURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// notEncoded says that what is not percent-encoded, and how to write it.
func notEncoded(what string) string {
	return what + " is not percent-encoded: write %25 for '%', %20 for a space, %40 for '@', %2F for '/'"
}

// parseURL reads a postgres:// or postgresql:// URL as pgx (and libpq) do:
// the user part ends at the first '@' before any '/', then come HOST[:PORT]
// pairs separated by commas, /DB and ?KEY=VALUE&..., each percent-encoded.
// It refuses an '@' after the user part, which pgx would take as part of a
// host or a database name: a password holding an unencoded '@' or '/'
// leaves one there, and its rest would be printed as a host.
func parseURL(s string) (parsed, error) {
	p := parsed{s: s}
	fail := func(reason string) (parsed, error) {
		return parsed{}, fmt.Errorf("malformed PostgreSQL URL %s: %s (want postgres://USER:PASS@HOST:PORT/DB)", redactLoose(s), reason)
	}
	if strings.IndexByte(s, 0) >= 0 {
		return fail("it holds a NUL byte")
	}
	i := strings.Index(s, "://") + 3
	if j := strings.IndexAny(s[i:], "@/"); j >= 0 && s[i+j] == '@' {
		user := [2]int{i, i + j}
		if k := strings.IndexByte(s[i:i+j], ':'); k >= 0 {
			user[1] = i + k
			pw := [2]int{i + k + 1, i + j}
			v, ok := decode(s[pw[0]:pw[1]])
			if !ok {
				return fail(notEncoded("the password"))
			}
			p.secret(pw, v)
		}
		if _, ok := decode(s[user[0]:user[1]]); !ok {
			return fail(notEncoded("the user name"))
		}
		p.part(user)
		i += j + 1
	}
	if strings.IndexByte(s[i:], '@') >= 0 {
		return fail("an '@' after the user part: a password holding '@' or '/' must be percent-encoded (%40, %2F)")
	}
	var reason string
	if i, reason = p.hosts(i); reason != "" {
		return fail(reason)
	}
	if i, reason = p.database(i); reason != "" {
		return fail(reason)
	}
	if reason = p.query(i); reason != "" {
		return fail(reason)
	}
	return p, nil
}

// hosts reads the HOST[:PORT],... list at p.s[i:] and returns where it ends,
// or why it is malformed.
func (p *parsed) hosts(i int) (int, string) {
	s := p.s
	for {
		start := i
		if i < len(s) && s[i] == '[' {
			end := strings.IndexByte(s[i:], ']')
			switch {
			case end < 0:
				return i, "an IPv6 address without its closing ']'"
			case end == 1:
				return i, "an empty IPv6 address []"
			}
			i += end + 1
			if i < len(s) && !strings.ContainsRune(":/?,", rune(s[i])) {
				return i, "an IPv6 address followed by something other than :PORT, /DB or ?"
			}
		} else {
			i = upTo(s, i, ":/?,")
		}
		if _, ok := decode(s[start:i]); !ok {
			return i, notEncoded("a host name")
		}
		p.part([2]int{start, i})
		if i < len(s) && s[i] == ':' {
			start := i + 1
			i = upTo(s, start, "/?,")
			if port, ok := decode(s[start:i]); !ok || !validPort(port) {
				return i, "a port is not a number from 1 to 65535"
			}
		}
		if i >= len(s) || s[i] != ',' {
			return i, ""
		}
		i++
	}
}

// database reads the /DB at p.s[i:], if any, and returns where it ends, or
// why it is malformed.
func (p *parsed) database(i int) (int, string) {
	s := p.s
	p.db = [][2]int{{i, i}}
	if i >= len(s) || s[i] != '/' {
		return i, ""
	}
	end := upTo(s, i, "?")
	p.db[0][1] = end
	if _, ok := decode(s[i+1 : end]); !ok {
		return end, notEncoded("the database name")
	}
	p.part([2]int{i + 1, end})
	return end, ""
}

// query reads the ?KEY=VALUE&... at p.s[i:], if any, or says why it is
// malformed. It quotes no name: a password holding an unencoded '&' or '='
// spills into the next parameter.
func (p *parsed) query(i int) string {
	s := p.s
	if i >= len(s) {
		return ""
	}
	for i++; i < len(s); {
		end := upTo(s, i, "&")
		eq := strings.IndexByte(s[i:end], '=')
		switch {
		case eq < 0:
			return "a query parameter without '=' (want ?KEY=VALUE&KEY=VALUE)"
		case strings.IndexByte(s[i+eq+1:end], '=') >= 0:
			return "a query parameter with a second '=': percent-encode it (%3D)"
		}
		key, ok := decode(s[i : i+eq])
		if !ok {
			return notEncoded("a query parameter's name")
		}
		val := [2]int{i + eq + 1, end}
		v, ok := decode(s[val[0]:val[1]])
		if !ok {
			return notEncoded("a query parameter's value")
		}
		if isSecretKey(key) {
			p.secret(val, v)
		} else {
			p.part(val)
		}
		i = end + 1
	}
	return ""
}

// upTo is the index of the first byte of s[i:] in set, or len(s).
func upTo(s string, i int, set string) int {
	if j := strings.IndexAny(s[i:], set); j >= 0 {
		return i + j
	}
	return len(s)
}

// validPort says whether a URL's port is empty (the default) or a TCP port.
func validPort(port string) bool {
	if port == "" {
		return true
	}
	n, err := strconv.ParseUint(port, 10, 16)
	return err == nil && n >= 1
}

// isSecretKey says whether a parameter's value is a secret, by its name,
// in any case and with '_', '-' and '.' ignored: one that holds password,
// passwd, secret, token, apikey, accesskey, credential, signature or
// authorization (sslpassword, access_token, api_key, client_secret,
// X-Amz-Signature), or is key, sig, pwd, pass, auth, session, sessionid or
// jwt. A database's keywords hold none but the password ones.
func isSecretKey(key string) bool {
	k := strings.Map(func(r rune) rune {
		switch {
		case r == '_' || r == '-' || r == '.':
			return -1
		case 'A' <= r && r <= 'Z':
			return r + 'a' - 'A'
		}
		return r
	}, key)
	for _, w := range []string{"password", "passwd", "secret", "token", "apikey", "accesskey", "credential", "signature", "authorization"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	switch k {
	case "key", "sig", "pwd", "pass", "auth", "session", "sessionid", "jwt":
		return true
	}
	return false
}

// decode percent-decodes a URL part as pgx and libpq do: %XX with two hex
// digits, never %00, leading and trailing spaces dropped, none inside.
func decode(raw string) (string, bool) {
	raw = strings.Trim(raw, " ")
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case ' ':
			return "", false
		case '%':
			if i+2 >= len(raw) {
				return "", false
			}
			hi, ok1 := unhex(raw[i+1])
			lo, ok2 := unhex(raw[i+2])
			if !ok1 || !ok2 || hi<<4|lo == 0 {
				return "", false
			}
			b.WriteByte(hi<<4 | lo)
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// unhex is the value of a hex digit.
func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// escapeURL percent-encodes every byte of s but the unreserved ones, so
// that it is one part of a URL whatever it holds.
func escapeURL(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
