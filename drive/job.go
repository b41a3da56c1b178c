package drive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
)

// Exit classes of the errors a Job returns, the process exit codes of the
// gqlbench command: an error with an ExitCode method says its class, any
// other error is a failure.
const (
	ExitFailure = 1 // the run could not be made or completed
	ExitUsage   = 2 // the job is set up wrongly
	ExitCheck   = 3 // the run completed and failed a check
)

// ExitCode is ExitCheck: the run completed and failed a check.
func (e *CheckError) ExitCode() int { return ExitCheck }

// UsageError says that a job is set up wrongly: a target that is no URL,
// parameters its mode rejects.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// ExitCode is ExitUsage.
func (e *UsageError) ExitCode() int { return ExitUsage }

// Job is one verified load run into one run file: what is sent, where, how,
// what is watched, and the header's account of it. The CLI's `load` and the
// experiments make every run through it.
type Job struct {
	Config  Config          // the mode and its parameters; Requests, Transport, Watch and Self are Run's
	Target  string          // the GraphQL endpoint
	Client  string          // "gqlbench" (its own HTTP/1.1, the default) or "net/http"
	HTTP    HTTPOptions     // timeout, headers, response limit
	Queries *queryfile.File // the queries file; Entries are the ones sent
	Watch   []int           // processes sampled each interval with their descendants (the server, the database)
	Check   bool            // check the target with Preflight before the load
	Warn    func(string)    // receives Preflight's warnings; nil: dropped
	Info    HeaderInfo      // the header's account of the run (Watch is filled in)
	// Out opens the run file, after every check has passed, so a job that
	// cannot start leaves no empty file behind.
	Out func() (io.Writer, error)
	// Records, if set, opens the per-request records (CSV) likewise.
	Records func() (io.Writer, error)
}

// Run checks the job, then the target (when Check), writes the header and
// runs the load into Out. Its errors are Run's (see Run), plus a
// *UsageError for a job set up wrongly and the Preflight's error; nothing
// is written before the job and the target have passed their checks.
func (j *Job) Run(ctx context.Context) (*runfile.Summary, error) {
	cfg, err := j.config()
	if err != nil {
		return nil, err
	}
	newTransport := j.transport()
	if cfg.Transport, err = newTransport(cfg.Requests); err != nil {
		return nil, &UsageError{err}
	}
	info := j.Info
	info.Watch = nil
	for _, pid := range j.Watch {
		p, err := measure.NewProcTree(pid)
		if err != nil {
			return nil, err
		}
		cfg.Watch = append(cfg.Watch, p)
		info.Watch = append(info.Watch, runfile.Watched{PID: pid, Name: p.Name})
	}
	if self, err := measure.NewProc(os.Getpid()); err == nil {
		cfg.Self = self
	}
	if j.Check {
		warnings, err := Preflight(ctx, j.Target, newTransport, cfg.Requests)
		if err != nil {
			return nil, err
		}
		for _, w := range warnings {
			if j.Warn != nil {
				j.Warn(w)
			}
		}
	}
	out, err := j.Out()
	if err != nil {
		return nil, fmt.Errorf("cannot write the run file: %w", err)
	}
	if j.Records != nil {
		rec, err := j.Records()
		if err != nil {
			return nil, fmt.Errorf("cannot write the records: %w", err)
		}
		cfg.Records = measure.NewRecordWriter(rec)
	}
	w := runfile.NewWriter(out)
	if err := w.Write(NewHeader(cfg, info, j.Queries)); err != nil {
		return nil, fmt.Errorf("run file: %w", err)
	}
	return Run(ctx, cfg, w)
}

// config returns the job's Config with its requests, defaults and checks.
func (j *Job) config() (Config, error) {
	cfg := j.Config.Defaults()
	if err := cfg.ValidateParams(); err != nil {
		return cfg, &UsageError{err}
	}
	if j.Queries == nil || len(j.Queries.Entries) == 0 {
		return cfg, errors.New("no queries to send")
	}
	reqs, err := Requests(j.Queries.Entries)
	if err != nil {
		return cfg, err
	}
	cfg.Requests = reqs
	return cfg, nil
}

// transport returns the maker of the job's kind of transport.
func (j *Job) transport() func([]Request) (Transport, error) {
	return func(r []Request) (Transport, error) {
		if j.Client == "net/http" {
			return NewStdHTTP(j.Target, r, j.HTTP)
		}
		return NewHTTP(j.Target, r, j.HTTP)
	}
}
