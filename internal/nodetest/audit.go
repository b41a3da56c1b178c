package nodetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// auditTimeout bounds one run of audit.mjs (61 requests, one at a time).
const auditTimeout = 2 * time.Minute

// AuditResult is the outcome of graphql-http's GraphQL-over-HTTP server
// audits (serverAudits) against one endpoint.
type AuditResult struct {
	URL string
	// Counts of the audits by status; Total is their sum.
	Total, OK, Notice, Warn, Error int
	// Audits lists every audit, in graphql-http's order.
	Audits []AuditOutcome
}

// AuditOutcome is the outcome of one audit.
type AuditOutcome struct {
	ID     string `json:"id"`   // graphql-http's stable id, e.g. "572B"
	Name   string `json:"name"` // starts with the requirement: MUST, SHOULD or MAY
	Status string `json:"status"`
	// The rest is set when Status is not "ok": why, and the response judged.
	Reason      string `json:"reason"`
	HTTPStatus  int    `json:"httpStatus"`
	ContentType string `json:"contentType"`
	Body        string `json:"body"` // its first 300 bytes, when the audit did not read it
}

// Audit statuses, as graphql-http reports them.
const (
	StatusOK     = "ok"
	StatusNotice = "notice" // a MAY not met
	StatusWarn   = "warn"   // a SHOULD not met
	StatusError  = "error"  // a MUST not met
)

// Audit runs graphql-http's server audits against the GraphQL endpoint url
// (node audit.mjs url) and returns their outcome. It fails t if the audits
// cannot run; it skips t (or fails it, under CI) without Node, as Ensure does.
func Audit(t testing.TB, url string) AuditResult {
	t.Helper()
	Ensure(t)
	r, err := audit(url)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// audit runs audit.mjs against url.
func audit(url string) (AuditResult, error) {
	node, err := ensure()
	if err != nil {
		return AuditResult{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), auditTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "audit.mjs", url)
	cmd.Dir = Dir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return AuditResult{}, fmt.Errorf("graphql-http's audit of %s: node audit.mjs: %w\n%s", url, err, stderr.Bytes())
	}
	var out struct {
		Audits []AuditOutcome `json:"audits"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return AuditResult{}, fmt.Errorf("graphql-http's audit of %s: the summary is not JSON: %w: %.300s", url, err, stdout.Bytes())
	}
	r := AuditResult{URL: url, Audits: out.Audits}
	if err := r.count(); err != nil {
		return AuditResult{}, fmt.Errorf("graphql-http's audit of %s: %w", url, err)
	}
	return r, nil
}

// count sets the counts from Audits.
func (r *AuditResult) count() error {
	r.Total, r.OK, r.Notice, r.Warn, r.Error = len(r.Audits), 0, 0, 0, 0
	for _, a := range r.Audits {
		switch a.Status {
		case StatusOK:
			r.OK++
		case StatusNotice:
			r.Notice++
		case StatusWarn:
			r.Warn++
		case StatusError:
			r.Error++
		default:
			return fmt.Errorf("audit %s has an unknown status %q", a.ID, a.Status)
		}
	}
	return nil
}

// NotOK lists the audits whose status is not ok.
func (r AuditResult) NotOK() []AuditOutcome {
	var out []AuditOutcome
	for _, a := range r.Audits {
		if a.Status != StatusOK {
			out = append(out, a)
		}
	}
	return out
}

// Without returns r without the audits of the given ids, recounted.
func (r AuditResult) Without(ids ...string) AuditResult {
	out := r
	out.Audits = slices.DeleteFunc(slices.Clone(r.Audits), func(a AuditOutcome) bool { return slices.Contains(ids, a.ID) })
	out.count() // the statuses were checked when r was counted
	return out
}

// String gives the counts: "54 ok, 4 notice, 3 warn, 0 error of 61".
func (r AuditResult) String() string {
	return fmt.Sprintf("%d ok, %d notice, %d warn, %d error of %d", r.OK, r.Notice, r.Warn, r.Error, r.Total)
}

// String describes an audit's outcome and, when it is not ok, why and the response:
// "warn 572B SHOULD use 200 ...: Response status code is not 200 (got 400
// application/json: {...})".
func (a AuditOutcome) String() string {
	s := a.Status + " " + a.ID + " " + a.Name
	if a.Status == StatusOK {
		return s
	}
	s += ": " + a.Reason
	if a.HTTPStatus != 0 {
		got := []string{fmt.Sprint(a.HTTPStatus)}
		if a.ContentType != "" {
			got = append(got, a.ContentType)
		}
		s += " (got " + strings.Join(got, " ")
		if a.Body != "" {
			s += ": " + a.Body
		}
		s += ")"
	}
	return s
}
