package compiled

import (
	"database/sql"
	"sort"
	"testing"
)

// world is the tables the expectations are computed from, read with plain
// SQL and evaluated in Go: an implementation of the schema's semantics
// independent of the compiler.
type world struct {
	grads     []*grad // by nr
	grad      map[int64]*grad
	pubs      []*pub // by nr
	faculty   map[int64]*fac
	coAuthors map[int64][]int64 // publication → graduate students, ascending
	takes     map[int64][]int64 // graduate student → graduate courses, ascending
}

type grad struct {
	nr                  int64
	telephone, email    sql.NullString
	age                 sql.NullInt64
	ug, advisor, member sql.NullInt64
}

type pub struct {
	nr              int64
	title, abstract sql.NullString
	mainAuthor      sql.NullInt64
}

type fac struct {
	nr        int64
	email     sql.NullString
	phd       sql.NullInt64
	worksFor  sql.NullInt64
	professor bool
	interest  sql.NullString
	headOf    sql.NullInt64
}

func loadWorld(t testing.TB, db *sql.DB) *world {
	t.Helper()
	w := &world{grad: map[int64]*grad{}, faculty: map[int64]*fac{}, coAuthors: map[int64][]int64{}, takes: map[int64][]int64{}}
	query(t, db, `SELECT nr, telephone, emailAddress, age, undergraduateDegreeFrom, advisor, memberOf FROM graduateStudent ORDER BY nr`, func(rows *sql.Rows) error {
		g := &grad{}
		w.grads = append(w.grads, g)
		return rows.Scan(&g.nr, &g.telephone, &g.email, &g.age, &g.ug, &g.advisor, &g.member)
	})
	for _, g := range w.grads {
		w.grad[g.nr] = g
	}
	query(t, db, `SELECT nr, title, abstract, mainAuthor FROM publication ORDER BY nr`, func(rows *sql.Rows) error {
		p := &pub{}
		w.pubs = append(w.pubs, p)
		return rows.Scan(&p.nr, &p.title, &p.abstract, &p.mainAuthor)
	})
	query(t, db, `SELECT f.nr, f.emailAddress, f.doctoralDegreeFrom, f.worksFor, p.nr IS NOT NULL, p.researchInterest, p.headOf
		FROM faculty f LEFT JOIN professor p ON p.nr = f.nr`, func(rows *sql.Rows) error {
		f := &fac{}
		if err := rows.Scan(&f.nr, &f.email, &f.phd, &f.worksFor, &f.professor, &f.interest, &f.headOf); err != nil {
			return err
		}
		w.faculty[f.nr] = f
		return nil
	})
	pairs := func(q string, into map[int64][]int64) {
		query(t, db, q, func(rows *sql.Rows) error {
			var a, b int64
			if err := rows.Scan(&a, &b); err != nil {
				return err
			}
			into[a] = append(into[a], b)
			return nil
		})
		for _, l := range into {
			sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
		}
	}
	pairs(`SELECT publicationID, graduateStudentID FROM coAuthorOfPublication`, w.coAuthors)
	pairs(`SELECT graduateStudentID, graduateCourseID FROM graduateStudentTakeCourse`, w.takes)
	return w
}

func query(t testing.TB, db *sql.DB, q string, scan func(*sql.Rows) error, args ...any) {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// gradsFrom is the graduate students whose undergraduate degree is from
// university u, ascending by nr.
func (w *world) gradsFrom(u int64) []*grad {
	var out []*grad
	for _, g := range w.grads {
		if g.ug.Valid && g.ug.Int64 == u {
			out = append(out, g)
		}
	}
	return out
}

// ids is the JSON list [{"id": ...}] of nrs.
func ids(nrs []int64) string {
	var out []string
	for _, nr := range nrs {
		out = append(out, obj("id", id(nr)))
	}
	return arr(out)
}

// cmpNull orders nullable values with null first; less compares two
// non-null ones.
func cmpNull(aValid, bValid bool, less, greater bool) int {
	switch {
	case !aValid && !bValid:
		return 0
	case !aValid:
		return -1
	case !bValid:
		return 1
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

func cmpString(a, b sql.NullString) int {
	return cmpNull(a.Valid, b.Valid, a.String < b.String, a.String > b.String)
}

func cmpInt(a, b sql.NullInt64) int {
	return cmpNull(a.Valid, b.Valid, a.Int64 < b.Int64, a.Int64 > b.Int64)
}

// gradCmp compares graduate students by a GraduateStudentField.
func gradCmp(field string, a, b *grad) int {
	switch field {
	case "id":
		return cmpInt(sql.NullInt64{Int64: a.nr, Valid: true}, sql.NullInt64{Int64: b.nr, Valid: true})
	case "telephone":
		return cmpString(a.telephone, b.telephone)
	case "emailAddress":
		return cmpString(a.email, b.email)
	case "memberOf":
		return cmpInt(a.member, b.member)
	case "undergraduateDegreeFrom":
		return cmpInt(a.ug, b.ug)
	default:
		return cmpInt(a.advisor, b.advisor)
	}
}
