package layers

// Report is the split of the server's time over a run, per template, as
// the responses reported it: the run file's summary "layers" (load
// --layers).
type Report struct {
	// Source is what the figures were read from: "server-timing",
	// "apollo-tracing", both joined by "+", or "none" when no response
	// carried either.
	Source string `json:"source"`
	// Without counts the responses that carried neither.
	Without   int64      `json:"without,omitempty"`
	Templates []Template `json:"templates"`
	// Database, when not "", says where a database share not reported by
	// the server came from (e.g. "pg_stat_statements"), and DatabaseNS is
	// then that total over the run, for all templates.
	Database   string `json:"database,omitempty"`
	DatabaseNS int64  `json:"database_total_ns,omitempty"`
}

// Template is one template's sums over its N responses with figures; the
// means are the sums ÷ N (DatabaseNS ÷ DatabaseN).
type Template struct {
	Template     string `json:"template"`
	N            int64  `json:"n"`                       // responses with figures
	Without      int64  `json:"without,omitempty"`       // responses without
	ServerTiming int64  `json:"server_timing,omitempty"` // of N, read from Server-Timing
	Apollo       int64  `json:"apollo_tracing,omitempty"`
	// RoundTripNS is the client's time, send start to last byte; TotalNS
	// the server's own total; the phases are the server's.
	RoundTripNS int64 `json:"round_trip_ns"`
	TotalNS     int64 `json:"total_ns"`
	ReadNS      int64 `json:"read_ns"`
	ParseNS     int64 `json:"parse_ns"`
	ValidateNS  int64 `json:"validate_ns"`
	ExecuteNS   int64 `json:"execute_ns"`
	WriteNS     int64 `json:"write_ns"`
	// DispatchNS is the hand-off to the executor and back (gqlbench's
	// servers: between reading the request and writing the answer, what
	// Execute did not take).
	DispatchNS int64 `json:"dispatch_ns,omitempty"`
	DatabaseNS int64 `json:"database_ns"`
	DatabaseN  int64 `json:"database_n"` // responses that reported a database time
	// DatabaseSumNS is the statements' own times added up (db-sum), above
	// DatabaseNS by the time statements ran at once.
	DatabaseSumNS int64 `json:"database_sum_ns,omitempty"`
	Statements    int64 `json:"sql_statements,omitempty"`
	// RemoteNS and RemoteCalls are the calls to a remote service (the
	// remote custom fields), within the GraphQL layer's time.
	RemoteNS    int64 `json:"remote_ns,omitempty"`
	RemoteCalls int64 `json:"remote_calls,omitempty"`
	// Fields are the resolvers of the most time in all (Apollo tracing),
	// the slowest first.
	Fields []Field `json:"slowest_fields,omitempty"`
	// Requests are the first requests' own figures, in completion order.
	Requests []Request `json:"requests,omitempty"`
	// WithoutRoundTrips are the round trips of the first responses that
	// carried no figures, in completion order: all there is of a server
	// that reports nothing (PostGraphile), to set beside a database share
	// measured elsewhere (pg_stat_statements).
	WithoutRoundTrips []int64 `json:"without_round_trips_ns,omitempty"`
}

// Field is one field's resolver calls.
type Field struct {
	Field      string `json:"field"` // ParentType.fieldName
	ReturnType string `json:"return_type,omitempty"`
	Path       string `json:"path,omitempty"` // one path it was resolved at, lists as []
	Count      int64  `json:"count"`
	TotalNS    int64  `json:"total_ns"`
	MaxNS      int64  `json:"max_ns"`
}

// Request is one request's figures; DatabaseNS is −1 when the server
// reported none.
type Request struct {
	RoundTripNS int64 `json:"round_trip_ns"`
	TotalNS     int64 `json:"total_ns"`
	DatabaseNS  int64 `json:"database_ns"`
	ParseNS     int64 `json:"parse_ns"`
	ValidateNS  int64 `json:"validate_ns"`
	ExecuteNS   int64 `json:"execute_ns"`
}

// Mean is the mean of sum over t's N responses (0 without any).
func (t *Template) Mean(sum int64) float64 {
	if t.N == 0 {
		return 0
	}
	return float64(sum) / float64(t.N)
}

// Database is the mean database time, and whether any response reported
// one.
func (t *Template) Database() (float64, bool) {
	if t.DatabaseN == 0 {
		return 0, false
	}
	return float64(t.DatabaseNS) / float64(t.DatabaseN), true
}

// GraphQL is the mean time of the GraphQL layer, seed 002's "GraphQL
// time": the server's total less the database's (the whole total when
// the server reported no database time).
func (t *Template) GraphQL() float64 {
	db, _ := t.Database()
	return max(t.Mean(t.TotalNS)-db, 0)
}

// Overhead is the mean of round trip − server total: the network, HTTP
// and serialisation outside the server's own account.
func (t *Template) Overhead() float64 {
	return max(t.Mean(t.RoundTripNS)-t.Mean(t.TotalNS), 0)
}

// Covered is the share of the server's total that its named phases
// (read, parse, validate, execute, dispatch, write) account for.
func (t *Template) Covered() float64 {
	if t.TotalNS == 0 {
		return 0
	}
	return float64(t.ReadNS+t.ParseNS+t.ValidateNS+t.ExecuteNS+t.DispatchNS+t.WriteNS) / float64(t.TotalNS)
}

// Total is every template's figures added up (fields and requests left
// out).
func (r *Report) Total() Template {
	t := Template{Template: "all"}
	for _, x := range r.Templates {
		t.N += x.N
		t.Without += x.Without
		t.ServerTiming += x.ServerTiming
		t.Apollo += x.Apollo
		t.RoundTripNS += x.RoundTripNS
		t.TotalNS += x.TotalNS
		t.ReadNS += x.ReadNS
		t.ParseNS += x.ParseNS
		t.ValidateNS += x.ValidateNS
		t.ExecuteNS += x.ExecuteNS
		t.WriteNS += x.WriteNS
		t.DispatchNS += x.DispatchNS
		t.DatabaseNS += x.DatabaseNS
		t.DatabaseN += x.DatabaseN
		t.Statements += x.Statements
		t.DatabaseSumNS += x.DatabaseSumNS
		t.RemoteNS += x.RemoteNS
		t.RemoteCalls += x.RemoteCalls
	}
	return t
}

// NoneLine is what a run whose server emitted neither Server-Timing nor
// Apollo tracing says, in one line.
const NoneLine = "layers: the server sent neither a Server-Timing header nor Apollo tracing (extensions.tracing): no split of its time (gqlbench servers send one with serve --trace)"

// Merge adds up reports of the same templates (the files of parallel
// load generators, load merge): per template by name, in the order first
// seen, the sums added, the slowest fields merged by field, the kept
// requests one report's after the other's up to DefaultKeep. Nil reports
// are skipped; nil when all are.
func Merge(reports ...*Report) *Report {
	var out *Report
	at := map[string]int{}
	var st, ap int64
	for _, r := range reports {
		if r == nil {
			continue
		}
		if out == nil {
			out = &Report{Database: r.Database}
		}
		out.Without += r.Without
		out.DatabaseNS += r.DatabaseNS
		for _, t := range r.Templates {
			i, ok := at[t.Template]
			if !ok {
				at[t.Template] = len(out.Templates)
				out.Templates = append(out.Templates, Template{Template: t.Template})
				i = len(out.Templates) - 1
			}
			m := &out.Templates[i]
			m.N += t.N
			m.Without += t.Without
			m.ServerTiming += t.ServerTiming
			m.Apollo += t.Apollo
			m.RoundTripNS += t.RoundTripNS
			m.TotalNS += t.TotalNS
			m.ReadNS += t.ReadNS
			m.ParseNS += t.ParseNS
			m.ValidateNS += t.ValidateNS
			m.ExecuteNS += t.ExecuteNS
			m.WriteNS += t.WriteNS
			m.DispatchNS += t.DispatchNS
			m.DatabaseNS += t.DatabaseNS
			m.DatabaseN += t.DatabaseN
			m.DatabaseSumNS += t.DatabaseSumNS
			m.Statements += t.Statements
			m.RemoteNS += t.RemoteNS
			m.RemoteCalls += t.RemoteCalls
			m.Requests = append(m.Requests, t.Requests[:min(len(t.Requests), max(DefaultKeep-len(m.Requests), 0))]...)
			m.WithoutRoundTrips = append(m.WithoutRoundTrips, t.WithoutRoundTrips[:min(len(t.WithoutRoundTrips), max(DefaultKeep-len(m.WithoutRoundTrips), 0))]...)
			fields := map[fieldKey]*Field{}
			for _, f := range append(m.Fields, t.Fields...) {
				k := fieldKey{f.Field, ""}
				if e := fields[k]; e != nil {
					e.Count += f.Count
					e.TotalNS += f.TotalNS
					e.MaxNS = max(e.MaxNS, f.MaxNS)
				} else {
					c := f
					fields[k] = &c
				}
			}
			m.Fields = slowest(fields, SlowestFields)
			st, ap = st+t.ServerTiming, ap+t.Apollo
		}
	}
	if out != nil {
		out.Source = sourceName(st, ap)
	}
	return out
}
