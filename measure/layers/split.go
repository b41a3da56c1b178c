package layers

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// Source says what a response's figures were read from.
type Source uint8

const (
	None          Source = iota
	ServerTiming         // the Server-Timing header
	ApolloTracing        // extensions.tracing in the body
)

// String is the source's name in the run file.
func (s Source) String() string {
	switch s {
	case ServerTiming:
		return "server-timing"
	case ApolloTracing:
		return "apollo-tracing"
	}
	return "none"
}

// Split is one response's account of the server's time. A phase the
// server did not report is 0 and its Has bit is clear.
type Split struct {
	Source Source
	// Total is the server's time for the request: Server-Timing's total,
	// Apollo tracing's duration.
	Total                                     time.Duration
	Read, Parse, Validate, Execute, DB, Write time.Duration
	// Remote is the time of calls to a remote service (remote;dur=: the
	// remote custom fields), part of execution; RemoteCalls their number
	// (remote-calls;count=).
	Remote      time.Duration
	RemoteCalls int64
	// Dispatch is a gqlbench server's hand-off of the request to its
	// executor and back (the timeout's set-up, a goroutine each way).
	Dispatch time.Duration
	// DBSum is the statements' times added up (db-sum), above DB when
	// statements overlapped.
	DBSum      time.Duration
	Has        Phases // which of the above the server reported
	Statements int64  // SQL statements (sql;count=), when Has&HasStatements
}

// Phases is a set of the phases a server reported.
type Phases uint16

const (
	HasTotal Phases = 1 << iota
	HasRead
	HasParse
	HasValidate
	HasExecute
	HasDB
	HasWrite
	HasStatements
	HasDBSum
	HasDispatch
	HasRemote
)

// ParseServerTiming reads a Server-Timing header's value (several header
// lines joined with ", "): the metrics total, read, parse, validate
// (validation), execute (execution), db, db-sum, dispatch, write, with their dur parameter
// in milliseconds, and sql with count= or desc=N; names are compared
// without case, other metrics are ignored. A metric given more than once
// is added up: a value joining several responses' headers (the calls of
// a REST plan's task, drive/wire.Plans) is the task's phases summed over
// its calls — more than its round trip when calls ran at once. Without
// total, the total is the sum of the phases given (none overlaps another
// but db, which is inside execute). ok is false when the value holds none
// of these.
func ParseServerTiming(v []byte) (s Split, ok bool) {
	s.Source = ServerTiming
	for len(v) > 0 {
		var entry []byte
		entry, v = cutEntry(v)
		name, params := cutToken(entry)
		if len(name) == 0 {
			continue
		}
		var dur time.Duration
		var hasDur bool
		var count int64 = -1
		for len(params) > 0 {
			var k, val []byte
			k, val, params = nextParam(params)
			switch {
			case bytes.EqualFold(k, []byte("dur")):
				if f, err := strconv.ParseFloat(string(val), 64); err == nil && f >= 0 {
					dur, hasDur = time.Duration(f*1e6+0.5), true
				}
			case bytes.EqualFold(k, []byte("count")), bytes.EqualFold(k, []byte("desc")):
				if n, err := strconv.ParseInt(strings.TrimSpace(firstWord(string(val))), 10, 64); err == nil && n >= 0 {
					count = n
				}
			}
		}
		if bytes.EqualFold(name, []byte("sql")) && count >= 0 {
			s.Statements, s.Has = s.Statements+count, s.Has|HasStatements
			continue
		}
		if bytes.EqualFold(name, []byte("remote-calls")) && count >= 0 {
			s.RemoteCalls += count
			continue
		}
		if !hasDur {
			continue
		}
		switch {
		case bytes.EqualFold(name, []byte("total")):
			s.Total, s.Has = s.Total+dur, s.Has|HasTotal
		case bytes.EqualFold(name, []byte("read")):
			s.Read, s.Has = s.Read+dur, s.Has|HasRead
		case bytes.EqualFold(name, []byte("parse")), bytes.EqualFold(name, []byte("parsing")):
			s.Parse, s.Has = s.Parse+dur, s.Has|HasParse
		case bytes.EqualFold(name, []byte("validate")), bytes.EqualFold(name, []byte("validation")):
			s.Validate, s.Has = s.Validate+dur, s.Has|HasValidate
		case bytes.EqualFold(name, []byte("execute")), bytes.EqualFold(name, []byte("execution")):
			s.Execute, s.Has = s.Execute+dur, s.Has|HasExecute
		case bytes.EqualFold(name, []byte("db")):
			s.DB, s.Has = s.DB+dur, s.Has|HasDB
		case bytes.EqualFold(name, []byte("db-sum")):
			s.DBSum, s.Has = s.DBSum+dur, s.Has|HasDBSum
		case bytes.EqualFold(name, []byte("write")):
			s.Write, s.Has = s.Write+dur, s.Has|HasWrite
		case bytes.EqualFold(name, []byte("dispatch")):
			s.Dispatch, s.Has = s.Dispatch+dur, s.Has|HasDispatch
		case bytes.EqualFold(name, []byte("remote")):
			s.Remote, s.Has = s.Remote+dur, s.Has|HasRemote
		}
	}
	if s.Has&^(HasStatements|HasDBSum|HasRemote) == 0 {
		return Split{}, false
	}
	if s.Has&HasTotal == 0 {
		s.Total, s.Has = s.Read+s.Parse+s.Validate+s.Execute+s.Dispatch+s.Write, s.Has|HasTotal
	}
	return s, true
}

// cutEntry splits v at the first comma outside a quoted string.
func cutEntry(v []byte) (entry, rest []byte) {
	quoted := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == ',' && !quoted:
			return v[:i], v[i+1:]
		}
	}
	return v, nil
}

// cutToken splits an entry into its metric name and what follows it.
func cutToken(e []byte) (name, params []byte) {
	e = bytes.TrimSpace(e)
	i := bytes.IndexByte(e, ';')
	if i < 0 {
		return e, nil
	}
	return bytes.TrimSpace(e[:i]), e[i+1:]
}

// nextParam reads one "k=v" (v a token or a quoted string) of params.
func nextParam(p []byte) (k, v, rest []byte) {
	p = bytes.TrimLeft(p, " \t")
	i := bytes.IndexAny(p, "=;")
	if i < 0 {
		return bytes.TrimSpace(p), nil, nil
	}
	k = bytes.TrimSpace(p[:i])
	if p[i] == ';' {
		return k, nil, p[i+1:]
	}
	p = bytes.TrimLeft(p[i+1:], " \t")
	if len(p) > 0 && p[0] == '"' {
		var b []byte
		for j := 1; j < len(p); j++ {
			switch p[j] {
			case '\\':
				if j+1 < len(p) {
					j++
					b = append(b, p[j])
				}
			case '"':
				rest = p[j+1:]
				if n := bytes.IndexByte(rest, ';'); n >= 0 {
					rest = rest[n+1:]
				} else {
					rest = nil
				}
				return k, b, rest
			default:
				b = append(b, p[j])
			}
		}
		return k, b, nil
	}
	if j := bytes.IndexByte(p, ';'); j >= 0 {
		return k, bytes.TrimSpace(p[:j]), p[j+1:]
	}
	return k, bytes.TrimSpace(p), nil
}

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}
