package dataset

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestDistributions checks every rule of DESIGN Appendix A, per university
// and per department, on a whole sf=2 dataset: value ranges, formats and the
// id encoding.
func TestDistributions(t *testing.T) {
	all := collect(t, Config{Seed: 11, Scale: 2})
	errors := 0
	errorf := func(format string, a ...any) {
		t.Helper()
		t.Errorf(format, a...)
		if errors++; errors > 20 {
			t.FailNow()
		}
	}
	inRange := func(what string, v, lo, hi int) {
		t.Helper()
		if v < lo || v > hi {
			errorf("%s = %d, want %d..%d", what, v, lo, hi)
		}
	}
	phone := regexp.MustCompile(`^\d{3}-\d{3}-\d{4}$`)
	interest := map[string]bool{}
	for _, w := range InterestVocabulary() {
		interest[w] = true
	}
	vocab := map[string]bool{}
	for _, w := range Vocabulary() {
		vocab[w] = true
	}
	wordsIn := func(what, s string, set map[string]bool, lo, hi int) {
		t.Helper()
		ws := strings.Split(s, " ")
		inRange(what+" words", len(ws), lo, hi)
		for _, w := range ws {
			if !set[w] {
				errorf("%s: %q is not in its vocabulary", what, w)
			}
		}
	}
	// Every text value fits its column.
	for ti, rows := range all {
		for _, r := range rows {
			for ci, c := range Tables[ti].Columns {
				if c.Kind == Text && c.Size > 0 && len(r[ci].S) > c.Size {
					errorf("%s.%s: %q longer than %d", Tables[ti].Name, c.Name, r[ci].S, c.Size)
				}
			}
		}
	}

	// Departments per university, and their ids.
	deptsOf := map[int64]int{}
	for _, r := range all[Department] {
		nr, u := r[0].I, r[2].I
		if nr/100 != u || r[1].S != fmt.Sprintf("department%d", nr%100) {
			errorf("department %v: id encoding", r)
		}
		deptsOf[u]++
	}
	if len(deptsOf) != 2 {
		t.Fatalf("departments of %d universities, want 2", len(deptsOf))
	}
	for u, n := range deptsOf {
		inRange(fmt.Sprintf("university %d departments", u), n, 15, 25)
	}

	type dept struct {
		rank                  [5]int
		groups, ugs, grads    int
		ugCourses, gCourses   map[int64]bool
		tas                   int
		heads                 []int64
		ugsWithAdvisor, total int
	}
	depts := map[int64]*dept{}
	d := func(nr int64) *dept {
		if depts[nr] == nil {
			depts[nr] = &dept{ugCourses: map[int64]bool{}, gCourses: map[int64]bool{}}
		}
		return depts[nr]
	}
	rankOf := map[int64]int{} // faculty nr → rank
	for _, r := range all[Faculty] {
		nr, D := r[0].I, r[7].I
		rank := int(nr % 10)
		if nr/1000 != D || rank < 1 || rank > 4 {
			errorf("faculty %d: id encoding (worksFor %d)", nr, D)
			continue
		}
		rankOf[nr] = rank
		d(D).rank[rank]++
		name := fmt.Sprintf("%s%d", rankName[rank], nr%1000/10)
		if r[1].S != name || !phone.MatchString(r[2].S) ||
			r[3].S != fmt.Sprintf("%s@department%d.university%d.edu", name, D%100, D/100) {
			errorf("faculty %v: name, telephone or email", r)
		}
		for _, deg := range r[4:7] {
			inRange("degree university", int(deg.I), 0, PoolSize-1)
		}
	}
	for D, x := range depts {
		for k := rankFull; k <= rankLecturer; k++ {
			inRange(fmt.Sprintf("department %d %s", D, rankName[k]), x.rank[k], rankCount[k][0], rankCount[k][1])
		}
	}
	for _, r := range all[Professor] {
		nr := r[0].I
		if rankOf[nr] < 1 || rankOf[nr] > 3 || r[1].S != rankName[rankOf[nr]] {
			errorf("professor %v: type does not match faculty rank %d", r, rankOf[nr])
		}
		wordsIn("research interest", r[2].S, interest, 1, 3)
		if !r[3].Null {
			if r[3].I != nr/1000 || rankOf[nr] != rankFull {
				errorf("professor %d heads department %d", nr, r[3].I)
			}
			d(r[3].I).heads = append(d(r[3].I).heads, nr)
		}
	}
	for _, r := range all[Lecturer] {
		if rankOf[r[0].I] != rankLecturer {
			errorf("lecturer %d is not a faculty member of rank 4", r[0].I)
		}
	}
	for _, r := range all[ResearchGroup] {
		if r[0].I/100 != r[1].I {
			errorf("research group %v: id encoding", r)
		}
		d(r[1].I).groups++
	}

	// Courses: 1–2 of each level per faculty member.
	teaches := map[int64][2]int{}
	courseDept := map[int64]int64{}
	for lvl, ti := range []TableID{UndergraduateCourse, GraduateCourse} {
		for _, r := range all[ti] {
			nr, teacher := r[0].I, r[2].I
			if nr%10 != int64(lvl+1) || nr/1000 != teacher/1000 || r[1].S != fmt.Sprintf("%s%d", []string{"undergraduateCourse", "graduateCourse"}[lvl], nr%1000/10) {
				errorf("course %v: id encoding or teacher of another department", r)
			}
			c := teaches[teacher]
			c[lvl]++
			teaches[teacher] = c
			courseDept[nr] = nr / 1000
			if lvl == 0 {
				d(nr / 1000).ugCourses[nr] = true
			} else {
				d(nr / 1000).gCourses[nr] = true
			}
		}
	}
	for f := range rankOf {
		inRange(fmt.Sprintf("faculty %d undergraduate courses", f), teaches[f][0], 1, 2)
		inRange(fmt.Sprintf("faculty %d graduate courses", f), teaches[f][1], 1, 2)
	}

	// Students.
	advisorOK := func(who, advisor int64) {
		if advisor/1000 != who/10000 || rankOf[advisor] < 1 || rankOf[advisor] > 3 {
			errorf("student %d: advisor %d is not a professor of its department", who, advisor)
		}
	}
	gradDept := map[int64]int64{}
	for _, r := range all[GraduateStudent] {
		nr, D := r[0].I, r[7].I
		if nr%10 != 2 || nr/10000 != D || r[1].S != fmt.Sprintf("graduateStudent%d", nr%10000/10) ||
			r[3].S != fmt.Sprintf("%s@department%d.university%d.edu", r[1].S, D%100, D/100) || !phone.MatchString(r[2].S) {
			errorf("graduate student %v: id encoding or formats", r)
		}
		inRange("graduate age", int(r[4].I), 20, 27)
		inRange("graduate degree university", int(r[5].I), 0, PoolSize-1)
		advisorOK(nr, r[6].I)
		gradDept[nr] = D
		d(D).grads++
	}
	for _, r := range all[UndergraduateStudent] {
		nr, D := r[0].I, r[6].I
		if nr%10 != 1 || nr/10000 != D || r[1].S != fmt.Sprintf("undergraduateStudent%d", nr%10000/10) ||
			r[3].S != fmt.Sprintf("%s@department%d.university%d.edu", r[1].S, D%100, D/100) || !phone.MatchString(r[2].S) {
			errorf("undergraduate %v: id encoding or formats", r)
		}
		inRange("undergraduate age", int(r[4].I), 16, 24)
		x := d(D)
		x.ugs++
		x.total++
		if !r[5].Null {
			advisorOK(nr, r[5].I)
			x.ugsWithAdvisor++
		}
	}
	withAdvisor, ugs := 0, 0
	for D, x := range depts {
		F := x.rank[1] + x.rank[2] + x.rank[3] + x.rank[4]
		inRange(fmt.Sprintf("department %d undergraduates", D), x.ugs, 8*F, 14*F)
		inRange(fmt.Sprintf("department %d graduates", D), x.grads, 3*F, 4*F)
		inRange(fmt.Sprintf("department %d research groups", D), x.groups, 10, 20)
		if len(x.heads) != 1 {
			errorf("department %d has heads %v", D, x.heads)
		}
		withAdvisor += x.ugsWithAdvisor
		ugs += x.total
	}
	if p := float64(withAdvisor) / float64(ugs); p < 0.17 || p > 0.23 {
		errorf("%.3f of undergraduates have an advisor, want about 1/5", p)
	}

	// Course enrolment: distinct courses of the student's department.
	takes := func(ti TableID, lo, hi int) {
		per := map[int64]map[int64]bool{}
		for _, r := range all[ti] {
			s, c := r[0].I, r[1].I
			if courseDept[c] != s/10000 {
				errorf("%s: student %d takes course %d of another department", Tables[ti].Name, s, c)
			}
			if per[s] == nil {
				per[s] = map[int64]bool{}
			}
			if per[s][c] {
				errorf("%s: student %d takes course %d twice", Tables[ti].Name, s, c)
			}
			per[s][c] = true
		}
		students := all[UndergraduateStudent]
		if ti == GraduateStudentTakeCourse {
			students = all[GraduateStudent]
		}
		for _, r := range students {
			inRange(fmt.Sprintf("%s of %d", Tables[ti].Name, r[0].I), len(per[r[0].I]), lo, hi)
		}
	}
	takes(UndergraduateStudentTakeCourse, 2, 4)
	takes(GraduateStudentTakeCourse, 1, 3)

	// Teaching assistants: distinct graduates of the course's department.
	assisting := map[int64]bool{}
	for _, r := range all[UndergraduateCourse] {
		if r[3].Null {
			continue
		}
		ta := r[3].I
		if gradDept[ta] != r[0].I/1000 || assisting[ta] {
			errorf("course %d: teaching assistant %d is of another department or assists twice", r[0].I, ta)
		}
		assisting[ta] = true
		d(r[0].I/1000).tas++
	}
	for D, x := range depts {
		want := min(x.grads/5, len(x.ugCourses))
		inRange(fmt.Sprintf("department %d teaching assistants", D), x.tas, want, min(x.grads/4, len(x.ugCourses)))
	}

	// Publications and co-authors.
	pubs := map[int64]int{}
	pubDept := map[int64]int64{}
	for _, r := range all[Publication] {
		nr, author := r[0].I, r[4].I
		if nr/100 != author || r[1].S != fmt.Sprintf("publication%d", nr%100) {
			errorf("publication %v: id encoding", r)
		}
		wordsIn("title", r[2].S, vocab, 3, 6)
		wordsIn("abstract", r[3].S, vocab, 10, 20)
		pubs[author]++
		pubDept[nr] = author / 1000
	}
	for f, rank := range rankOf {
		inRange(fmt.Sprintf("publications of %s %d", rankName[rank], f), pubs[f], rankPubs[rank][0], rankPubs[rank][1])
	}
	coauthored := map[int64]map[int64]bool{}
	for _, r := range all[CoAuthorOfPublication] {
		p, g := r[0].I, r[1].I
		if pubDept[p] != gradDept[g] {
			errorf("graduate %d co-authors publication %d of another department", g, p)
		}
		if coauthored[g] == nil {
			coauthored[g] = map[int64]bool{}
		}
		if coauthored[g][p] {
			errorf("graduate %d co-authors publication %d twice", g, p)
		}
		coauthored[g][p] = true
	}
	for g := range gradDept {
		inRange(fmt.Sprintf("publications co-authored by %d", g), len(coauthored[g]), 0, 5)
	}
}
