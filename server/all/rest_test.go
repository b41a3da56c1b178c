package all_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/server/source"
	"github.com/gqlbench/gqlbench/workload"
)

// restClient calls a served REST API.
type restClient struct {
	t   *testing.T
	url string
}

// serveREST serves the rest variant over the database at url for the rest of t.
func serveREST(t *testing.T, url string) restClient {
	t.Helper()
	v, ok := server.Lookup("rest")
	if !ok {
		t.Fatal("no rest variant")
	}
	h, closer, err := server.Start(context.Background(), v, serverConfig(url), server.HTTPOptions{Variant: "rest"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); closer.Close() })
	return restClient{t, srv.URL}
}

// do sends a request (a JSON body unless body is "") and returns the status,
// the headers and the body.
func (c restClient) do(method, path, body string) (int, http.Header, []byte) {
	c.t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.url+path, r)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// get GETs path and wants 200.
func (c restClient) get(path string) []byte {
	c.t.Helper()
	status, _, b := c.do(http.MethodGet, path, "")
	if status != http.StatusOK {
		c.t.Fatalf("GET %s: %d %s", path, status, b)
	}
	return b
}

// normal is a JSON value re-encoded with sorted keys and exact numbers.
func normal(t *testing.T, v any) string {
	t.Helper()
	b, ok := v.([]byte)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		t.Fatalf("not JSON: %v: %.300s", err, b)
	}
	out, _ := json.Marshal(x)
	return string(out)
}

// same fails unless body is the JSON of want.
func (c restClient) same(path string, body []byte, want any) {
	c.t.Helper()
	if got, exp := normal(c.t, body), normal(c.t, want); got != exp {
		c.t.Errorf("GET %s:\n got  %.600s\n want %.600s", path, got, exp)
	}
}

// restSample picks resources of every collection: some of each kind of id
// the metadata lists, and graduate students, undergraduates and
// publications (with co-authors) from the oracle's rows.
func restSample(t *testing.T, f *fixture) map[string][]int64 {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(14, 14))
	pick := func(l []int64, n int) []int64 {
		if len(l) <= n {
			return l
		}
		out := []int64{l[0], l[len(l)-1]}
		for len(out) < n {
			out = append(out, l[r.IntN(len(l))])
		}
		return out
	}
	meta := func(kind string) []int64 { return f.meta.IDs[kind] }
	grads, err := f.data.Graduates(ctx, source.GradQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var gradNrs, ugradNrs, pubNrs []int64
	for _, g := range grads {
		gradNrs = append(gradNrs, g.Nr)
	}
	for _, dept := range pick(meta("departmentID"), 4) {
		us, _ := f.data.UndergraduatesOfDepartment(ctx, dept)
		for _, u := range us {
			ugradNrs = append(ugradNrs, u.Nr)
		}
	}
	for _, fac := range pick(meta("facultyID"), 6) {
		ps, _ := f.data.PublicationsBy(ctx, fac, nil)
		for _, p := range ps {
			if co, _ := f.data.CoAuthors(ctx, p.Nr); len(co) > 0 || len(pubNrs) == 0 {
				pubNrs = append(pubNrs, p.Nr)
			}
		}
	}
	return map[string][]int64{
		"universities":          append(pick(meta("universityID"), 5), 0),
		"departments":           pick(meta("departmentID"), 6),
		"researchGroups":        pick(meta("researchGroupID"), 5),
		"faculty":               pick(meta("facultyID"), 7),
		"professors":            pick(meta("professorID"), 6),
		"lecturers":             pick(meta("lecturerID"), 6),
		"graduateStudents":      pick(gradNrs, 7),
		"undergraduateStudents": pick(ugradNrs, 7),
		"publications":          pick(pubNrs, 6),
		"graduateCourses":       pick(meta("graduateCourseID"), 6),
		"undergraduateCourses":  pick(meta("undergraduateCourseID"), 6),
	}
}

// testREST: on every database, the REST API's resources of every
// collection, their lists, sparse fieldsets, embeds and pages are the
// oracle's rows, the fields in the schema's order.
func testREST(t *testing.T, f *fixture) {
	ids := restSample(t, f)
	if got, want := slices.Sorted(maps.Keys(ids)), slices.Sorted(maps.Keys(oracleCollections)); !slices.Equal(got, want) {
		t.Fatalf("sampled %v, the oracle has %v", got, want)
	}
	for _, d := range f.dbs {
		t.Run(d.name, func(t *testing.T) {
			c := serveREST(t, d.url)
			for _, name := range slices.Sorted(maps.Keys(oracleCollections)) {
				for i, nr := range ids[name] {
					checkResource(c, f.data, name, nr, i < 2)
				}
				if status, _, _ := c.do(http.MethodGet, fmt.Sprintf("/rest/%s/999999999999", name), ""); status != http.StatusNotFound {
					t.Errorf("GET /rest/%s/999999999999: %d, want 404", name, status)
				}
			}
			checkConnections(c, f.data, ids["universities"])
			checkKindMismatch(c, ids)
			checkListings(c, f)
		})
	}
}

// checkResource compares resource nr of collection name, each of its lists,
// and (when deep) a sparse fieldset, its embeds and a page of each list
// with a to-one embed.
func checkResource(c restClient, d *inmem.Data, name string, nr int64, deep bool) {
	c.t.Helper()
	ctx := context.Background()
	oc := oracleCollections[name]
	want, err := oc.get(ctx, d, nr)
	if err != nil || want == nil {
		c.t.Fatalf("the oracle has no %s %d (%v)", name, nr, err)
	}
	path := fmt.Sprintf("/rest/%s/%d", name, nr)
	body := c.get(path)
	c.same(path, body, want)
	checkOrder(c.t, name, body)
	for _, list := range slices.Sorted(maps.Keys(oc.lists)) {
		l, err := oc.lists[list](ctx, d, nr)
		if err != nil {
			c.t.Fatal(err)
		}
		c.same(path+"/"+list, c.get(path+"/"+list), l)
		if deep {
			checkPage(c, d, name, list, nr, l)
		}
	}
	if !deep {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if k != "id" {
			c.same(path+"?fields="+k, c.get(path+"?fields="+k), obj{"id": want["id"], k: want[k]})
			break
		}
	}
	for ref, target := range oc.refs {
		exp := maps.Clone(want)
		if id, ok := want[ref].(string); ok {
			var tnr int64
			fmt.Sscan(id, &tnr)
			exp[ref], _ = oracleCollections[target].get(ctx, d, tnr)
		}
		c.same(path+"?embed="+ref, c.get(path+"?embed="+ref), exp)
	}
	for list, fn := range oc.lists {
		l, _ := fn(ctx, d, nr)
		c.same(path+"?fields=id&embed="+list, c.get(path+"?fields=id&embed="+list), obj{"id": want["id"], list: l})
	}
}

// checkPage compares a page of a list (limit 3, offset 1) whose items embed
// their first to-one field, and its items' ids under ?fields=id.
func checkPage(c restClient, d *inmem.Data, name, list string, nr int64, l []obj) {
	c.t.Helper()
	ctx := context.Background()
	target := listTarget(name, list)
	page := l[min(1, len(l)):min(4, len(l))]
	var ref string
	if tc := oracleCollections[target]; tc != nil {
		for _, r := range slices.Sorted(maps.Keys(tc.refs)) {
			ref = r
			break
		}
	}
	path := fmt.Sprintf("/rest/%s/%d/%s?limit=3&offset=1", name, nr, list)
	want := []obj{}
	for _, item := range page {
		it := maps.Clone(item)
		if ref != "" {
			if id, ok := item[ref].(string); ok {
				var tnr int64
				fmt.Sscan(id, &tnr)
				it[ref], _ = oracleCollections[oracleCollections[target].refs[ref]].get(ctx, d, tnr)
			}
		}
		want = append(want, it)
	}
	if ref != "" {
		path += "&embed=" + ref
	}
	c.same(path, c.get(path), want)
}

// listTarget is the collection of the items of a list.
func listTarget(name, list string) string {
	switch list {
	case "undergraduateDegreeObtainedByFaculty", "mastergraduateDegreeObtainers", "doctoralDegreeObtainers", "faculties":
		return "faculty"
	case "undergraduateDegreeObtainedBystudent", "supervisedGraduateStudents":
		return "graduateStudents"
	case "supervisedUndergraduateStudents":
		return "undergraduateStudents"
	case "teacherOfGraduateCourses", "takeGraduateCourses":
		return "graduateCourses"
	case "teacherOfUndergraduateCourses", "assistCourses", "takeCourses":
		return "undergraduateCourses"
	case "authors":
		return ""
	}
	return list // departments, researchGroups, professors, lecturers, graduateStudents, ...
}

// restTypes are the schema types of the collections.
var restTypes = map[string]string{"universities": "University", "departments": "Department", "researchGroups": "ResearchGroup",
	"faculty": "Faculty", "professors": "Professor", "lecturers": "Lecturer", "graduateStudents": "GraduateStudent",
	"undergraduateStudents": "UndergraduateStudent", "publications": "Publication", "graduateCourses": "GraduateCourse",
	"undergraduateCourses": "UndergraduateCourse"}

// checkOrder: a resource's keys are its type's fields that are not lists,
// in the schema's order (__typename, of the interfaces, after id).
func checkOrder(t *testing.T, name string, body []byte) {
	t.Helper()
	def := workload.Schema().Types[restTypes[name]]
	var want []string
	for _, f := range def.Fields {
		ft := workload.Schema().Types[f.Type.Name()]
		if f.Type.Elem == nil && (ft.Kind == ast.Scalar || ft.Kind == ast.Object || ft.Kind == ast.Interface) && f.Name != "graduateStudentConnection" {
			want = append(want, f.Name)
		}
	}
	if def.Kind == ast.Interface {
		want = slices.Insert(want, 1, "__typename")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var got []string
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		got = append(got, k.(string))
		var skip any
		dec.Decode(&skip)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: keys %v, want the schema's %v", name, got, want)
	}
}

// checkConnections compares graduateStudentConnection with the oracle's aggregates.
func checkConnections(c restClient, d *inmem.Data, univs []int64) {
	for _, u := range univs {
		a, err := d.GraduateAges(context.Background(), u)
		if err != nil {
			c.t.Fatal(err)
		}
		avg := 0.0
		if a.Count > 0 {
			avg = float64(a.Sum) / float64(a.Count)
		}
		want := obj{"aggregate": obj{"count": a.Count, "age": obj{"sum": a.Sum, "avg": avg, "max": a.Max, "min": a.Min}}}
		path := fmt.Sprintf("/rest/universities/%d/graduateStudentConnection", u)
		c.same(path, c.get(path), want)
	}
}

// checkKindMismatch: a lecturer is no professor and a professor no
// lecturer, as GraphQL's lecturer(nr) is null for a professor.
func checkKindMismatch(c restClient, ids map[string][]int64) {
	for _, p := range []string{
		fmt.Sprintf("/rest/lecturers/%d", ids["professors"][0]),
		fmt.Sprintf("/rest/professors/%d", ids["lecturers"][0]),
		fmt.Sprintf("/rest/lecturers/%d/publications", ids["professors"][0]),
	} {
		if status, _, b := c.do(http.MethodGet, p, ""); status != http.StatusNotFound {
			c.t.Errorf("GET %s: %d %s, want 404", p, status, b)
		}
	}
}

// checkListings: GET /rest/C lists every row of C by id, paged by limit
// and offset, for the collections whose ids the metadata lists.
func checkListings(c restClient, f *fixture) {
	ctx := context.Background()
	for name, kind := range map[string]string{"universities": "universityID", "departments": "departmentID",
		"researchGroups": "researchGroupID", "faculty": "facultyID", "lecturers": "lecturerID", "graduateCourses": "graduateCourseID"} {
		all := slices.Sorted(slices.Values(f.meta.IDs[kind]))
		for _, page := range [][2]int{{0, 5}, {len(all) - 2, 5}, {len(all), 5}} {
			want := []obj{}
			for _, nr := range all[page[0]:min(len(all), page[0]+page[1])] {
				o, err := oracleCollections[name].get(ctx, f.data, nr)
				if err != nil {
					c.t.Fatal(err)
				}
				want = append(want, o)
			}
			path := fmt.Sprintf("/rest/%s?offset=%d&limit=%d", name, page[0], page[1])
			c.same(path, c.get(path), want)
		}
	}
	if n := strings.Count(string(c.get("/rest/departments")), `"subOrganizationOf"`); n != len(f.meta.IDs["departmentID"]) {
		c.t.Errorf("GET /rest/departments: %d departments, want %d", n, len(f.meta.IDs["departmentID"]))
	}
}
