// Package task makes the REST-vs-GraphQL tasks: the same information need
// in both APIs, as one queries-file entry (package queryfile) that holds a
// GraphQL query and a REST plan whose assembled answer is the query's data,
// so that one expected hash checks both and runs of the two pair up by id
// and label. The sets follow the two studies gqlbench takes them from:
//
//   - display (seed 004, Mikuła & Dzieńkowski): the first N graduate
//     students, N = 5, 50 and 100, in three cases — REST's one endpoint
//     that returns everything against GraphQL's exact fields
//     (display-overfetch-N), both fetching everything (display-all-N), and
//     several REST endpoints, one call per student and resource, against
//     one GraphQL query (display-endpoints-N);
//   - lingbm: the LinGBM templates a REST client answers naturally, with
//     the template's own instances: QT1 (a hop, then a list), QT2 (a list,
//     then a list per element: client-side N+1), QT3 (three hops in a row),
//     QT7 (a page of a list) and QT11 (a filtered list);
//   - crud (seed 001, Lawi et al.): crud-read, a faculty member's
//     publications; with Writes, crud-create, a publication created through
//     POST /rest/publications or the createPublication mutation, in the
//     servers' reserved range, and crud-cycle, the four operations on one
//     publication in a row (REST's POST, GET, PATCH, DELETE; GraphQL's four
//     requests, as Steps), which leaves the database as it was.
//
// The expected answers come from an Oracle: the in-memory server over the
// dataset of the metadata (the CLI wires server/inmem), never from a REST
// server, so a REST API and a GraphQL server are each checked against the
// same right answer. docs/tasks.md documents the tasks and the plan format.
package task

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/verify"
)

// Oracle answers a GraphQL query over the tasks' dataset: the answer's
// data, or an error when it has errors.
type Oracle func(ctx context.Context, query string, variables map[string]any) (json.RawMessage, error)

// The sets of tasks.
const (
	SetDisplay = "display"
	SetLinGBM  = "lingbm"
	SetCRUD    = "crud"
)

// Sets lists the sets in the order Generate makes them.
var Sets = []string{SetDisplay, SetLinGBM, SetCRUD}

// Options say which tasks to make.
type Options struct {
	Sets        []string // nil: all of Sets
	PerTemplate int      // instances of each lingbm task and of crud-read (default 10)
	Records     []int    // the display cases' numbers of records (default 5, 50, 100)
	Seed        uint64   // the instances' draw
	Writes      bool     // also the write tasks (crud-create, crud-cycle), for servers that take writes
}

// DefaultRecords are seed 004's numbers of records.
var DefaultRecords = []int{5, 50, 100}

// task is one task before its expected answer: its entry and the
// variables as the oracle takes them.
type task struct {
	entry queryfile.Entry
	vars  map[string]any
	// answer, when known without the oracle (a write's), is the data.
	answer json.RawMessage
}

// Generate makes the tasks of o for the dataset of meta, each with the
// hash of its right answer from oracle.
func Generate(ctx context.Context, meta *dataset.Meta, o Options, oracle Oracle) ([]queryfile.Entry, error) {
	if o.PerTemplate == 0 {
		o.PerTemplate = 10
	}
	if o.Records == nil {
		o.Records = DefaultRecords
	}
	sets := o.Sets
	if sets == nil {
		sets = Sets
	}
	var tasks []task
	for _, s := range sets {
		var ts []task
		var err error
		switch s {
		case SetDisplay:
			ts, err = display(o.Records)
		case SetLinGBM:
			ts, err = lingbm(meta, o.PerTemplate, o.Seed)
		case SetCRUD:
			ts, err = crud(meta, o.PerTemplate, o.Seed, o.Writes)
		default:
			return nil, fmt.Errorf("unknown set of tasks %q: want %v", s, Sets)
		}
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, ts...)
	}
	ref := &queryfile.DatasetRef{SF: meta.Scale, Seed: meta.Seed, Version: meta.Version}
	out := make([]queryfile.Entry, len(tasks))
	for i := range tasks {
		t := &tasks[i]
		data := t.answer
		if data == nil {
			var err error
			if data, err = oracle(ctx, t.entry.Query, t.vars); err != nil {
				return nil, fmt.Errorf("task %s: the oracle: %w", t.entry.ID, err)
			}
		}
		h, err := verify.Hash(data)
		if err != nil {
			return nil, fmt.Errorf("task %s: the oracle's answer: %w", t.entry.ID, err)
		}
		t.entry.Expect, t.entry.Dataset = h, ref
		if err := t.entry.Plan.Check(t.entry.Variables); err != nil {
			return nil, fmt.Errorf("task %s: %w", t.entry.ID, err)
		}
		if t.entry.GraphQLPlan != nil {
			if err := t.entry.GraphQLPlan.CheckGraphQL(t.entry.Variables); err != nil {
				return nil, fmt.Errorf("task %s: %w", t.entry.ID, err)
			}
		}
		out[i] = t.entry
	}
	return out, nil
}

// newTask makes a task of label with its ordinal, GraphQL query, variables
// and REST plan.
func newTask(label string, ordinal int, query string, vars map[string]any, plan ...queryfile.Call) (task, error) {
	b, err := json.Marshal(vars)
	if err != nil {
		return task{}, err
	}
	if string(b) == "{}" {
		b = nil
	}
	id := fmt.Sprintf("%s-%04d", label, ordinal)
	return task{entry: queryfile.Entry{ID: id, Label: label, Query: query, Variables: b, Plan: plan}, vars: vars}, nil
}

// get is a GET call: its path, where its answer goes, what is kept of it
// (nil: all; none: only what then puts in) and the calls that need it.
func get(path, as string, keep []string, then ...queryfile.Call) queryfile.Call {
	return queryfile.Call{Method: "GET", Path: path, As: as, Keep: keep, Then: then}
}

// none keeps nothing of an answer but what the calls that need it put in.
var none = []string{}

// keep lists the kept members.
func keep(members ...string) []string { return slices.Clone(members) }
