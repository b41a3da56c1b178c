// gqlbench's answer check, as `gqlbench load` makes it (package verify):
// status 200, no GraphQL "errors", and the hex SHA-256 of the canonical JSON
// of "data" equal to the entry's expected hash. Canonical JSON: no
// whitespace; object members sorted by key (as UTF-8 bytes); numbers rounded
// to 6 decimal places from their decimal text, half away from zero, written
// without exponent, trailing zeros or a point when integral; strings with
// only ", \ and control characters escaped. Unordered entries sort every
// list by its elements' canonical text first. Numbers keep their text.
class GqlbJson {
    static class Num { String lit; Num(String l) { lit = l } }
    static class Obj { List<List<Object>> members = [] }
    String s; int i = 0; int depth = 0
    GqlbJson(String text) { s = text }
    static Object parse(String text) {
        GqlbJson p = new GqlbJson(text)
        p.ws(); Object v = p.value(); p.ws()
        if (p.i != p.s.length()) p.fail()
        return v
    }
    void fail() { throw new IllegalArgumentException('not one valid JSON value') }
    void ws() {
        while (i < s.length()) { char c = s.charAt(i); if (c == (char) 32 || c == (char) 9 || c == (char) 10 || c == (char) 13) i++; else break }
    }
    int hex4(int p) {
        if (p + 4 > s.length()) return -1
        int r = 0
        for (int k = p; k < p + 4; k++) { int d = Character.digit(s.charAt(k), 16); if (d < 0 || s.charAt(k) > (char) 'f') return -1; r = r * 16 + d }
        return r
    }
    char at(int k) { return k < s.length() ? s.charAt(k) : (char) 0 }
    String str() {
        i++
        StringBuilder out = new StringBuilder()
        while (true) {
            if (i >= s.length()) fail()
            char c = s.charAt(i)
            if (c == (char) '"') { i++; return out.toString() }
            if (c < (char) 32) fail()
            if (c != (char) '\\') {
                if (Character.isHighSurrogate(c) && Character.isLowSurrogate(at(i + 1))) { out.append(c).append(s.charAt(i + 1)); i += 2; continue }
                out.append(Character.isSurrogate(c) ? (char) 0xfffd : c); i++; continue
            }
            if (i + 1 >= s.length()) fail()
            char e = s.charAt(i + 1)
            i += 2
            switch (e) {
                case '"': case '\\': case '/': out.append(e); break
                case 'b': out.append('\b'); break
                case 'f': out.append('\f'); break
                case 'n': out.append('\n'); break
                case 'r': out.append('\r'); break
                case 't': out.append('\t'); break
                case 'u':
                    int r = hex4(i)
                    if (r < 0) fail()
                    i += 4
                    if (r >= 0xd800 && r <= 0xdfff) {
                        if (r <= 0xdbff && at(i) == (char) '\\' && at(i + 1) == (char) 'u') {
                            int r2 = hex4(i + 2)
                            if (r2 >= 0xdc00 && r2 <= 0xdfff) { out.append((char) r).append((char) r2); i += 6; break }
                        }
                        out.append((char) 0xfffd); break
                    }
                    out.append((char) r); break
                default: fail()
            }
        }
    }
    static final java.util.regex.Pattern NUM = ~/-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/
    Object value() {
        if (i >= s.length()) fail()
        char c = s.charAt(i)
        if (c == (char) '{' || c == (char) '[') {
            if (++depth > 10000) fail()
            i++; ws()
            char close = c == (char) '{' ? (char) '}' : (char) ']'
            Obj obj = c == (char) '{' ? new Obj() : null
            List<Object> list = obj == null ? [] : null
            if (at(i) == close) { i++; depth--; return obj != null ? obj : list }
            while (true) {
                if (obj != null) {
                    if (at(i) != (char) '"') fail()
                    String k = str(); ws()
                    if (at(i) != (char) ':') fail()
                    i++; ws()
                    obj.members.add([k, value()])
                } else {
                    list.add(value())
                }
                ws()
                if (at(i) == (char) ',') { i++; ws(); continue }
                if (at(i) != close) fail()
                i++; depth--
                return obj != null ? obj : list
            }
        }
        if (c == (char) '"') return str()
        java.util.regex.Matcher m = NUM.matcher(s).region(i, s.length())
        if (m.lookingAt() && m.end() > i && !(m.end() == i + 1 && c == (char) '-')) { String lit = m.group(); i = m.end(); return new Num(lit) }
        for (String lit : ['true', 'false', 'null']) {
            if (s.startsWith(lit, i)) { i += lit.length(); return lit == 'true' ? Boolean.TRUE : lit == 'false' ? Boolean.FALSE : null }
        }
        fail()
        return null
    }

    // cmp compares by code point: the order of the strings' UTF-8 bytes.
    static int cmp(String a, String b) {
        int n = Math.min(a.length(), b.length())
        for (int k = 0; k < n; k++) {
            int x = a.charAt(k), y = b.charAt(k)
            if (x == y) continue
            if (x >= 0xd800 && x <= 0xdfff) x += 0x2000; else if (x >= 0xe000) x -= 0x800
            if (y >= 0xd800 && y <= 0xdfff) y += 0x2000; else if (y >= 0xe000) y -= 0x800
            return x < y ? -1 : 1
        }
        return a.length() - b.length()
    }

    static String number(String lit) {
        if (lit ==~ /-?(0|[1-9][0-9]*)/) return lit == '-0' ? '0' : lit
        boolean neg = lit.startsWith('-')
        String body = neg ? lit.substring(1) : lit
        String expText = null
        int e = body.indexOf('e'); if (e < 0) e = body.indexOf('E')
        if (e >= 0) { expText = body.substring(e + 1); body = body.substring(0, e) }
        int dot = body.indexOf('.')
        String intPart = dot >= 0 ? body.substring(0, dot) : body
        String frac = dot >= 0 ? body.substring(dot + 1) : ''
        String digits = (intPart + frac).replaceFirst(/^0+/, '')
        if (digits.isEmpty()) return '0'
        long exp = 0
        if (expText != null) {
            String mag = expText.replaceFirst(/^[+-]/, '').replaceFirst(/^0+/, '')
            if (mag.isEmpty()) mag = '0'
            if (mag.length() > 16 || Long.parseLong(mag) >= 1000000000000000L) {
                if (expText.startsWith('-')) return '0'
                throw new IllegalArgumentException('number too large')
            }
            exp = expText.startsWith('-') ? -Long.parseLong(mag) : Long.parseLong(mag)
        }
        long shift = exp - frac.length() + 6
        String n
        if (shift >= 0) {
            if (digits.length() + shift > 1000) throw new IllegalArgumentException('number too large')
            n = digits + ('0' * (int) shift)
        } else {
            if (-shift > digits.length()) return '0'
            int keep = (int) (digits.length() + shift)
            BigInteger v = new BigInteger('0' + digits.substring(0, keep))
            if (digits.charAt(keep) >= (char) '5') v = v.add(BigInteger.ONE)
            n = v.toString()
        }
        String t = n.replaceFirst(/^0+/, '')
        if (t.isEmpty()) return '0'
        if (t.length() <= 6) t = ('0' * (7 - t.length())) + t
        String whole = t.substring(0, t.length() - 6)
        String fraction = t.substring(t.length() - 6).replaceFirst(/0+$/, '')
        if (!fraction.isEmpty()) whole += '.' + fraction
        return neg ? '-' + whole : whole
    }

    static String string(String s) {
        StringBuilder out = new StringBuilder('"')
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k)
            if (c == (char) '"') out.append('\\"')
            else if (c == (char) '\\') out.append('\\\\')
            else if (c == (char) 8) out.append('\\b')
            else if (c == (char) 12) out.append('\\f')
            else if (c == (char) 10) out.append('\\n')
            else if (c == (char) 13) out.append('\\r')
            else if (c == (char) 9) out.append('\\t')
            else if (c < (char) 32) out.append(String.format('\\u%04x', (int) c))
            else if (Character.isHighSurrogate(c) && k + 1 < s.length() && Character.isLowSurrogate(s.charAt(k + 1))) { out.append(c).append(s.charAt(k + 1)); k++ }
            else if (Character.isSurrogate(c)) out.append((char) 0xfffd)
            else out.append(c)
        }
        return out.append('"').toString()
    }

    static String canonical(Object v, boolean unordered) {
        if (v == null) return 'null'
        if (v instanceof Boolean) return v ? 'true' : 'false'
        if (v instanceof String) return string((String) v)
        if (v instanceof Num) return number(((Num) v).lit)
        if (v instanceof List) {
            List<String> parts = ((List) v).collect { canonical(it, unordered) }
            if (unordered) parts = parts.toSorted { a, b -> cmp(a, b) } // stable
            return '[' + parts.join(',') + ']'
        }
        List<List<Object>> ms = ((Obj) v).members.toSorted { a, b -> cmp((String) a[0], (String) b[0]) }
        for (int k = 1; k < ms.size(); k++) {
            if (ms[k - 1][0] == ms[k][0]) throw new IllegalArgumentException('key "' + ms[k][0] + '" occurs twice in an object')
        }
        return '{' + ms.collect { string((String) it[0]) + ':' + canonical(it[1], unordered) }.join(',') + '}'
    }

    static String sha256(String s) {
        byte[] d = java.security.MessageDigest.getInstance('SHA-256').digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8))
        StringBuilder out = new StringBuilder()
        for (byte b : d) out.append(String.format('%02x', b & 0xff))
        return out.toString()
    }

    // check returns '' for a right answer, else why not, starting with the
    // kind of failure gqlbench counts: http_status, bad_response,
    // graphql_errors or wrong answer.
    // drop removes the member at path p (member names) from v, through
    // every list on the way (gqlbench load --ignore-path).
    static Object drop(Object v, List<String> p) {
        if (v instanceof Obj) {
            List<List<Object>> ms = ((Obj) v).members
            for (int k = 0; k < ms.size(); k++) {
                if (ms[k][0] != p[0]) continue
                if (p.size() == 1) { ms.remove(k); return v }
                ms[k][1] = drop(ms[k][1], p.subList(1, p.size()))
                break
            }
            return v
        }
        if (v instanceof List) {
            List l = (List) v
            for (int k = 0; k < l.size(); k++) l[k] = drop(l[k], p)
        }
        return v
    }

    static String check(String status, byte[] body, String expect, boolean unordered) { return check(status, body, expect, unordered, []) }

    static String check(String status, byte[] body, String expect, boolean unordered, List<List<String>> ignore) {
        if (status != '200') return 'http_status: HTTP ' + status
        Object top
        try {
            String text = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPLACE)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPLACE)
                .decode(java.nio.ByteBuffer.wrap(body)).toString()
            top = parse(text)
        } catch (IllegalArgumentException | StackOverflowError e) { return 'bad_response: ' + e.getMessage() }
        if (!(top instanceof Obj)) return 'bad_response: not a JSON object'
        Object data = null; boolean hasData = false
        for (List<Object> m : ((Obj) top).members) {
            if (m[0] == 'errors' && m[1] != null) {
                if (!(m[1] instanceof List)) return 'bad_response: "errors" is not a list'
                List errs = (List) m[1]
                if (!errs.isEmpty()) {
                    String msg = ''
                    if (errs[0] instanceof Obj) { def f = ((Obj) errs[0]).members.find { it[0] == 'message' && it[1] instanceof String }; if (f) msg = (String) f[1] }
                    return 'graphql_errors: ' + errs.size() + ', the first: ' + msg.take(200)
                }
            }
            if (m[0] == 'data') { data = m[1]; hasData = true }
        }
        if (!hasData) return 'bad_response: no "data"'
        if (!expect) return ''
        String got
        try {
            for (List<String> p : ignore) data = drop(data, p)
            got = sha256(canonical(data, unordered))
        } catch (IllegalArgumentException e) { return 'bad_response: ' + e.getMessage() }
        if (got != expect) return 'wrong answer: data hashes to ' + got.take(12) + '…, want ' + expect.take(12) + '…'
        return ''
    }
}
