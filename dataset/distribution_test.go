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
	ds := &distributions{
		t:          t,
		all:        collect(t, Config{Seed: 11, Scale: 2}),
		depts:      map[int64]*deptTally{},
		rankOf:     map[int64]int{},
		courseDept: map[int64]int64{},
		gradDept:   map[int64]int64{},
		pubDept:    map[int64]int64{},
	}
	ds.textFits()
	ds.departments()
	ds.faculty()
	ds.professors()
	ds.courses()
	ds.graduates()
	ds.undergraduates()
	ds.departmentSizes()
	// Course enrolment: distinct courses of the student's department.
	ds.takes(UndergraduateStudentTakeCourse, 2, 4)
	ds.takes(GraduateStudentTakeCourse, 1, 3)
	ds.assistants()
	ds.publications()
	ds.coAuthors()
}

// phoneFormat is the format of every telephone number.
var phoneFormat = regexp.MustCompile(`^\d{3}-\d{3}-\d{4}$`)

// distributions is what TestDistributions learns of a dataset as it checks
// it table by table, for the rules that span tables.
type distributions struct {
	t      *testing.T
	all    [NumTables][][]Value
	errors int // so far; the test stops after 20
	depts  map[int64]*deptTally
	rankOf map[int64]int // faculty nr → rank
	// The department of each course, graduate student and publication.
	courseDept, gradDept, pubDept map[int64]int64
}

// deptTally is what TestDistributions counts of one department.
type deptTally struct {
	rank                  [5]int
	groups, ugs, grads    int
	ugCourses, gCourses   map[int64]bool
	tas                   int
	heads                 []int64
	ugsWithAdvisor, total int
}

// errorf reports an error, and ends the test after the 20th.
func (ds *distributions) errorf(format string, a ...any) {
	ds.t.Helper()
	ds.t.Errorf(format, a...)
	if ds.errors++; ds.errors > 20 {
		ds.t.FailNow()
	}
}

// inRange reports what unless lo <= v <= hi.
func (ds *distributions) inRange(what string, v, lo, hi int) {
	ds.t.Helper()
	if v < lo || v > hi {
		ds.errorf("%s = %d, want %d..%d", what, v, lo, hi)
	}
}

// wordsIn checks that s is lo to hi words, all of them in set.
func (ds *distributions) wordsIn(what, s string, set map[string]bool, lo, hi int) {
	ds.t.Helper()
	ws := strings.Split(s, " ")
	ds.inRange(what+" words", len(ws), lo, hi)
	for _, w := range ws {
		if !set[w] {
			ds.errorf("%s: %q is not in its vocabulary", what, w)
		}
	}
}

// dept is the tally of department nr, made on first use.
func (ds *distributions) dept(nr int64) *deptTally {
	if ds.depts[nr] == nil {
		ds.depts[nr] = &deptTally{ugCourses: map[int64]bool{}, gCourses: map[int64]bool{}}
	}
	return ds.depts[nr]
}

// wordSet is the set of words.
func wordSet(words []string) map[string]bool {
	set := map[string]bool{}
	for _, w := range words {
		set[w] = true
	}
	return set
}

// textFits checks that every text value fits its column.
func (ds *distributions) textFits() {
	for ti, rows := range ds.all {
		for _, r := range rows {
			for ci, c := range Tables[ti].Columns {
				if c.Kind == Text && c.Size > 0 && len(r[ci].S) > c.Size {
					ds.errorf("%s.%s: %q longer than %d", Tables[ti].Name, c.Name, r[ci].S, c.Size)
				}
			}
		}
	}
}

// departments checks the departments per university, and their ids.
func (ds *distributions) departments() {
	deptsOf := map[int64]int{}
	for _, r := range ds.all[Department] {
		nr, u := r[0].I, r[2].I
		if nr/100 != u || r[1].S != fmt.Sprintf("department%d", nr%100) {
			ds.errorf("department %v: id encoding", r)
		}
		deptsOf[u]++
	}
	if len(deptsOf) != 2 {
		ds.t.Fatalf("departments of %d universities, want 2", len(deptsOf))
	}
	for u, n := range deptsOf {
		ds.inRange(fmt.Sprintf("university %d departments", u), n, 15, 25)
	}
}

// faculty checks the faculty members and the ranks per department.
func (ds *distributions) faculty() {
	for _, r := range ds.all[Faculty] {
		nr, D := r[0].I, r[7].I
		rank := int(nr % 10)
		if nr/1000 != D || rank < 1 || rank > 4 {
			ds.errorf("faculty %d: id encoding (worksFor %d)", nr, D)
			continue
		}
		ds.rankOf[nr] = rank
		ds.dept(D).rank[rank]++
		name := fmt.Sprintf("%s%d", rankName[rank], nr%1000/10)
		if r[1].S != name || !phoneFormat.MatchString(r[2].S) ||
			r[3].S != fmt.Sprintf("%s@department%d.university%d.edu", name, D%100, D/100) {
			ds.errorf("faculty %v: name, telephone or email", r)
		}
		for _, deg := range r[4:7] {
			ds.inRange("degree university", int(deg.I), 0, PoolSize-1)
		}
	}
	for D, x := range ds.depts {
		for k := rankFull; k <= rankLecturer; k++ {
			ds.inRange(fmt.Sprintf("department %d %s", D, rankName[k]), x.rank[k], rankCount[k][0], rankCount[k][1])
		}
	}
}

// professors checks professors, lecturers and research groups against the
// faculty.
func (ds *distributions) professors() {
	interest := wordSet(InterestVocabulary())
	for _, r := range ds.all[Professor] {
		nr := r[0].I
		if ds.rankOf[nr] < 1 || ds.rankOf[nr] > 3 || r[1].S != rankName[ds.rankOf[nr]] {
			ds.errorf("professor %v: type does not match faculty rank %d", r, ds.rankOf[nr])
		}
		ds.wordsIn("research interest", r[2].S, interest, 1, 3)
		if !r[3].Null {
			if r[3].I != nr/1000 || ds.rankOf[nr] != rankFull {
				ds.errorf("professor %d heads department %d", nr, r[3].I)
			}
			ds.dept(r[3].I).heads = append(ds.dept(r[3].I).heads, nr)
		}
	}
	for _, r := range ds.all[Lecturer] {
		if ds.rankOf[r[0].I] != rankLecturer {
			ds.errorf("lecturer %d is not a faculty member of rank 4", r[0].I)
		}
	}
	for _, r := range ds.all[ResearchGroup] {
		if r[0].I/100 != r[1].I {
			ds.errorf("research group %v: id encoding", r)
		}
		ds.dept(r[1].I).groups++
	}
}

// courses checks the courses: 1–2 of each level per faculty member.
func (ds *distributions) courses() {
	teaches := map[int64][2]int{}
	for lvl, ti := range []TableID{UndergraduateCourse, GraduateCourse} {
		for _, r := range ds.all[ti] {
			nr, teacher := r[0].I, r[2].I
			if nr%10 != int64(lvl+1) || nr/1000 != teacher/1000 || r[1].S != fmt.Sprintf("%s%d", []string{"undergraduateCourse", "graduateCourse"}[lvl], nr%1000/10) {
				ds.errorf("course %v: id encoding or teacher of another department", r)
			}
			c := teaches[teacher]
			c[lvl]++
			teaches[teacher] = c
			ds.courseDept[nr] = nr / 1000
			if lvl == 0 {
				ds.dept(nr / 1000).ugCourses[nr] = true
			} else {
				ds.dept(nr / 1000).gCourses[nr] = true
			}
		}
	}
	for f := range ds.rankOf {
		ds.inRange(fmt.Sprintf("faculty %d undergraduate courses", f), teaches[f][0], 1, 2)
		ds.inRange(fmt.Sprintf("faculty %d graduate courses", f), teaches[f][1], 1, 2)
	}
}

// advisorOK checks that advisor is a professor of the department of student who.
func (ds *distributions) advisorOK(who, advisor int64) {
	if advisor/1000 != who/10000 || ds.rankOf[advisor] < 1 || ds.rankOf[advisor] > 3 {
		ds.errorf("student %d: advisor %d is not a professor of its department", who, advisor)
	}
}

// graduates checks the graduate students.
func (ds *distributions) graduates() {
	for _, r := range ds.all[GraduateStudent] {
		nr, D := r[0].I, r[7].I
		if nr%10 != 2 || nr/10000 != D || r[1].S != fmt.Sprintf("graduateStudent%d", nr%10000/10) ||
			r[3].S != fmt.Sprintf("%s@department%d.university%d.edu", r[1].S, D%100, D/100) || !phoneFormat.MatchString(r[2].S) {
			ds.errorf("graduate student %v: id encoding or formats", r)
		}
		ds.inRange("graduate age", int(r[4].I), 20, 27)
		ds.inRange("graduate degree university", int(r[5].I), 0, PoolSize-1)
		ds.advisorOK(nr, r[6].I)
		ds.gradDept[nr] = D
		ds.dept(D).grads++
	}
}

// undergraduates checks the undergraduate students.
func (ds *distributions) undergraduates() {
	for _, r := range ds.all[UndergraduateStudent] {
		nr, D := r[0].I, r[6].I
		if nr%10 != 1 || nr/10000 != D || r[1].S != fmt.Sprintf("undergraduateStudent%d", nr%10000/10) ||
			r[3].S != fmt.Sprintf("%s@department%d.university%d.edu", r[1].S, D%100, D/100) || !phoneFormat.MatchString(r[2].S) {
			ds.errorf("undergraduate %v: id encoding or formats", r)
		}
		ds.inRange("undergraduate age", int(r[4].I), 16, 24)
		x := ds.dept(D)
		x.ugs++
		x.total++
		if !r[5].Null {
			ds.advisorOK(nr, r[5].I)
			x.ugsWithAdvisor++
		}
	}
}

// departmentSizes checks the students, research groups and head of each
// department, and the share of undergraduates with an advisor.
func (ds *distributions) departmentSizes() {
	withAdvisor, ugs := 0, 0
	for D, x := range ds.depts {
		F := x.rank[1] + x.rank[2] + x.rank[3] + x.rank[4]
		ds.inRange(fmt.Sprintf("department %d undergraduates", D), x.ugs, 8*F, 14*F)
		ds.inRange(fmt.Sprintf("department %d graduates", D), x.grads, 3*F, 4*F)
		ds.inRange(fmt.Sprintf("department %d research groups", D), x.groups, 10, 20)
		if len(x.heads) != 1 {
			ds.errorf("department %d has heads %v", D, x.heads)
		}
		withAdvisor += x.ugsWithAdvisor
		ugs += x.total
	}
	if p := float64(withAdvisor) / float64(ugs); p < 0.17 || p > 0.23 {
		ds.errorf("%.3f of undergraduates have an advisor, want about 1/5", p)
	}
}

// takes checks the enrolment table ti: each student takes lo to hi distinct
// courses of their department.
func (ds *distributions) takes(ti TableID, lo, hi int) {
	per := map[int64]map[int64]bool{}
	for _, r := range ds.all[ti] {
		s, c := r[0].I, r[1].I
		if ds.courseDept[c] != s/10000 {
			ds.errorf("%s: student %d takes course %d of another department", Tables[ti].Name, s, c)
		}
		if per[s] == nil {
			per[s] = map[int64]bool{}
		}
		if per[s][c] {
			ds.errorf("%s: student %d takes course %d twice", Tables[ti].Name, s, c)
		}
		per[s][c] = true
	}
	students := ds.all[UndergraduateStudent]
	if ti == GraduateStudentTakeCourse {
		students = ds.all[GraduateStudent]
	}
	for _, r := range students {
		ds.inRange(fmt.Sprintf("%s of %d", Tables[ti].Name, r[0].I), len(per[r[0].I]), lo, hi)
	}
}

// assistants checks the teaching assistants: distinct graduates of the
// course's department.
func (ds *distributions) assistants() {
	assisting := map[int64]bool{}
	for _, r := range ds.all[UndergraduateCourse] {
		if r[3].Null {
			continue
		}
		ta := r[3].I
		if ds.gradDept[ta] != r[0].I/1000 || assisting[ta] {
			ds.errorf("course %d: teaching assistant %d is of another department or assists twice", r[0].I, ta)
		}
		assisting[ta] = true
		ds.dept(r[0].I/1000).tas++
	}
	for D, x := range ds.depts {
		want := min(x.grads/5, len(x.ugCourses))
		ds.inRange(fmt.Sprintf("department %d teaching assistants", D), x.tas, want, min(x.grads/4, len(x.ugCourses)))
	}
}

// publications checks the publications and their number per faculty member.
func (ds *distributions) publications() {
	vocab := wordSet(Vocabulary())
	pubs := map[int64]int{}
	for _, r := range ds.all[Publication] {
		nr, author := r[0].I, r[4].I
		if nr/100 != author || r[1].S != fmt.Sprintf("publication%d", nr%100) {
			ds.errorf("publication %v: id encoding", r)
		}
		ds.wordsIn("title", r[2].S, vocab, 3, 6)
		ds.wordsIn("abstract", r[3].S, vocab, 10, 20)
		pubs[author]++
		ds.pubDept[nr] = author / 1000
	}
	for f, rank := range ds.rankOf {
		ds.inRange(fmt.Sprintf("publications of %s %d", rankName[rank], f), pubs[f], rankPubs[rank][0], rankPubs[rank][1])
	}
}

// coAuthors checks the co-authors: graduates of the publication's
// department, each co-authoring at most 5 publications.
func (ds *distributions) coAuthors() {
	coauthored := map[int64]map[int64]bool{}
	for _, r := range ds.all[CoAuthorOfPublication] {
		p, g := r[0].I, r[1].I
		if ds.pubDept[p] != ds.gradDept[g] {
			ds.errorf("graduate %d co-authors publication %d of another department", g, p)
		}
		if coauthored[g] == nil {
			coauthored[g] = map[int64]bool{}
		}
		if coauthored[g][p] {
			ds.errorf("graduate %d co-authors publication %d twice", g, p)
		}
		coauthored[g][p] = true
	}
	for g := range ds.gradDept {
		ds.inRange(fmt.Sprintf("publications co-authored by %d", g), len(coauthored[g]), 0, 5)
	}
}
