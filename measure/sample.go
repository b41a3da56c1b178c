package measure

import (
	"sync/atomic"
	"time"
)

// Outcome is the verdict on one request.
type Outcome uint8

// The outcomes, from best to worst. Every outcome but OK and Wrong is an
// error; Wrong is a response that passed every check but the answer's.
const (
	OK           Outcome = iota // status 200, no GraphQL errors, data as expected (or not checked)
	Wrong                       // data differ from the oracle's answer
	ErrStatus                   // HTTP status other than 200
	ErrGraphQL                  // a non-empty "errors" member
	ErrResponse                 // not a GraphQL JSON response: unparsable, no "data", malformed HTTP
	ErrTimeout                  // no complete response within the request timeout
	ErrTransport                // connection refused, reset or closed before the response
	numOutcomes
)

// ErrorKinds lists the error outcomes in the order of Counts.ErrorKinds.
var ErrorKinds = []Outcome{ErrStatus, ErrGraphQL, ErrResponse, ErrTimeout, ErrTransport}

var outcomeNames = [numOutcomes]string{"", "wrong", "http_status", "graphql_errors", "bad_response", "timeout", "transport"}

// String returns the outcome's snake_case name ("" for OK), as written in
// run files and records.
func (o Outcome) String() string {
	if o < numOutcomes {
		return outcomeNames[o]
	}
	return "unknown"
}

// IsError reports whether o is an error (neither OK nor Wrong).
func (o Outcome) IsError() bool { return o >= ErrStatus }

// HasResponse reports whether a complete HTTP response was received.
func (o Outcome) HasResponse() bool { return o <= ErrResponse }

// Timed reports whether s has latencies: a complete HTTP response was
// received. A response that is not HTTP is an error (ErrResponse), never
// a latency sample.
func (s *Sample) Timed() bool { return s.Outcome.HasResponse() && !s.NoResponse }

// Sample is one measured request. Times are offsets from the start of the
// run (monotonic clock, nanoseconds).
type Sample struct {
	Template   int32         // index of the template in the run's template list
	Query      int32         // index of the request in the workload
	Client     int32         // the worker that sent it
	Outcome    Outcome       // the verdict
	Verified   bool          // the data were compared with the expected answer
	Late       bool          // sent later than the late threshold after the intended time
	DriverLate bool          // late although the worker was idle: the driver's own fault
	Overrun    bool          // completed after the run's window closed
	NoResponse bool          // failed without a complete HTTP response (e.g. one that is not HTTP): not timed
	Status     int16         // HTTP status, 0 without a response
	Intended   time.Duration // when it should have been sent (= Start in closed loop)
	Start      time.Duration // send start
	FirstByte  time.Duration // first response byte (0 without a response)
	End        time.Duration // last response byte, or the failure
	SentBytes  int64         // request bytes written
	RecvBytes  int64         // response bytes read
	Calls      int32         // HTTP calls made (a REST plan's, a persisted query's retry); 0 counts as one
	Pair       int64         // paired mode: the pair's number (from 1), shared with its partner; 0: none
}

// QET is the query execution time: send start → last byte.
func (s *Sample) QET() time.Duration { return s.End - s.Start }

// QRT is the query response time: send start → first byte.
func (s *Sample) QRT() time.Duration { return s.FirstByte - s.Start }

// Latency is the coordinated-omission-corrected latency: intended send time →
// last byte.
func (s *Sample) Latency() time.Duration { return s.End - s.Intended }

// Counts are the counters of one template over some span.
type Counts struct {
	Count      int64 // requests completed (any outcome), including overruns
	OK         int64 // of which correct (or error-free and not checked)
	Errors     int64 // of which errors of any kind
	Wrong      int64 // of which wrong answers
	Verified   int64 // of which had their data compared with the expected answer
	Late       int64 // sends later than the late threshold
	DriverLate int64 // of which the worker was idle: the driver missed its own schedule
	Dropped    int64 // sends not made: no connection free within the maximum lateness
	Overrun    int64 // requests completed after the run's window (not in its throughput)
	OverrunOK  int64 // of which correct
	OverrunErr int64 // of which errors
	Clamped    int64 // latencies outside the histogram range, recorded at the range's edge
	SentBytes  int64
	RecvBytes  int64
	Calls      int64    // HTTP calls made for the requests (one each, more for a REST plan)
	ErrorKinds [5]int64 // per ErrorKinds entry
}

// Add adds o to c.
func (c *Counts) Add(o *Counts) {
	c.Count += o.Count
	c.OK += o.OK
	c.Errors += o.Errors
	c.Wrong += o.Wrong
	c.Verified += o.Verified
	c.Late += o.Late
	c.DriverLate += o.DriverLate
	c.Dropped += o.Dropped
	c.Overrun += o.Overrun
	c.OverrunOK += o.OverrunOK
	c.OverrunErr += o.OverrunErr
	c.Clamped += o.Clamped
	c.SentBytes += o.SentBytes
	c.RecvBytes += o.RecvBytes
	c.Calls += o.Calls
	for i := range c.ErrorKinds {
		c.ErrorKinds[i] += o.ErrorKinds[i]
	}
}

// countAtomic adds one sample to c with atomic adds: recorders sharing a
// shard count into the same Counts. Only non-zero counters are touched.
func (c *Counts) countAtomic(s *Sample) {
	add := func(p *int64, n int64) {
		if n != 0 {
			atomic.AddInt64(p, n)
		}
	}
	add(&c.Count, 1)
	switch {
	case s.Outcome == OK:
		add(&c.OK, 1)
		if s.Overrun {
			add(&c.OverrunOK, 1)
		}
	case s.Outcome == Wrong:
		add(&c.Wrong, 1)
	default:
		add(&c.Errors, 1)
		add(&c.ErrorKinds[s.Outcome-ErrStatus], 1)
		if s.Overrun {
			add(&c.OverrunErr, 1)
		}
	}
	if s.Verified {
		add(&c.Verified, 1)
	}
	if s.Late {
		add(&c.Late, 1)
	}
	if s.DriverLate {
		add(&c.DriverLate, 1)
	}
	if s.Overrun {
		add(&c.Overrun, 1)
	}
	c.countBytes(s)
	add(&c.Calls, int64(max(s.Calls, 1)))
}

// countBytes adds a sample's bytes to c with atomic adds.
func (c *Counts) countBytes(s *Sample) {
	if s.SentBytes != 0 {
		atomic.AddInt64(&c.SentBytes, s.SentBytes)
	}
	if s.RecvBytes != 0 {
		atomic.AddInt64(&c.RecvBytes, s.RecvBytes)
	}
}

// plain says whether s is one of most samples, whose counters are Count,
// OK, Calls (one call) and perhaps Verified, and its bytes: correct (or
// not checked), on time, within the window.
func (s *Sample) plain() bool {
	return s.Outcome == OK && !s.Late && !s.DriverLate && !s.Overrun && s.Calls <= 1
}
