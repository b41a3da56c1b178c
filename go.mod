module github.com/gqlbench/gqlbench

go 1.26.0

// Dependencies, each chosen on purpose (the default answer to a new one is no):
//
//	github.com/jackc/pgx/v5        PostgreSQL driver: the wire protocol, streaming COPY
//	                               (pgconn.CopyFrom) and the servers' connection pool
//	                               (pgxpool, per-connection prepared-statement cache), made
//	                               for the job; its database/sql driver only in tests.
//	github.com/mattn/go-sqlite3    SQLite, the embedded default database: the C library
//	                               itself through cgo, the fastest SQLite for Go (gcc is on
//	                               every supported machine).
//	github.com/vektah/gqlparser/v2 GraphQL parsing, validation and variable coercion: the
//	                               library gqlgen is built on, pinned to gqlgen v0.17.92's.
//	golang.org/x/sync              errgroup: parallel COPY streams and index builds that
//	                               stop at the first error.
//	github.com/99designs/gqlgen    the resolver-based reference servers (naive, memo, batch,
//	                               batch-memo): schema-first code generation and gqlgen's
//	                               executor, the Go counterpart of the paper's graphql-js
//	                               servers; also a tool (go generate ./server/graph).
//	github.com/vikstrous/dataloadgen  the DataLoader of the batch and batch-memo servers with
//	                               --batch-wait (a time window); by default they batch by tick
//	                               (server/sqlsource/tick.go), because a sub-millisecond window
//	                               sleeps ~1 ms in Go. Its OpenTelemetry import is raised from
//	                               v1.11.1 to v1.38.0: the older trace package compiled three
//	                               regexps when the binary started (1.9 ms of every gqlbench
//	                               command, a load generator's start included); the newer parses
//	                               without them (0.03 ms).
//	github.com/HdrHistogram/hdrhistogram-go  the load generator's latency histograms: HDR
//	                               (3 significant digits, exact merges) and its standard
//	                               compressed encoding, so run files hold interval histograms
//	                               that other HdrHistogram tools read; standard library only.
//	gonum.org/v1/plot              the report's charts (bars with error bars, box plots, lines):
//	                               a real plotting library that renders SVG server-side, so the
//	                               HTML report is one self-contained, deterministic file (no
//	                               JavaScript, no network), in pure Go.
//	gonum.org/v1/gonum             statistics for the report: Student's t distribution (CDF and
//	                               quantiles) for t-tests and confidence intervals; plot's own
//	                               dependency, so it costs nothing more.
//	github.com/goccy/go-yaml       YAML, for one job: reading hasura/graphql-bench's query
//	                               configurations (gqlbench queries --import-graphql-bench);
//	                               already in the module graph through gqlgen, so it costs
//	                               nothing more; pure Go.
//	github.com/santhosh-tekuri/jsonschema/v6  tests only (package runfile/schema, which no
//	                               non-test package imports: the binary does not carry it):
//	                               validates every run file the tests write against the
//	                               run file's JSON Schema (draft 2020-12, formats and base64
//	                               asserted), the schema other tools read; a maintained,
//	                               complete implementation rather than a hand-written one.
//	                               Pure Go; needs only golang.org/x/text, already here.
//	github.com/coder/websocket     the subscription load's websocket client (drive/subscribe):
//	                               already in the module graph (gqlgen's websocket transport,
//	                               which serves the subscriptions, is built on it), no
//	                               goroutine per connection, pooled buffers; pure Go.
//	github.com/google/pprof        its package profile only (load --profile, measure/profiles):
//	                               the reader of pprof's gzipped protocol buffers that go tool
//	                               pprof uses, to read the top functions of the server's CPU
//	                               and heap profiles and merge CPU windows; the standard
//	                               library only, and a format better not re-implemented.
require (
	github.com/99designs/gqlgen v0.17.92
	github.com/HdrHistogram/hdrhistogram-go v1.1.2
	github.com/coder/websocket v1.8.15
	github.com/goccy/go-yaml v1.19.2
	github.com/google/pprof v0.0.0-20261105003125-4bf881d7fb0b
	github.com/jackc/pgx/v5 v5.12.0
	github.com/mattn/go-sqlite3 v1.14.53
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	github.com/vektah/gqlparser/v2 v2.5.35
	github.com/vikstrous/dataloadgen v0.0.10
	golang.org/x/sync v0.24.0
	gonum.org/v1/gonum v0.16.0
	gonum.org/v1/plot v0.17.0
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/agnivade/levenshtein v1.2.1 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	github.com/sosodev/duration v1.4.0 // indirect
	github.com/urfave/cli/v3 v3.9.0 // indirect
	go.opentelemetry.io/otel v1.38.0 // indirect
	go.opentelemetry.io/otel/trace v1.38.0 // indirect
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/mod v0.38.0 // indirect
	golang.org/x/text v0.41.0 // indirect
	golang.org/x/tools v0.48.0 // indirect
)

tool github.com/99designs/gqlgen
