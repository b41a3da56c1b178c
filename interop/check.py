# gqlbench's answer check, as `gqlbench load` makes it (package verify):
# status 200, no GraphQL "errors", and the hex SHA-256 of the canonical JSON
# of "data" equal to the entry's expected hash. Canonical JSON: no
# whitespace; object members sorted by key (as UTF-8 bytes); numbers rounded
# to 6 decimal places from their decimal text, half away from zero, written
# without exponent, trailing zeros or a point when integral; strings with
# only ", \ and control characters escaped. Unordered entries sort every
# list by its elements' canonical text first. Numbers keep their text.
import hashlib as _hashlib
import json as _json
import re as _re


class _Num(str):
    """A JSON number's text."""


class _Obj(list):
    """A JSON object's members, in order."""


def _no_constant(name):
    raise ValueError("not one valid JSON value: " + name)


def gqlb_parse(text):
    return _json.loads(text, parse_float=_Num, parse_int=_Num, parse_constant=_no_constant,
                       object_pairs_hook=_Obj)


_PLAIN = _re.compile(r"-?(0|[1-9][0-9]*)\Z")


def gqlb_number(lit):
    if _PLAIN.match(lit):
        return "0" if lit == "-0" else lit
    neg = lit.startswith("-")
    body = lit[1:] if neg else lit
    exp_text = None
    m = _re.search(r"[eE]", body)
    if m:
        exp_text, body = body[m.start() + 1:], body[:m.start()]
    int_part, _, frac = body.partition(".")
    digits = (int_part + frac).lstrip("0")
    if digits == "":
        return "0"
    exp = 0
    if exp_text is not None:
        mag = exp_text.lstrip("+-").lstrip("0") or "0"
        if len(mag) > 16 or int(mag) >= 10**15:
            if exp_text.startswith("-"):
                return "0"
            raise ValueError("number too large")
        exp = -int(mag) if exp_text.startswith("-") else int(mag)
    shift = exp - len(frac) + 6
    if shift >= 0:
        if len(digits) + shift > 1000:
            raise ValueError("number too large")
        n = digits + "0" * shift
    else:
        if -shift > len(digits):
            return "0"
        keep = len(digits) + shift
        n = str(int("0" + digits[:keep]) + (1 if digits[keep] >= "5" else 0))
    t = n.lstrip("0")
    if t == "":
        return "0"
    if len(t) <= 6:
        t = "0" * (7 - len(t)) + t
    whole, fraction = t[:-6], t[-6:].rstrip("0")
    if fraction:
        whole += "." + fraction
    return "-" + whole if neg else whole


_ESC = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def gqlb_string(s):
    out = ['"']
    for ch in s:
        c = ord(ch)
        if ch in _ESC:
            out.append(_ESC[ch])
        elif c < 0x20:
            out.append("\\u%04x" % c)
        elif 0xD800 <= c <= 0xDFFF:
            out.append("\ufffd")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def gqlb_canonical(v, unordered=False):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, _Num):
        return gqlb_number(v)
    if isinstance(v, str):
        return gqlb_string(v)
    if isinstance(v, _Obj):
        members = sorted(v, key=lambda m: _fix(m[0]))
        for a, b in zip(members, members[1:]):
            if _fix(a[0]) == _fix(b[0]):
                raise ValueError("key %r occurs twice in an object" % b[0])
        return "{" + ",".join(gqlb_string(k) + ":" + gqlb_canonical(x, unordered) for k, x in members) + "}"
    parts = [gqlb_canonical(x, unordered) for x in v]
    if unordered:
        parts.sort()  # stable, by code point: the order of the UTF-8 bytes
    return "[" + ",".join(parts) + "]"


def _fix(s):
    """s with lone surrogates replaced, as the canonical form writes them."""
    return _re.sub("[\ud800-\udfff]", "\ufffd", s)


def gqlb_drop(v, p):
    """v without the member at path p (member names), through every list on
    the way (gqlbench load --ignore-path)."""
    if isinstance(v, _Obj):
        for i, (k, x) in enumerate(v):
            if k != p[0]:
                continue
            if len(p) == 1:
                del v[i]
            else:
                v[i] = (k, gqlb_drop(x, p[1:]))
            break
        return v
    if isinstance(v, list):
        return [gqlb_drop(x, p) for x in v]
    return v


def gqlb_check(status, body, expect, unordered, ignore=()):
    """'' for a right answer, else why not, starting with the kind of failure
    gqlbench counts: http_status, bad_response, graphql_errors or wrong answer.
    body is the response's bytes; ignore lists the paths left out of the
    answer (lists of member names)."""
    if status != 200:
        return "http_status: HTTP %d" % status
    try:
        top = gqlb_parse(body.decode("utf-8", "replace"))
    except ValueError as e:
        return "bad_response: %s" % e
    if not isinstance(top, _Obj):
        return "bad_response: not a JSON object"
    has_data, data = False, None
    for k, v in top:
        if k == "errors" and v is not None:
            if isinstance(v, (str, _Obj)) or not isinstance(v, list):
                return 'bad_response: "errors" is not a list'
            if len(v) > 0:
                msg = ""
                if isinstance(v[0], _Obj):
                    msg = next((x for kk, x in v[0] if kk == "message" and isinstance(x, str)), "")
                return "graphql_errors: %d, the first: %s" % (len(v), msg[:200])
        if k == "data":
            has_data, data = True, v
    if not has_data:
        return 'bad_response: no "data"'
    if not expect:
        return ""
    try:
        for p in ignore:
            data = gqlb_drop(data, p)
        got = _hashlib.sha256(gqlb_canonical(data, unordered).encode("utf-8")).hexdigest()
    except ValueError as e:
        return "bad_response: %s" % e
    if got != expect:
        return "wrong answer: data hashes to %s…, want %s…" % (got[:12], expect[:12])
    return ""
