// Package write is what the servers' write APIs share: the GraphQL
// mutations of the resolver-based and compiled variants and REST's POST,
// PATCH and DELETE. It validates inputs (Parse), writes rows in
// transactions (Store) and keeps writes away from what the benchmark's read
// templates see: every written row has an nr in the reserved range and
// refers only to the sandbox (dataset.Reserved), which no generated row
// refers to. Two entities are writable: publications and undergraduate
// students.
package write

import (
	"fmt"
	"strings"

	"github.com/gqlbench/gqlbench/dataset"
)

// FieldKind is the type of a writable field's values.
type FieldKind int

// The kinds of writable fields.
const (
	Text FieldKind = iota // a string of at most Max characters, without NUL
	Int                   // an integer from 0 to Max
	Ref                   // the id of a sandbox row of table Ref (a string or an integer)
)

// Field is a writable field of an entity.
type Field struct {
	Name   string // as in the schema and in JSON
	Column string
	Kind   FieldKind
	Max    int64  // Text: most characters; Int: largest value
	Null   bool   // may be null; absent from a create means null
	Ref    string // Ref: the table of the referenced row
}

// Entity is a kind of row the APIs write.
type Entity struct {
	Type   string  // the GraphQL type: Publication, UndergraduateStudent
	Table  string  // its table
	Fields []Field // the writable fields, in the schema's order
}

// The writable entities. Their fields are the columns the schema exposes
// (nr aside, which the server assigns) plus the references the schema
// follows; the columns the schema does not show (name) stay NULL. Only a
// nullable column of package source's row types may be set to null, so
// every reader scans a written row as it scans a generated one.
var (
	Publication = &Entity{Type: "Publication", Table: "publication", Fields: []Field{
		{Name: "title", Column: "title", Kind: Text, Max: 100},
		{Name: "abstract", Column: "abstract", Kind: Text, Max: 250},
		{Name: "mainAuthor", Column: "mainAuthor", Kind: Ref, Ref: "faculty"},
	}}
	UndergraduateStudent = &Entity{Type: "UndergraduateStudent", Table: "undergraduateStudent", Fields: []Field{
		{Name: "telephone", Column: "telephone", Kind: Text, Max: 100},
		{Name: "emailAddress", Column: "emailAddress", Kind: Text, Max: 254},
		{Name: "age", Column: "age", Kind: Int, Max: 200},
		{Name: "memberOf", Column: "memberOf", Kind: Ref, Ref: "department"},
		{Name: "advisor", Column: "advisor", Kind: Ref, Ref: "professor", Null: true},
	}}
)

// Entities lists the writable entities.
var Entities = []*Entity{Publication, UndergraduateStudent}

// Field returns the field called name, or nil.
func (e *Entity) Field(name string) *Field {
	for i := range e.Fields {
		if e.Fields[i].Name == name {
			return &e.Fields[i]
		}
	}
	return nil
}

// fieldNames is "title, abstract, mainAuthor".
func (e *Entity) fieldNames() string {
	names := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// columns is the row's columns: nr, then the fields'.
func (e *Entity) columns() []string {
	cols := []string{"nr"}
	for _, f := range e.Fields {
		cols = append(cols, f.Column)
	}
	return cols
}

// article is "a" or "an" before the entity's name.
func (e *Entity) article() string {
	if strings.ContainsRune("AEIOU", rune(e.Type[0])) {
		return "an " + e.Type
	}
	return "a " + e.Type
}

// sandboxRows says which sandbox rows a Ref field may name, for messages.
func sandboxRows(table string) string {
	switch table {
	case "faculty":
		return fmt.Sprintf("the sandbox professor %d or the sandbox lecturer %d", dataset.SandboxProfessor, dataset.SandboxLecturer)
	case "professor":
		return fmt.Sprintf("the sandbox professor %d", dataset.SandboxProfessor)
	default:
		return fmt.Sprintf("the sandbox department %d", dataset.SandboxDepartment)
	}
}

// ErrorKind is what went wrong with a write.
type ErrorKind int

// The kinds of write errors; any other error comes from the database.
const (
	Invalid  ErrorKind = iota + 1 // the input is malformed or breaks a rule (HTTP 400)
	NotFound                      // no row has the nr (HTTP 404)
	ReadOnly                      // the row belongs to the generated dataset (HTTP 403)
)

// Error is a write refused for the client's reason.
type Error struct {
	Kind ErrorKind
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

func invalid(format string, args ...any) *Error {
	return &Error{Kind: Invalid, Msg: fmt.Sprintf(format, args...)}
}
