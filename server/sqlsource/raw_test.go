package sqlsource_test

import (
	"cmp"
	"database/sql"
	"slices"
	"testing"

	"github.com/gqlbench/gqlbench/store"
)

// The data read back with plain SQL, for expectations computed in Go,
// independently of the SQL the Sources write (their filters, orders and
// paging are re-done here with Go's sort and strings packages).

type rawGrad struct {
	nr, age, ug, memberOf int64
	telephone, email      string
	advisor               *int64
}

type rawPub struct {
	nr, author      int64
	title, abstract string
}

type rawData struct {
	grads     []rawGrad           // by nr
	interest  map[int64]string    // professor nr → research interest
	heads     map[int64]int64     // department → head
	pubs      []rawPub            // by nr
	coAuthors map[int64][]int64   // publication → graduate co-authors by nr
	lecturers []int64             // by nr
	courses   map[int64][]int64   // graduate student → graduate courses taken, by nr
	byUG      map[int64][]rawGrad // university → graduate students by nr
}

func readRaw(t *testing.T, d database) *rawData {
	t.Helper()
	driver, dsn := "pgx", d.url
	if d.name == "sqlite" {
		driver, dsn = "sqlite3", "file:"+store.SQLitePath(d.url)+"?mode=ro"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	each := func(q string, scan func(*sql.Rows) error) {
		t.Helper()
		rows, err := db.Query(q)
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
	r := &rawData{interest: map[int64]string{}, heads: map[int64]int64{}, coAuthors: map[int64][]int64{}, courses: map[int64][]int64{}, byUG: map[int64][]rawGrad{}}
	each("SELECT nr, telephone, emailAddress, age, undergraduateDegreeFrom, advisor, memberOf FROM graduateStudent", func(rs *sql.Rows) error {
		var g rawGrad
		err := rs.Scan(&g.nr, &g.telephone, &g.email, &g.age, &g.ug, &g.advisor, &g.memberOf)
		r.grads = append(r.grads, g)
		return err
	})
	slices.SortFunc(r.grads, func(a, b rawGrad) int { return cmp.Compare(a.nr, b.nr) })
	for _, g := range r.grads {
		r.byUG[g.ug] = append(r.byUG[g.ug], g)
	}
	each("SELECT nr, researchInterest, headOf FROM professor", func(rs *sql.Rows) error {
		var nr int64
		var interest string
		var head *int64
		err := rs.Scan(&nr, &interest, &head)
		r.interest[nr] = interest
		if head != nil {
			r.heads[*head] = nr
		}
		return err
	})
	each("SELECT nr, title, abstract, mainAuthor FROM publication", func(rs *sql.Rows) error {
		var p rawPub
		err := rs.Scan(&p.nr, &p.title, &p.abstract, &p.author)
		r.pubs = append(r.pubs, p)
		return err
	})
	slices.SortFunc(r.pubs, func(a, b rawPub) int { return cmp.Compare(a.nr, b.nr) })
	each("SELECT publicationID, graduateStudentID FROM coAuthorOfPublication", func(rs *sql.Rows) error {
		var p, g int64
		err := rs.Scan(&p, &g)
		r.coAuthors[p] = append(r.coAuthors[p], g)
		return err
	})
	each("SELECT graduateStudentID, graduateCourseID FROM graduateStudentTakeCourse", func(rs *sql.Rows) error {
		var g, c int64
		err := rs.Scan(&g, &c)
		r.courses[g] = append(r.courses[g], c)
		return err
	})
	for _, m := range []map[int64][]int64{r.coAuthors, r.courses} {
		for _, l := range m {
			slices.Sort(l)
		}
	}
	each("SELECT nr FROM lecturer", func(rs *sql.Rows) error {
		var nr int64
		err := rs.Scan(&nr)
		r.lecturers = append(r.lecturers, nr)
		return err
	})
	slices.Sort(r.lecturers)
	return r
}
