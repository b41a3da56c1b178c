package layers

import (
	"bytes"
	"encoding/json"
	"time"
)

// Tracing is Apollo tracing's extensions.tracing (format version 1), the
// resolver-level trace many GraphQL servers emit.
type Tracing struct {
	Version    int              `json:"version"`
	StartTime  string           `json:"startTime"`
	EndTime    string           `json:"endTime"`
	Duration   int64            `json:"duration"` // ns
	Parsing    *Offset          `json:"parsing"`
	Validation *Offset          `json:"validation"`
	Execution  *TracedExecution `json:"execution"`
}

// Offset is a phase: its start from the request's start, and its
// duration, in nanoseconds.
type Offset struct {
	StartOffset int64 `json:"startOffset"`
	Duration    int64 `json:"duration"`
}

// TracedExecution is the execution phase: one entry per resolver called.
type TracedExecution struct {
	Resolvers []Resolver `json:"resolvers"`
}

// Resolver is one resolver call.
type Resolver struct {
	Path        []json.RawMessage `json:"path"`
	ParentType  string            `json:"parentType"`
	FieldName   string            `json:"fieldName"`
	ReturnType  string            `json:"returnType"`
	StartOffset int64             `json:"startOffset"`
	Duration    int64             `json:"duration"`
}

// Split is the tracing's account of the server's time: Total its
// duration, Parse and Validate its phases, Execute the rest of Total (the
// format has no execution duration: the resolvers overlap). It has no
// database time.
func (t *Tracing) Split() Split {
	s := Split{Source: ApolloTracing, Total: time.Duration(max(t.Duration, 0)), Has: HasTotal}
	if t.Parsing != nil {
		s.Parse, s.Has = time.Duration(max(t.Parsing.Duration, 0)), s.Has|HasParse
	}
	if t.Validation != nil {
		s.Validate, s.Has = time.Duration(max(t.Validation.Duration, 0)), s.Has|HasValidate
	}
	s.Execute, s.Has = max(s.Total-s.Parse-s.Validate, 0), s.Has|HasExecute
	return s
}

var extensionsKey = []byte(`"extensions"`)

// ParseApolloTracing finds extensions.tracing in a GraphQL response body.
// Servers write extensions after data, so it is looked for from the end,
// and only the extensions object is decoded: the data, however large, is
// scanned for the key once and never decoded. ok is false when the body
// has no Apollo tracing.
func ParseApolloTracing(body []byte) (*Tracing, bool) {
	end := len(body)
	for tries := 0; tries < 4; tries++ {
		i := bytes.LastIndex(body[:end], extensionsKey)
		if i < 0 {
			return nil, false
		}
		end = i
		rest := bytes.TrimLeft(body[i+len(extensionsKey):], " \t\r\n")
		if len(rest) == 0 || rest[0] != ':' {
			continue // a string value "extensions", not a key
		}
		var ext struct {
			Tracing *Tracing `json:"tracing"`
		}
		dec := json.NewDecoder(bytes.NewReader(rest[1:]))
		if err := dec.Decode(&ext); err != nil || ext.Tracing == nil {
			continue // a field named extensions inside data, or not tracing
		}
		if ext.Tracing.Version == 0 && ext.Tracing.Duration == 0 && ext.Tracing.Execution == nil {
			continue
		}
		return ext.Tracing, true
	}
	return nil, false
}
