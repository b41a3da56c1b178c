package profiles

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/gqlbench/gqlbench/runfile"
)

// synthetic is a profile of one sample type whose samples are the
// functions named with their values, one stack frame each.
func synthetic(typ, unit string, period int64, values map[string]int64) *profile.Profile {
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: typ, Unit: unit}}, Period: period,
		PeriodType: &profile.ValueType{Type: typ, Unit: unit}}
	id := uint64(1)
	for name, v := range values {
		fn := &profile.Function{ID: id, Name: name, SystemName: name}
		loc := &profile.Location{ID: id, Line: []profile.Line{{Function: fn}}}
		p.Function, p.Location = append(p.Function, fn), append(p.Location, loc)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{v}})
		id++
	}
	return p
}

func writeSynthetic(t *testing.T, path string, p *profile.Profile) {
	t.Helper()
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// shard writes one run file's profiles as a Recorder saves them: its CPU
// profile and its heap at both ends (the allocations between them: end −
// base), under dir/name.
func shard(t *testing.T, dir, name string, cpu, base, end map[string]int64, seconds float64) Shard {
	t.Helper()
	writeSynthetic(t, filepath.Join(dir, name+".cpu.pprof"), synthetic("cpu", "nanoseconds", 10e6, cpu))
	writeSynthetic(t, filepath.Join(dir, name+".heap-base.pprof"), synthetic("alloc_space", "bytes", 512<<10, base))
	writeSynthetic(t, filepath.Join(dir, name+".heap.pprof"), synthetic("alloc_space", "bytes", 512<<10, end))
	return Shard{Dir: dir, Profiles: &runfile.Profiles{
		CPU:  &runfile.Profile{File: name + ".cpu.pprof", Sample: "cpu", Windows: 2, Seconds: seconds},
		Heap: &runfile.Profile{File: name + ".heap.pprof", Sample: "alloc_space", Seconds: seconds},
	}}
}

func value(fs []runfile.ProfileFunc, fn string) int64 {
	for _, f := range fs {
		if f.Function == fn {
			return f.Flat
		}
	}
	return -1
}

// TestMerge: two shards' profiles merge into one beside the merged run
// file — the CPU time and the allocations between the heap snapshots of
// both added up per function — written where go tool pprof reads them; a
// shard whose files are gone is named and left out; no profiles, nothing.
func TestMerge(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	a := shard(t, in, "a", map[string]int64{"main.parse": 30e6, "main.execute": 50e6},
		map[string]int64{"main.parse": 1000}, map[string]int64{"main.parse": 5000, "main.execute": 2000}, 3)
	b := shard(t, filepath.Join(in), "b", map[string]int64{"main.execute": 70e6, "main.write": 10e6},
		map[string]int64{"main.execute": 500}, map[string]int64{"main.execute": 4500, "main.write": 100}, 4)
	ps, err := Merge([]Shard{a, {}, b}, out, "merged", 5)
	if err != nil || ps == nil || ps.Error != "" || ps.CPU == nil || ps.Heap == nil {
		t.Fatalf("%v %+v", err, ps)
	}
	if ps.CPU.Total != 160e6 || value(ps.CPU.Flat, "main.execute") != 120e6 || value(ps.CPU.Flat, "main.parse") != 30e6 ||
		value(ps.CPU.Flat, "main.write") != 10e6 || ps.CPU.Windows != 4 || ps.CPU.Seconds != 4 {
		t.Errorf("cpu %+v", ps.CPU)
	}
	if ps.Heap.Total != 4000+2000+4000+100 || value(ps.Heap.Flat, "main.parse") != 4000 || value(ps.Heap.Flat, "main.execute") != 6000 {
		t.Errorf("heap %+v", ps.Heap)
	}
	for _, f := range []struct{ file, sample string }{{"merged.cpu.pprof", "cpu"}, {"merged.heap.pprof", "alloc_space"}, {"merged.heap-base.pprof", "alloc_space"}} {
		back, err := ReadFile(filepath.Join(out, f.file), f.sample, 5)
		if err != nil || back.Sample != f.sample {
			t.Errorf("%s: %v %+v", f.file, err, back)
		}
	}
	if ps.CPU.File != "merged.cpu.pprof" || ps.Heap.File != "merged.heap.pprof" {
		t.Errorf("files %q %q", ps.CPU.File, ps.Heap.File)
	}

	// b's CPU profile gone: a's alone, b named.
	os.Remove(filepath.Join(in, "b.cpu.pprof"))
	ps, err = Merge([]Shard{a, b}, out, "partial", 5)
	if err != nil || ps.CPU == nil || ps.CPU.Total != 80e6 || !strings.Contains(ps.Error, "file 2: cpu") || ps.Heap == nil {
		t.Errorf("%v %+v", err, ps)
	}
	if ps, err := Merge([]Shard{{Dir: in}, {Dir: in}}, out, "none", 5); ps != nil || err != nil {
		t.Errorf("no profiles: %+v %v", ps, err)
	}
}
