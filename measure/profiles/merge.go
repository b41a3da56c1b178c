package profiles

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/gqlbench/gqlbench/runfile"
)

// Shard is one run file's profiles (its summary's) and the directory its
// profile files are in (the run file's).
type Shard struct {
	Dir      string
	Profiles *runfile.Profiles
}

// Merge merges the shards' profiles — the run files of load generators
// that ran at the same time (load merge), each of which fetched the
// profiles of its server — into Dir/Name.cpu.pprof, Dir/Name.heap.pprof
// and Dir/Name.heap-base.pprof, and reads their tops. The CPU profiles
// are added up (pprof's merge: the same function's samples summed), as
// are the heap snapshots at each end, so that the allocations between
// them are every shard's. Seconds is the longest shard's (they ran at
// the same time), Windows every shard's CPU windows. A shard whose
// profile is missing or does not parse is left out and named in Error;
// with no profile at all Merge returns nil and no error.
func Merge(shards []Shard, dir, name string, top int) (*runfile.Profiles, error) {
	if top <= 0 {
		top = DefaultTop
	}
	var cpus, heaps, bases []*profile.Profile
	var errs []string
	out := &runfile.Profiles{}
	var cpuSec, heapSec float64
	windows := 0
	found := false
	for i, s := range shards {
		if s.Profiles == nil {
			continue
		}
		found = true
		if s.Profiles.Error != "" {
			errs = append(errs, fmt.Sprintf("file %d: %s", i+1, s.Profiles.Error))
		}
		if c := s.Profiles.CPU; c != nil {
			p, err := readProfile(filepath.Join(s.Dir, c.File))
			if err != nil {
				errs = append(errs, fmt.Sprintf("file %d: cpu: %v", i+1, err))
			} else {
				cpus = append(cpus, p)
				windows += c.Windows
				cpuSec = max(cpuSec, c.Seconds)
			}
		}
		if h := s.Profiles.Heap; h != nil {
			end, err := readProfile(filepath.Join(s.Dir, h.File))
			var base *profile.Profile
			if err == nil {
				base, err = readProfile(filepath.Join(s.Dir, baseName(h.File)))
			}
			if err != nil {
				errs = append(errs, fmt.Sprintf("file %d: heap: %v", i+1, err))
			} else {
				heaps, bases = append(heaps, end), append(bases, base)
				heapSec = max(heapSec, h.Seconds)
			}
		}
	}
	if !found {
		return nil, nil
	}
	if len(cpus) > 0 {
		p, err := mergeTop(cpus, filepath.Join(dir, name+".cpu.pprof"), "cpu", top)
		if err != nil {
			errs = append(errs, "cpu: "+err.Error())
		} else {
			p.Windows, p.Seconds = windows, cpuSec
			out.CPU = p
		}
	}
	if len(heaps) > 0 {
		p, err := mergeHeaps(heaps, bases, dir, name, top)
		if err != nil {
			errs = append(errs, "heap: "+err.Error())
		} else {
			p.Seconds = heapSec
			out.Heap = p
		}
	}
	out.Error = strings.Join(errs, "; ")
	if out.CPU == nil && out.Heap == nil {
		return out, errors.New("no profile of the files could be merged: " + out.Error)
	}
	return out, nil
}

// mergeTop merges ps, writes the result to path and reads its top.
func mergeTop(ps []*profile.Profile, path, sample string, n int) (*runfile.Profile, error) {
	m, err := profile.Merge(ps)
	if err != nil {
		return nil, err
	}
	if err := writeProfile(path, m); err != nil {
		return nil, err
	}
	t, err := Top(m, sample, n)
	if err != nil {
		return nil, err
	}
	t.File = filepath.Base(path)
	return t, nil
}

// mergeHeaps writes the merged snapshots at each end and reads the top
// of the bytes allocated between them.
func mergeHeaps(ends, bases []*profile.Profile, dir, name string, n int) (*runfile.Profile, error) {
	end, err := profile.Merge(ends)
	if err != nil {
		return nil, err
	}
	base, err := profile.Merge(bases)
	if err != nil {
		return nil, err
	}
	if err := writeProfile(filepath.Join(dir, name+".heap.pprof"), end); err != nil {
		return nil, err
	}
	if err := writeProfile(filepath.Join(dir, name+".heap-base.pprof"), base); err != nil {
		return nil, err
	}
	neg := base.Copy()
	neg.Scale(-1)
	d, err := profile.Merge([]*profile.Profile{end.Copy(), neg})
	if err != nil {
		return nil, err
	}
	t, err := Top(d, "alloc_space", n)
	if err != nil {
		return nil, err
	}
	t.File = name + ".heap.pprof"
	return t, nil
}

// baseName is the heap snapshot at the start beside the one at the end
// (RUN.heap.pprof → RUN.heap-base.pprof).
func baseName(heap string) string {
	return strings.TrimSuffix(heap, ".heap.pprof") + ".heap-base.pprof"
}

func readProfile(path string) (*profile.Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}
