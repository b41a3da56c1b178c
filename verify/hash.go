package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// Hash returns the hex SHA-256 of the canonical form of data, which is the
// "data" member of a GraphQL response — not the whole response, whose
// "extensions" (timings) differ from one response to the next. It is the
// "expect" value of a queries file.
func Hash(data []byte) (string, error) {
	c, err := Canonical(data)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:]), nil
}

// The ways a response can fail Check; the error Check returns wraps one.
var (
	// ErrMalformed: the body is not a GraphQL response (a JSON object with
	// a "data" member).
	ErrMalformed = errors.New("malformed response")
	// ErrGraphQL: the response carries GraphQL errors.
	ErrGraphQL = errors.New("GraphQL errors")
	// ErrWrongAnswer: the data differs from the expected answer.
	ErrWrongAnswer = errors.New("wrong answer")
)

// Check verifies the body of a GraphQL response against expect, the Hash
// of the right answer's data: the body must be a JSON object whose "errors"
// member is absent, null or empty, and whose "data" member hashes to
// expect. An empty expect skips the comparison of the data. The HTTP
// status is the caller's to check.
func Check(body []byte, expect string) error {
	var r map[string]json.RawMessage // exact member names, unlike a struct
	if err := json.Unmarshal(body, &r); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if e := bytes.TrimSpace(r["errors"]); len(e) > 0 && !bytes.Equal(e, []byte("null")) {
		var errs []struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e, &errs) != nil {
			return fmt.Errorf("%w: \"errors\" is not a list: %.200s", ErrMalformed, e)
		}
		if len(errs) > 0 {
			return fmt.Errorf("%w: %d, the first: %.200s", ErrGraphQL, len(errs), errs[0].Message)
		}
	}
	data, ok := r["data"]
	if !ok {
		return fmt.Errorf("%w: no \"data\"", ErrMalformed)
	}
	if expect == "" {
		return nil
	}
	got, err := Hash(data)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if got != expect {
		return fmt.Errorf("%w: data hashes to %.12s…, want %.12s…", ErrWrongAnswer, got, expect)
	}
	return nil
}
