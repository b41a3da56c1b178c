package dataset

import (
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Version identifies the data the generator produces. Bump it whenever a
// change alters any generated row: fingerprints (fingerprint_test.go) are
// pinned per version, and metadata of another version is refused.
const Version = 1

// PoolSize is the number of universities degrees are drawn from, whatever the
// scale factor (DESIGN Appendix A): the university table always holds them.
const PoolSize = 1000

// Config selects a dataset: generation is a pure function of (Seed, university
// index), and Scale says how many universities are generated, so every row of
// a smaller scale appears unchanged at every larger one (LinGBM's R4).
type Config struct {
	Seed  uint64
	Scale int
}

// Validate reports a configuration that cannot be generated.
func (c Config) Validate() error {
	if c.Scale < 1 {
		return fmt.Errorf("scale factor must be a positive integer, got %d", c.Scale)
	}
	if c.Scale > 100000 {
		// Department numbers are u·100+d and faculty numbers D·1000+…: far
		// below int64 limits, but publication ids would pass 2^63 near 10^8.
		return fmt.Errorf("scale factor %d is larger than the supported 100000", c.Scale)
	}
	return nil
}

// UniversityRows is the number of rows of the university table.
func (c Config) UniversityRows() int { return max(PoolSize, c.Scale) }

// Pool fills b with the university table: a row for every university of the
// pool (and for every generated one beyond it when Scale > PoolSize).
func (c Config) Pool(b *Batch) {
	b.reset(-1)
	t := &b.Tables[University]
	for u := 0; u < c.UniversityRows(); u++ {
		t.add(Value{I: int64(u)}, Value{S: b.name("university", u)})
	}
}

// University fills b with every row of university u (0 ≤ u < Scale) except
// its row in the university table, which Pool produces.
func (c Config) University(u int, b *Batch) {
	b.reset(u)
	r := rand.New(rand.NewPCG(mix(c.Seed, uint64(u)), 0x756e6976))
	nd := between(r, 15, 25)
	var g gen
	g.b, g.u = b, u
	for d := 0; d < nd; d++ {
		g.r = rand.New(rand.NewPCG(mix(c.Seed, uint64(u)), mix(uint64(d), 0x64657074)))
		g.department(d)
	}
}

// mix is SplitMix64's finaliser over a combination of two words: independent
// streams for every (seed, unit) pair.
func mix(a, b uint64) uint64 {
	z := a*0x9e3779b97f4a7c15 + b + 0x632be59bd9b4e5d
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// between draws uniformly from [lo, hi].
func between(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// Faculty ranks, the last digit of a faculty nr.
const (
	rankFull = 1 + iota
	rankAssociate
	rankAssistant
	rankLecturer
)

var (
	rankName = [...]string{rankFull: "fullProfessor", rankAssociate: "associateProfessor",
		rankAssistant: "assistantProfessor", rankLecturer: "lecturer"}
	rankCount = [...][2]int{rankFull: {7, 10}, rankAssociate: {10, 14}, rankAssistant: {8, 11}, rankLecturer: {5, 7}}
	rankPubs  = [...][2]int{rankFull: {15, 20}, rankAssociate: {10, 18}, rankAssistant: {5, 10}, rankLecturer: {0, 5}}
)

// gen holds the state of one department being generated.
type gen struct {
	b    *Batch
	r    *rand.Rand
	u, d int
	dept int64
	// faculty numbers by rank, and the department's courses and publications
	faculty    [rankLecturer + 1][]int64
	ugCourses  []int64
	ugRowStart int // index of the department's first undergraduateCourse row
	gCourses   []int64
	pubs       []int64
	grads      []int64
	pick       []int // scratch for sampling without replacement
	chosen     []int
}

func (g *gen) department(d int) {
	b, r := g.b, g.r
	g.d, g.dept = d, int64(g.u*100+d)
	b.Tables[Department].add(Value{I: g.dept}, Value{S: b.name("department", d)}, Value{I: int64(g.u)})

	var n [rankLecturer + 1]int
	for k := rankFull; k <= rankLecturer; k++ {
		n[k] = between(r, rankCount[k][0], rankCount[k][1])
	}
	nf := n[rankFull] + n[rankAssociate] + n[rankAssistant] + n[rankLecturer]
	head := r.IntN(n[rankFull])

	for i, ng := 0, between(r, 10, 20); i < ng; i++ {
		b.Tables[ResearchGroup].add(Value{I: g.dept*100 + int64(i)}, Value{I: g.dept})
	}
	for k := rankFull; k <= rankLecturer; k++ {
		g.faculty[k] = g.faculty[k][:0]
		for i := 0; i < n[k]; i++ {
			g.facultyMember(k, i, i == head && k == rankFull)
		}
	}
	g.courses()
	g.publications()
	g.graduates(between(r, 3*nf, 4*nf))
	g.undergraduates(between(r, 8*nf, 14*nf))
	g.teachingAssistants()
}

func (g *gen) facultyMember(rank, i int, head bool) {
	b, r := g.b, g.r
	nr := g.dept*1000 + int64(i)*10 + int64(rank)
	g.faculty[rank] = append(g.faculty[rank], nr)
	name := b.name(rankName[rank], i)
	b.Tables[Faculty].add(Value{I: nr}, Value{S: name}, Value{S: b.telephone(r)}, Value{S: b.email(name, g.d, g.u)},
		Value{I: int64(r.IntN(PoolSize))}, Value{I: int64(r.IntN(PoolSize))}, Value{I: int64(r.IntN(PoolSize))},
		Value{I: g.dept})
	if rank == rankLecturer {
		b.Tables[Lecturer].add(Value{I: nr})
		return
	}
	headOf := Value{Null: true}
	if head {
		headOf = Value{I: g.dept}
	}
	b.Tables[Professor].add(Value{I: nr}, Value{S: rankName[rank]},
		Value{S: b.words(r, InterestWords, between(r, 1, 3))}, headOf)
}

// courses: every faculty member teaches 1–2 undergraduate and 1–2 graduate
// courses, numbered within the department.
func (g *gen) courses() {
	b, r := g.b, g.r
	g.ugCourses, g.gCourses = g.ugCourses[:0], g.gCourses[:0]
	g.ugRowStart = b.Tables[UndergraduateCourse].Len()
	for k := rankFull; k <= rankLecturer; k++ {
		for _, f := range g.faculty[k] {
			for j, nu := 0, between(r, 1, 2); j < nu; j++ {
				c := len(g.ugCourses)
				nr := g.dept*1000 + int64(c)*10 + 1
				g.ugCourses = append(g.ugCourses, nr)
				b.Tables[UndergraduateCourse].add(Value{I: nr}, Value{S: b.name("undergraduateCourse", c)},
					Value{I: f}, Value{Null: true})
			}
			for j, ng := 0, between(r, 1, 2); j < ng; j++ {
				c := len(g.gCourses)
				nr := g.dept*1000 + int64(c)*10 + 2
				g.gCourses = append(g.gCourses, nr)
				b.Tables[GraduateCourse].add(Value{I: nr}, Value{S: b.name("graduateCourse", c)}, Value{I: f})
			}
		}
	}
}

func (g *gen) publications() {
	b, r := g.b, g.r
	g.pubs = g.pubs[:0]
	for k := rankFull; k <= rankLecturer; k++ {
		for _, f := range g.faculty[k] {
			for j, np := 0, between(r, rankPubs[k][0], rankPubs[k][1]); j < np; j++ {
				nr := f*100 + int64(j)
				g.pubs = append(g.pubs, nr)
				b.Tables[Publication].add(Value{I: nr}, Value{S: b.name("publication", j)},
					Value{S: b.words(r, TitleWords, between(r, 3, 6))},
					Value{S: b.words(r, AbstractWords, between(r, 10, 20))}, Value{I: f})
			}
		}
	}
}

// advisor picks a professor of the department: a uniform rank, then a
// uniform member of that rank.
func (g *gen) advisor() int64 {
	rank := rankFull + g.r.IntN(3)
	return g.faculty[rank][g.r.IntN(len(g.faculty[rank]))]
}

func (g *gen) graduates(n int) {
	b, r := g.b, g.r
	g.grads = g.grads[:0]
	for i := 0; i < n; i++ {
		nr := g.dept*10000 + int64(i)*10 + 2
		g.grads = append(g.grads, nr)
		name := b.name("graduateStudent", i)
		b.Tables[GraduateStudent].add(Value{I: nr}, Value{S: name}, Value{S: b.telephone(r)},
			Value{S: b.email(name, g.d, g.u)}, Value{I: int64(between(r, 20, 27))},
			Value{I: int64(r.IntN(PoolSize))}, Value{I: g.advisor()}, Value{I: g.dept})
		for _, c := range g.sample(len(g.gCourses), between(r, 1, 3)) {
			b.Tables[GraduateStudentTakeCourse].add(Value{I: nr}, Value{I: g.gCourses[c]})
		}
		for _, p := range g.sample(len(g.pubs), between(r, 0, 5)) {
			b.Tables[CoAuthorOfPublication].add(Value{I: g.pubs[p]}, Value{I: nr})
		}
	}
}

func (g *gen) undergraduates(n int) {
	b, r := g.b, g.r
	for i := 0; i < n; i++ {
		nr := g.dept*10000 + int64(i)*10 + 1
		name := b.name("undergraduateStudent", i)
		advisor := Value{Null: true}
		if r.IntN(5) == 0 {
			advisor = Value{I: g.advisor()}
		}
		b.Tables[UndergraduateStudent].add(Value{I: nr}, Value{S: name}, Value{S: b.telephone(r)},
			Value{S: b.email(name, g.d, g.u)}, Value{I: int64(between(r, 16, 24))}, advisor, Value{I: g.dept})
		for _, c := range g.sample(len(g.ugCourses), between(r, 2, 4)) {
			b.Tables[UndergraduateStudentTakeCourse].add(Value{I: nr}, Value{I: g.ugCourses[c]})
		}
	}
}

// teachingAssistants: between G/5 and G/4 of the G graduate students assist,
// each in a distinct undergraduate course of the department.
func (g *gen) teachingAssistants() {
	gs := len(g.grads)
	n := min(between(g.r, gs/5, gs/4), len(g.ugCourses))
	tas := append([]int(nil), g.sample(gs, n)...)
	courses := g.sample(len(g.ugCourses), n)
	t := &g.b.Tables[UndergraduateCourse]
	w := len(t.Table.Columns)
	for i, c := range courses {
		t.Vals[(g.ugRowStart+c)*w+3] = Value{I: g.grads[tas[i]]}
	}
}

// sample draws k distinct indexes of [0, n) (k ≤ n), returned in ascending
// order. The result is valid until the next call.
func (g *gen) sample(n, k int) []int {
	k = min(k, n)
	g.pick = g.pick[:0]
	for i := 0; i < n; i++ {
		g.pick = append(g.pick, i)
	}
	for i := 0; i < k; i++ { // partial Fisher–Yates
		j := i + g.r.IntN(n-i)
		g.pick[i], g.pick[j] = g.pick[j], g.pick[i]
	}
	g.chosen = append(g.chosen[:0], g.pick[:k]...)
	for i := 1; i < len(g.chosen); i++ { // insertion sort: k is small
		for j := i; j > 0 && g.chosen[j] < g.chosen[j-1]; j-- {
			g.chosen[j], g.chosen[j-1] = g.chosen[j-1], g.chosen[j]
		}
	}
	return g.chosen
}

// name returns prefix followed by i, e.g. "department3".
func (b *Batch) name(prefix string, i int) string {
	a := &b.arena
	a.start(len(prefix) + 20)
	a.buf = append(a.buf, prefix...)
	a.buf = strconv.AppendInt(a.buf, int64(i), 10)
	return a.end()
}

// email returns name@department<d>.university<u>.edu.
func (b *Batch) email(name string, d, u int) string {
	a := &b.arena
	a.start(len(name) + 64)
	a.buf = append(a.buf, name...)
	a.buf = append(a.buf, "@department"...)
	a.buf = strconv.AppendInt(a.buf, int64(d), 10)
	a.buf = append(a.buf, ".university"...)
	a.buf = strconv.AppendInt(a.buf, int64(u), 10)
	a.buf = append(a.buf, ".edu"...)
	return a.end()
}

// telephone returns a random xxx-xxx-xxxx.
func (b *Batch) telephone(r *rand.Rand) string {
	a := &b.arena
	a.start(12)
	v := r.Uint64N(10_000_000_000)
	var d [10]byte
	for i := 9; i >= 0; i-- {
		d[i] = byte('0' + v%10)
		v /= 10
	}
	a.buf = append(a.buf, d[0:3]...)
	a.buf = append(a.buf, '-')
	a.buf = append(a.buf, d[3:6]...)
	a.buf = append(a.buf, '-')
	a.buf = append(a.buf, d[6:10]...)
	return a.end()
}

// words returns n words of the kind's vocabulary, uniformly drawn, joined by
// spaces, and marks them used.
func (b *Batch) words(r *rand.Rand, kind, n int) string {
	list := Vocabulary()
	if kind == InterestWords {
		list = InterestVocabulary()
	}
	a := &b.arena
	a.start(n * (maxWordLen + 1))
	for i := 0; i < n; i++ {
		if i > 0 {
			a.buf = append(a.buf, ' ')
		}
		w := r.IntN(len(list))
		b.Words[kind].add(w)
		a.buf = append(a.buf, list[w]...)
	}
	return a.end()
}
