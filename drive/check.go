package drive

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash/maphash"
	"sync/atomic"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/internal/jsonscan"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/verify"
)

// Checker verifies responses: HTTP status 200, no GraphQL errors, a "data"
// member, and — when the request carries the oracle's hash — data whose
// canonical JSON hashes to it (verify.Hash).
//
// Canonicalising every response would cost more than receiving it. So the
// Checker remembers the raw bytes of the data it has already judged (up to
// a few variants each, within a memory budget), found by a fast hash and
// confirmed by comparing the bytes: a response whose data are
// byte-for-byte one already judged gets the same verdict, exactly, and only
// new bytes are canonicalised. The verdicts are kept per expectation, not
// per request: requests that expect the same answer under the same options
// (the same hash, the same known answer, no dialect to map from) judge the
// same data alike, so the entries of a file that differ only in their
// variables and share an answer canonicalise it once, not once each.
// Safe for concurrent use.
type Checker struct {
	reqs  []wire.Request
	class []int32 // per request, the index of its expectation's verdicts in cache
	cache []atomic.Pointer[judged]
	// hashed says, per expectation, that it has a hash: its answers are
	// verified. (A cached verdict is found without reading the request,
	// one cache miss less among thousands.)
	hashed []bool
	// reported says a request's wrong answer went to onWrong: a verdict
	// found among those of its expectation, judged for another request,
	// is reported once for this one too.
	reported []atomic.Bool
	// answerLens are the lengths of the right answers' canonical forms,
	// plus one (0: not known yet), for sizes first.
	answerLens []atomic.Int64
	budget     atomic.Int64 // bytes the cache may still take
	seed       maphash.Seed
	ignore     []verify.Path // members left out of every comparison
	// onWrong, if set, is called with each new wrong data value (not one
	// already judged), and once for a request whose wrong data were judged
	// for another of its expectation: the failure log's hook.
	onWrong func(i int, data []byte)
}

// judged is a verdict on one data value, in an immutable list per request.
// A large value is remembered by its SHA-256, not its bytes.
type judged struct {
	hash uint64
	size int
	data []byte   // the value, when at most cacheWhole bytes
	sum  [32]byte // its SHA-256 otherwise
	out  measure.Outcome
	next *judged
	n    int // length of the list from here
	by   int // the request it was judged for
}

// cacheWhole is the largest data value the Checker keeps whole.
const cacheWhole = 64 << 10

// bigData is the size from which a data value is canonicalised one at a
// time in the whole process (bigJudge): one wrong answer of many
// megabytes, sent to every client at once, costs the memory of one.
const bigData = 1 << 20

var bigJudge = make(chan struct{}, 1)

// maxVariants is how many distinct data values are remembered per request.
const maxVariants = 4

// NewChecker returns a Checker for reqs whose cache holds at most
// budgetBytes of data (0: 32 MiB).
func NewChecker(reqs []wire.Request, budgetBytes int64) *Checker {
	if budgetBytes <= 0 {
		budgetBytes = 32 << 20
	}
	c := &Checker{reqs: reqs, answerLens: make([]atomic.Int64, len(reqs)), seed: maphash.MakeSeed(), reported: make([]atomic.Bool, len(reqs))}
	c.class = expectations(reqs, c.seed)
	n := int32(0)
	for _, k := range c.class {
		n = max(n, k+1)
	}
	c.cache = make([]atomic.Pointer[judged], n)
	c.hashed = make([]bool, n)
	for i, k := range c.class {
		c.hashed[k] = reqs[i].Expect != ""
	}
	c.budget.Store(budgetBytes)
	return c
}

// expectations gives each request the index of its expectation: the same
// for requests whose data get the same verdict — the same expected hash
// (or none), the same option (Unordered; the ignored paths are the
// Checker's), the same right answer when it is known (compared by a hash
// and its length), and no dialect mapping (a request with one has its
// own).
func expectations(reqs []wire.Request, seed maphash.Seed) []int32 {
	type key struct {
		expect    string
		unordered bool
		answer    uint64
		answerLen int
	}
	ids := map[key]int32{}
	out := make([]int32, len(reqs))
	n := int32(0)
	var last key // the request before's, whose id is at hand without a look-up
	lastID := int32(-1)
	for i := range reqs {
		r := &reqs[i]
		if r.Map != nil {
			out[i] = n
			n++
			continue
		}
		k := key{expect: r.Expect, unordered: r.Unordered, answerLen: -1}
		if r.Answer != nil {
			k.answer, k.answerLen = maphash.Bytes(seed, r.Answer), len(r.Answer)
		}
		if lastID >= 0 && k == last {
			out[i] = lastID
			continue
		}
		id, ok := ids[k]
		if !ok {
			id = n
			ids[k] = id
			n++
		}
		out[i], last, lastID = id, k, id
	}
	return out
}

// Check returns the outcome of a response to request i and whether its data
// were compared with the expected answer. With data false, the data are not
// compared (a sampled-out response): status, errors and the presence of data
// are still checked.
func (c *Checker) Check(i int, status int, body []byte, data bool) (measure.Outcome, bool) {
	if status != 200 {
		return measure.ErrStatus, false
	}
	k := c.class[i]
	slot := &c.cache[k]
	var head *judged
	if data {
		head = slot.Load()
	}
	d, errs, ok, hit := scanKnown(body, head)
	if !ok {
		hit = nil
		d, errs, ok = slowScan(body)
		if !ok {
			return measure.ErrResponse, false
		}
	}
	if errs {
		return measure.ErrGraphQL, false
	}
	if d == nil {
		return measure.ErrResponse, false
	}
	if !data {
		return measure.OK, false
	}
	if hit != nil {
		return c.again(i, hit, d), c.hashed[k]
	}
	h := maphash.Bytes(c.seed, d)
	var sum *[32]byte
	for j := head; j != nil; j = j.next {
		if j.hash != h || j.size != len(d) {
			continue
		}
		if j.data == nil && sum == nil {
			s := sha256.Sum256(d)
			sum = &s
		}
		if j.data == nil && *sum == j.sum || j.data != nil && bytes.Equal(j.data, d) {
			return c.again(i, j, d), c.hashed[k]
		}
	}
	if len(d) >= bigData {
		bigJudge <- struct{}{}
		defer func() { <-bigJudge }()
	}
	o := verify.Options{Unordered: c.reqs[i].Unordered, Ignore: c.ignore}
	limit := -1
	if len(d) > cacheWhole && c.reqs[i].Answer != nil && c.reqs[i].Map == nil && o.IsZero() {
		limit = c.answerLen(i)
	}
	out := judge(&c.reqs[i], d, o, limit)
	if out == measure.Wrong && c.onWrong != nil {
		c.reported[i].Store(true)
		c.onWrong(i, d)
	}
	v := &judged{hash: h, size: len(d), out: out, next: head, n: 1, by: i}
	cost := int64(len(d))
	if len(d) <= cacheWhole {
		v.data = bytes.Clone(d)
	} else {
		cost = 64
		if sum == nil {
			s := sha256.Sum256(d)
			sum = &s
		}
		v.sum = *sum
	}
	if (head == nil || head.n < maxVariants) && c.budget.Add(-cost) >= 0 {
		if head != nil {
			v.n = head.n + 1
		}
		// Losing a race to another worker only forgets a verdict.
		slot.CompareAndSwap(head, v)
	}
	return out, c.hashed[k]
}

// again returns the verdict j on data d of request i, judged before
// (for i or another request of its expectation), reporting a wrong answer
// judged for another request once for i too.
func (c *Checker) again(i int, j *judged, d []byte) measure.Outcome {
	if j.out == measure.Wrong && j.by != i && c.onWrong != nil && !c.reported[i].Swap(true) {
		c.onWrong(i, d)
	}
	return j.out
}

// answerLen is the length of the canonical form of request i's right
// answer, -1 when it has none; computed once.
func (c *Checker) answerLen(i int) int {
	if n := c.answerLens[i].Load(); n != 0 {
		return int(n) - 1
	}
	n := -1
	if a, err := verify.Canonical(c.reqs[i].Answer); err == nil {
		n = len(a)
	}
	c.answerLens[i].Store(int64(n) + 1)
	return n
}

// judge checks data, a response's to r, against r's expected answer: valid
// JSON at least, and when the answer is known, its canonical hash under o
// — after mapping it to the benchmark's form when r is written in a
// dialect (an answer that does not map is wrong). With limit ≥ 0, the
// length of the right answer's canonical form, sizes come first.
func judge(r *wire.Request, data []byte, o verify.Options, limit int) measure.Outcome {
	expect := r.Expect
	if expect == "" {
		if !json.Valid(data) {
			return measure.ErrResponse
		}
		return measure.OK
	}
	if r.Map != nil {
		if !json.Valid(data) {
			return measure.ErrResponse
		}
		var err error
		if data, err = r.Mapped(data); err != nil {
			return measure.Wrong
		}
	}
	if limit >= 0 {
		return judgeLarge(r, data, limit)
	}
	got, err := verify.HashWith(data, o)
	switch {
	case err != nil:
		return measure.ErrResponse
	case got != expect:
		return measure.Wrong
	}
	return measure.OK
}

// judgeLarge judges large data when the right answer is known: sizes
// first — canonicalising stops as soon as the data's canonical form is
// longer than the answer (a huge wrong answer costs what the right one
// would) — then the hash of the canonical form made once.
func judgeLarge(r *wire.Request, data []byte, limit int) measure.Outcome {
	if !json.Valid(data) {
		return measure.ErrResponse
	}
	c, err := verify.AppendCanonicalWithin(nil, data, limit)
	switch {
	case errors.Is(err, verify.ErrLonger):
		return measure.Wrong
	case err != nil:
		return measure.ErrResponse
	}
	if sum := sha256.Sum256(c); hex.EncodeToString(sum[:]) != r.Expect {
		return measure.Wrong
	}
	return measure.OK
}

// slowScan reads a response through encoding/json: the fallback when the
// fast scan meets something it does not handle (escaped member names).
func slowScan(body []byte) (data []byte, errs, ok bool) {
	var r map[string]json.RawMessage
	if json.Unmarshal(body, &r) != nil {
		return nil, false, false
	}
	if e, has := r["errors"]; has {
		errs = nonEmptyErrors(e)
	}
	if d, has := r["data"]; has && !bytes.Equal(bytes.TrimSpace(d), []byte("null")) {
		data = d
	}
	return data, errs, true
}

// scanResponse finds, without decoding it, the top-level "data" and
// "errors" members of a response body: data is the raw value of "data" (nil
// when absent or null), errs whether "errors" is present and neither null
// nor an empty list. ok is false when the body is not a JSON object this
// fast scan handles; Check then falls back to encoding/json.
func scanResponse(b []byte) (data []byte, errs, ok bool) {
	data, errs, ok, _ = scanKnown(b, nil)
	return data, errs, ok
}

// scanKnown is scanResponse, finding the data among those already judged,
// known (a request's verdicts), when it can: data that begin with the bytes
// of an object or array judged are those bytes (the object or array ends
// where it ended), so their extent is not scanned, nor hashed to be found
// — the verdict hit is found by comparing bytes, the scan goes on after
// them.
func scanKnown(b []byte, known *judged) (data []byte, errs, ok bool, hit *judged) {
	i := jsonscan.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false, false, nil
	}
	i = jsonscan.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return nil, false, jsonscan.SkipSpace(b, i+1) == len(b), nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, false, false, nil
		}
		ks := i + 1
		ke := ks
		for ke < len(b) && b[ke] != '"' {
			if b[ke] == '\\' || b[ke] < 0x20 {
				return nil, false, false, nil
			}
			ke++
		}
		if ke >= len(b) {
			return nil, false, false, nil
		}
		key := b[ks:ke]
		i = jsonscan.SkipSpace(b, ke+1)
		if i >= len(b) || b[i] != ':' {
			return nil, false, false, nil
		}
		vs := jsonscan.SkipSpace(b, i+1)
		ve, vok := 0, false
		if known != nil && hit == nil && string(key) == "data" {
			for j := known; j != nil; j = j.next {
				if len(j.data) > 0 && (j.data[0] == '{' || j.data[0] == '[') && bytes.HasPrefix(b[vs:], j.data) {
					ve, vok, hit = vs+len(j.data), true, j
					break
				}
			}
		}
		if !vok {
			ve, vok = jsonscan.ValueEnd(b, vs)
		}
		if !vok {
			return nil, false, false, nil
		}
		switch string(key) { // no allocation: the compiler compares in place
		case "data":
			if data != nil {
				return nil, false, false, nil // duplicate: let encoding/json decide
			}
			if !isNull(b[vs:ve]) {
				data = b[vs:ve]
			}
		case "errors":
			errs = nonEmptyErrors(b[vs:ve])
		}
		i = jsonscan.SkipSpace(b, ve)
		if i >= len(b) {
			return nil, false, false, nil
		}
		if b[i] == '}' {
			return data, errs, jsonscan.SkipSpace(b, i+1) == len(b), hit
		}
		if b[i] != ',' {
			return nil, false, false, nil
		}
		i = jsonscan.SkipSpace(b, i+1)
	}
}

func isNull(v []byte) bool { return len(v) == 4 && string(v) == "null" }

// nonEmptyErrors reports whether an "errors" value holds errors: anything
// but null and [].
func nonEmptyErrors(v []byte) bool {
	v = bytes.TrimSpace(v)
	if isNull(v) {
		return false
	}
	if len(v) >= 2 && v[0] == '[' && v[len(v)-1] == ']' && len(bytes.TrimSpace(v[1:len(v)-1])) == 0 {
		return false
	}
	return true
}
