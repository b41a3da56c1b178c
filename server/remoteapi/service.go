package remoteapi

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options configure a Service.
type Options struct {
	Seed uint64 // the dataset's seed: the answers are Value(Seed, field, nr)
	// Latency is each call's answer time: fixed, or the median of a
	// lognormal distribution when P99 is larger.
	Latency, P99 time.Duration
	// FailureRate is the fraction of calls answered 503 (after the latency).
	FailureRate float64
	// DrawSeed seeds the latency and failure draws.
	DrawSeed uint64
	// MaxKeys bounds the keys of one batch call; 0: 100000.
	MaxKeys int
}

// Check returns an error naming the setting that is out of range.
func (o Options) Check() error {
	switch {
	case o.Latency < 0 || o.P99 < 0:
		return fmt.Errorf("the latency must not be negative")
	case o.P99 > 0 && o.P99 < o.Latency:
		return fmt.Errorf("the latency's p99 (%v) is below its median (%v)", o.P99, o.Latency)
	case o.FailureRate < 0 || o.FailureRate > 1 || math.IsNaN(o.FailureRate):
		return fmt.Errorf("the failure rate must be between 0 and 1, got %v", o.FailureRate)
	}
	return nil
}

// Service is the remote HTTP service. It is safe for concurrent use.
type Service struct {
	o Options

	mu   sync.Mutex // guards rng
	rng  *rand.Rand
	fail atomic.Uint64 // math.Float64bits of the failure rate (SetFailureRate)

	single, batch, keys, failures atomic.Int64
	perField                      [len(fieldInfo)]struct{ single, batch, keys atomic.Int64 }
}

// New returns the service of o, or an error when o is out of range.
func New(o Options) (*Service, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if o.MaxKeys <= 0 {
		o.MaxKeys = 100000
	}
	s := &Service{o: o, rng: rand.New(rand.NewPCG(o.DrawSeed, 0x5eed002))}
	s.fail.Store(math.Float64bits(o.FailureRate))
	return s, nil
}

// SetFailureRate changes the fraction of calls that fail, from now on (a
// service that starts failing in the middle of a run).
func (s *Service) SetFailureRate(r float64) { s.fail.Store(math.Float64bits(r)) }

// Stats are the calls a Service answered since it started.
type Stats struct {
	Single   int64                 `json:"single"`   // one-object calls (GET)
	Batch    int64                 `json:"batch"`    // many-object calls (POST)
	Keys     int64                 `json:"keys"`     // objects asked for, over both
	Failures int64                 `json:"failures"` // calls answered 503 on purpose
	Fields   map[string]FieldStats `json:"fields"`   // by GraphQL field name
}

// FieldStats are the calls of one field.
type FieldStats struct {
	Single int64 `json:"single"`
	Batch  int64 `json:"batch"`
	Keys   int64 `json:"keys"`
}

// Calls is every call, single and batch.
func (s Stats) Calls() int64 { return s.Single + s.Batch }

// Sub is s minus an earlier snapshot: the calls in between.
func (s Stats) Sub(earlier Stats) Stats {
	out := Stats{Single: s.Single - earlier.Single, Batch: s.Batch - earlier.Batch, Keys: s.Keys - earlier.Keys,
		Failures: s.Failures - earlier.Failures, Fields: map[string]FieldStats{}}
	for name, f := range s.Fields {
		e := earlier.Fields[name]
		out.Fields[name] = FieldStats{Single: f.Single - e.Single, Batch: f.Batch - e.Batch, Keys: f.Keys - e.Keys}
	}
	return out
}

// Stats returns the counts so far.
func (s *Service) Stats() Stats {
	st := Stats{Single: s.single.Load(), Batch: s.batch.Load(), Keys: s.keys.Load(), Failures: s.failures.Load(), Fields: map[string]FieldStats{}}
	for _, f := range Fields {
		c := &s.perField[f]
		st.Fields[f.Name()] = FieldStats{Single: c.single.Load(), Batch: c.batch.Load(), Keys: c.keys.Load()}
	}
	return st
}

// One is an object's answer on the wire.
type One struct {
	ID    string `json:"id"`
	Value int64  `json:"value"`
}

// manyRequest and manyAnswer are a batch call's body and answer.
type manyRequest struct {
	IDs []string `json:"ids"`
}

type manyAnswer struct {
	Values []One `json:"values"`
}

// ServeHTTP serves /v1/FIELD/NR (GET), /v1/FIELD (POST) and /stats (GET).
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/stats" {
		if r.Method != http.MethodGet {
			httpError(w, http.StatusMethodNotAllowed, "GET /stats")
			return
		}
		writeJSON(w, s.Stats())
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/v1/")
	if !ok {
		httpError(w, http.StatusNotFound, "not found: the service answers /v1/FIELD/NR, /v1/FIELD (POST) and /stats")
		return
	}
	name, id, hasID := strings.Cut(rest, "/")
	f, err := fieldByPath(name)
	if err != nil {
		httpError(w, http.StatusNotFound, err.Error())
		return
	}
	switch {
	case hasID && r.Method == http.MethodGet:
		s.one(w, r, f, id)
	case !hasID && r.Method == http.MethodPost:
		s.many(w, r, f)
	default:
		httpError(w, http.StatusMethodNotAllowed, "GET /v1/"+name+"/NR for one object, POST /v1/"+name+" for many")
	}
}

func (s *Service) one(w http.ResponseWriter, r *http.Request, f Field, id string) {
	nr, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		httpError(w, http.StatusBadRequest, fmt.Sprintf("id %q is not an integer", id))
		return
	}
	s.single.Add(1)
	s.keys.Add(1)
	s.perField[f].single.Add(1)
	s.perField[f].keys.Add(1)
	if !s.wait(r.Context(), w) {
		return
	}
	writeJSON(w, One{ID: id, Value: Value(s.o.Seed, f, nr)})
}

func (s *Service) many(w http.ResponseWriter, r *http.Request, f Field) {
	var req manyRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 32<<20)).Decode(&req); err != nil {
		httpError(w, http.StatusBadRequest, "want {\"ids\":[\"NR\",...]}: "+err.Error())
		return
	}
	if len(req.IDs) > s.o.MaxKeys {
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%d ids, more than the limit of %d", len(req.IDs), s.o.MaxKeys))
		return
	}
	ans := manyAnswer{Values: make([]One, len(req.IDs))}
	for i, id := range req.IDs {
		nr, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			httpError(w, http.StatusBadRequest, fmt.Sprintf("id %q is not an integer", id))
			return
		}
		ans.Values[i] = One{ID: id, Value: Value(s.o.Seed, f, nr)}
	}
	s.batch.Add(1)
	s.keys.Add(int64(len(req.IDs)))
	s.perField[f].batch.Add(1)
	s.perField[f].keys.Add(int64(len(req.IDs)))
	if !s.wait(r.Context(), w) {
		return
	}
	writeJSON(w, ans)
}

// wait waits the call's latency, then draws whether it fails; it answers
// the failure (503) itself and returns false then, or when the client gave
// up.
func (s *Service) wait(ctx context.Context, w http.ResponseWriter) bool {
	d, failed := s.draw()
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return false
		}
	}
	if failed {
		s.failures.Add(1)
		httpError(w, http.StatusServiceUnavailable, "the remote service failed on purpose (--failure-rate)")
		return false
	}
	return true
}

// draw draws a call's latency and whether it fails.
func (s *Service) draw() (time.Duration, bool) {
	rate := math.Float64frombits(s.fail.Load())
	if s.o.Latency == 0 && s.o.P99 == 0 && rate == 0 {
		return 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.o.Latency
	if s.o.P99 > s.o.Latency && s.o.Latency > 0 {
		// lognormal: ln d ~ N(ln median, σ) with p99 = median·e^(2.326σ)
		sigma := math.Log(float64(s.o.P99)/float64(s.o.Latency)) / 2.3263478740408408
		d = time.Duration(float64(s.o.Latency) * math.Exp(sigma*s.rng.NormFloat64()))
	}
	return d, rate > 0 && s.rng.Float64() < rate
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]string{"error": msg})
	w.Write(b)
}
