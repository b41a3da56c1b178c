package all_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/store"
	"github.com/gqlbench/gqlbench/verify"
)

// sqlCheck compares one level of a template's answer with plain SQL: the
// objects at path (lists expanded in order, nulls skipped) give one row
// each, made of fields (dotted paths inside the object; "#" is the constant
// 1, to count objects), and must equal, in order, the rows of the SQL
// statement that query returns for the instance's variables.
type sqlCheck struct {
	path   string
	fields []string
	query  func(v vars) (string, []any)
}

// vars reads an instance's variables.
type vars map[string]any

func (v vars) id(name string) int64 {
	n, err := strconv.ParseInt(v[name].(string), 10, 64)
	if err != nil {
		panic(err)
	}
	return n
}
func (v vars) int(name string) int64 {
	switch x := v[name].(type) {
	case int:
		return int64(x)
	case int64:
		return x
	}
	panic(fmt.Sprintf("%s is %T", name, v[name]))
}
func (v vars) str(name string) string { return v[name].(string) }

// gradColumn is the column a GraduateStudentField orders by.
var gradColumn = map[string]string{"id": "nr", "telephone": "telephone", "emailAddress": "emailAddress",
	"memberOf": "memberOf", "undergraduateDegreeFrom": "undergraduateDegreeFrom", "advisor": "advisor"}

// sqlChecks holds the hand-written SQL of every template (SQLite dialect):
// the same questions asked without GraphQL, without the Source semantics
// and without the oracle's code.
var sqlChecks = map[int][]sqlCheck{
	1: {{"faculty.doctoralDegreeFrom.undergraduateDegreeObtainedBystudent", []string{"id", "emailAddress"},
		func(v vars) (string, []any) {
			return `SELECT g.nr, g.emailAddress FROM faculty f JOIN graduateStudent g ON g.undergraduateDegreeFrom = f.doctoralDegreeFrom
				WHERE f.nr = ? ORDER BY g.nr`, []any{v.id("facultyID")}
		}}},
	2: {
		{"university.doctoralDegreeObtainers", []string{"#"}, func(v vars) (string, []any) {
			return `SELECT 1 FROM faculty WHERE doctoralDegreeFrom = ?`, []any{v.id("universityID")}
		}},
		{"university.doctoralDegreeObtainers.publications", []string{"title"}, func(v vars) (string, []any) {
			return `SELECT p.title FROM faculty f JOIN publication p ON p.mainAuthor = f.nr
				WHERE f.doctoralDegreeFrom = ? ORDER BY f.nr, p.nr`, []any{v.id("universityID")}
		}},
	},
	3: {{"researchGroup.subOrganizationOf.head", []string{"id", "emailAddress", "doctoralDegreeFrom.id"},
		func(v vars) (string, []any) {
			return `SELECT f.nr, f.emailAddress, f.doctoralDegreeFrom FROM researchGroup r
				JOIN professor p ON p.headOf = r.subOrganizationOf JOIN faculty f ON f.nr = p.nr WHERE r.nr = ?`, []any{v.id("researchGroupID")}
		}}},
	4: {
		{"lecturer.doctoralDegreeFrom", []string{"id"}, func(v vars) (string, []any) {
			return `SELECT f.doctoralDegreeFrom FROM lecturer l JOIN faculty f ON f.nr = l.nr WHERE l.nr = ?`, []any{v.id("lecturerID")}
		}},
		{"lecturer.doctoralDegreeFrom.undergraduateDegreeObtainedBystudent",
			[]string{"id", "emailAddress", "advisor.id", "advisor.emailAddress", "advisor.worksFor.id"},
			func(v vars) (string, []any) {
				return `SELECT g.nr, g.emailAddress, a.nr, a.emailAddress, a.worksFor FROM lecturer l
					JOIN faculty f ON f.nr = l.nr JOIN graduateStudent g ON g.undergraduateDegreeFrom = f.doctoralDegreeFrom
					LEFT JOIN faculty a ON a.nr = g.advisor WHERE l.nr = ? ORDER BY g.nr`, []any{v.id("lecturerID")}
			}},
	},
	5: {
		{"department", []string{"id", "subOrganizationOf.id"}, func(v vars) (string, []any) {
			return `SELECT nr, subOrganizationOf FROM department WHERE nr = ?`, []any{v.id("departmentID")}
		}},
		{"department.subOrganizationOf.undergraduateDegreeObtainedBystudent",
			[]string{"id", "emailAddress", "memberOf.id", "memberOf.subOrganizationOf.id"},
			func(v vars) (string, []any) {
				return `SELECT g.nr, g.emailAddress, g.memberOf, m.subOrganizationOf FROM department d
					JOIN graduateStudent g ON g.undergraduateDegreeFrom = d.subOrganizationOf
					JOIN department m ON m.nr = g.memberOf WHERE d.nr = ? ORDER BY g.nr`, []any{v.id("departmentID")}
			}},
		{"department.subOrganizationOf.undergraduateDegreeObtainedBystudent.memberOf.subOrganizationOf.undergraduateDegreeObtainedBystudent",
			[]string{"id", "emailAddress", "memberOf.id"},
			func(v vars) (string, []any) {
				return `SELECT g2.nr, g2.emailAddress, g2.memberOf FROM department d
					JOIN graduateStudent g ON g.undergraduateDegreeFrom = d.subOrganizationOf
					JOIN department m ON m.nr = g.memberOf
					JOIN graduateStudent g2 ON g2.undergraduateDegreeFrom = m.subOrganizationOf
					WHERE d.nr = ? ORDER BY g.nr, g2.nr`, []any{v.id("departmentID")}
			}},
	},
	6: {
		{"university.undergraduateDegreeObtainedBystudent", []string{"#"}, func(v vars) (string, []any) {
			return `SELECT 1 FROM graduateStudent WHERE undergraduateDegreeFrom = ?`, []any{v.id("universityID")}
		}},
		{"university.undergraduateDegreeObtainedBystudent.advisor.worksFor", []string{"id"}, func(v vars) (string, []any) {
			return `SELECT a.worksFor FROM graduateStudent g JOIN faculty a ON a.nr = g.advisor
				WHERE g.undergraduateDegreeFrom = ? ORDER BY g.nr`, []any{v.id("universityID")}
		}},
	},
	7: {{"university.undergraduateDegreeObtainedBystudent", []string{"advisor.id"}, func(v vars) (string, []any) {
		return `SELECT advisor FROM graduateStudent WHERE undergraduateDegreeFrom = ? ORDER BY nr LIMIT 10 OFFSET ?`,
			[]any{v.id("universityID"), v.int("offset")}
	}}},
	8: {{"graduateStudents", []string{"id", "telephone", "emailAddress"}, func(v vars) (string, []any) {
		// SQLite sorts NULL first and compares text as bytes (BINARY).
		return fmt.Sprintf(`SELECT nr, telephone, emailAddress FROM graduateStudent ORDER BY %s, %s, nr LIMIT ?`,
			gradColumn[v.str("attr1")], gradColumn[v.str("attr2")]), []any{v.int("cnt")}
	}}},
	9: {{"university.undergraduateDegreeObtainedBystudent.advisor.publications", []string{"id"}, func(v vars) (string, []any) {
		return fmt.Sprintf(`SELECT p.nr FROM (SELECT nr, advisor FROM graduateStudent WHERE undergraduateDegreeFrom = ? ORDER BY nr LIMIT 50) g
			JOIN publication p ON p.mainAuthor = g.advisor ORDER BY g.nr, p.%s DESC, p.nr`, v.str("attrPublicationField")),
			[]any{v.id("universityID")}
	}}},
	10: {{"publicationSearch", []string{"id", "title", "abstract"}, func(v vars) (string, []any) {
		return `SELECT nr, title, abstract FROM publication WHERE instr(title, ?) > 0 ORDER BY nr`, []any{v.str("keyword")}
	}}},
	11: {{"graduateStudents", []string{"id", "advisor.id"}, func(v vars) (string, []any) {
		return `SELECT nr, advisor FROM graduateStudent WHERE undergraduateDegreeFrom = ? ORDER BY nr`, []any{v.id("universityID")}
	}}},
	12: {
		{"university.doctoralDegreeObtainers", []string{"id", "emailAddress"}, func(v vars) (string, []any) {
			return `SELECT nr, emailAddress FROM faculty WHERE doctoralDegreeFrom = ? AND worksFor = ? ORDER BY nr`,
				[]any{v.id("universityID"), v.id("departmentID")}
		}},
		{"university.doctoralDegreeObtainers.publications", []string{"id"}, func(v vars) (string, []any) {
			return `SELECT p.nr FROM faculty f JOIN publication p ON p.mainAuthor = f.nr
				WHERE f.doctoralDegreeFrom = ? AND f.worksFor = ? ORDER BY f.nr, p.nr`, []any{v.id("universityID"), v.id("departmentID")}
		}},
	},
	13: interestChecks(""),
	14: interestChecks(" AND g.age > ?"),
	15: {{"university.graduateStudentConnection.aggregate", []string{"count"}, func(v vars) (string, []any) {
		return `SELECT count(*) FROM graduateStudent WHERE undergraduateDegreeFrom = ?`, []any{v.id("universityID")}
	}}},
	16: {{"university.graduateStudentConnection.aggregate", []string{"age.avg", "age.max", "age.min"}, func(v vars) (string, []any) {
		return `SELECT coalesce(avg(age), 0), coalesce(max(age), 0), coalesce(min(age), 0) FROM graduateStudent
			WHERE undergraduateDegreeFrom = ?`, []any{v.id("universityID")}
	}}},
}

// interestChecks are QT13's checks, with an extra condition for QT14.
func interestChecks(extra string) []sqlCheck {
	args := func(v vars) []any {
		a := []any{v.id("universityID"), v.str("interestWord")}
		if extra != "" {
			a = append(a, v.int("age"))
		}
		return a
	}
	from := `FROM graduateStudent g JOIN professor p ON p.nr = g.advisor
		WHERE g.undergraduateDegreeFrom = ? AND instr(p.researchInterest, ?) > 0` + extra
	return []sqlCheck{
		{"university.undergraduateDegreeObtainedBystudent", []string{"id", "emailAddress"}, func(v vars) (string, []any) {
			return `SELECT g.nr, g.emailAddress ` + from + ` ORDER BY g.nr`, args(v)
		}},
		{"university.undergraduateDegreeObtainedBystudent.takeGraduateCourses", []string{"id"}, func(v vars) (string, []any) {
			return `SELECT t.graduateCourseID ` + strings.Replace(from, "WHERE", "JOIN graduateStudentTakeCourse t ON t.graduateStudentID = g.nr WHERE", 1) +
				` ORDER BY g.nr, t.graduateCourseID`, args(v)
		}},
	}
}

// testOracleVsSQL: the oracle agrees with hand-written SQL on the SQLite
// database, for every template, level by level.
func testOracleVsSQL(t *testing.T, f *fixture) {
	ctx := context.Background()
	db, err := benchdb.OpenSQLite(store.SQLitePath(f.dbs[0].url))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rowsSeen := map[int]int{}
	for _, c := range f.cases {
		checks := sqlChecks[c.in.Template]
		if len(checks) == 0 {
			t.Fatalf("QT%d has no SQL check", c.in.Template)
		}
		var answer any
		dec := json.NewDecoder(bytes.NewReader(c.canonical))
		dec.UseNumber()
		if err := dec.Decode(&answer); err != nil {
			t.Fatal(err)
		}
		for _, chk := range checks {
			q, args := chk.query(vars(c.in.Variables))
			want, err := sqlRows(ctx, db, q, args)
			if err != nil {
				t.Fatalf("QT%d: %v\n%s", c.in.Template, err, q)
			}
			got := answerRows(answer, chk.path, chk.fields)
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("%s %v at %s: the oracle gives %d rows, SQL %d\n\toracle %.300v\n\tSQL    %.300v",
					c.in.ID, c.in.Variables, chk.path, len(got), len(want), got, want)
			}
			rowsSeen[c.in.Template] += len(want)
		}
	}
	t.Logf("rows compared per template: %v", rowsSeen)
	// A check that compares nothing proves nothing.
	for id := 1; id <= 16; id++ {
		if rowsSeen[id] == 0 {
			t.Errorf("QT%d: no rows compared", id)
		}
	}
}

// sqlRows runs q and returns its rows as text (NULL as "null", numbers canonical).
func sqlRows(ctx context.Context, db *sql.DB, q string, args []any) ([][]string, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	out := [][]string{}
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = "null"
			if v.Valid {
				row[i] = number(v.String)
			}
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// answerRows flattens the objects at path in answer (a decoded JSON value)
// into rows of fields.
func answerRows(answer any, path string, fields []string) [][]string {
	objs := []any{answer}
	for _, key := range strings.Split(path, ".") {
		var next []any
		for _, o := range objs {
			switch v := o.(map[string]any)[key].(type) {
			case []any:
				for _, e := range v {
					if e != nil {
						next = append(next, e)
					}
				}
			case map[string]any:
				next = append(next, v)
			}
		}
		objs = next
	}
	out := [][]string{}
	for _, o := range objs {
		row := make([]string, len(fields))
		for i, f := range fields {
			row[i] = field(o, f)
		}
		out = append(out, row)
	}
	return out
}

// field reads a dotted path inside a decoded object as text.
func field(o any, path string) string {
	if path == "#" {
		return "1"
	}
	for _, key := range strings.Split(path, ".") {
		m, ok := o.(map[string]any)
		if !ok {
			return "null"
		}
		o = m[key]
	}
	switch v := o.(type) {
	case nil:
		return "null"
	case string:
		return number(v)
	case json.Number:
		return number(string(v))
	}
	return fmt.Sprint(o)
}

// number returns s in canonical form if it is a JSON number, else s.
func number(s string) string {
	if c, err := verify.Canonical([]byte(s)); err == nil && s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return string(c)
	}
	return s
}
