package queryfile

import "hash/maphash"

// idSet is the set of a file's ids read so far: a table of the entries'
// indexes (plus one; 0 is empty), open-addressed by the id's hash, each
// beside the hash's top 32 bits so that an id is compared with another
// entry's only when those agree. It grows as a map does, to stay at most
// half full; it takes the reader one hash and, mostly, one probe per id
// where a map[string] took some twice that.
type idSet struct {
	slots []uint64 // hash>>32<<32 | index+1
	n     int
	seed  maphash.Seed
}

// newIDSet returns a set sized for n ids.
func newIDSet(n int) idSet {
	size := 8
	for size < 2*n {
		size *= 2
	}
	return idSet{slots: make([]uint64, size), seed: maphash.MakeSeed()}
}

// add adds entries[i]'s id, or returns the index of the entry that has it
// already (dup).
func (s *idSet) add(entries []Entry, i int) (prev int, dup bool) {
	if 2*(s.n+1) > len(s.slots) {
		s.grow(entries)
	}
	id := entries[i].ID
	h := maphash.String(s.seed, id)
	tag := h >> 32 << 32
	mask := uint64(len(s.slots) - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		v := s.slots[j]
		if v == 0 {
			s.slots[j] = tag | uint64(i+1)
			s.n++
			return 0, false
		}
		if v>>32<<32 == tag && entries[int(uint32(v))-1].ID == id {
			return int(uint32(v)) - 1, true
		}
	}
}

// grow doubles the table (or makes its first).
func (s *idSet) grow(entries []Entry) {
	old := s.slots
	if len(old) == 0 {
		*s = newIDSet(8)
		return
	}
	s.slots = make([]uint64, 2*len(old))
	mask := uint64(len(s.slots) - 1)
	for _, v := range old {
		if v == 0 {
			continue
		}
		h := maphash.String(s.seed, entries[int(uint32(v))-1].ID)
		j := h & mask
		for s.slots[j] != 0 {
			j = (j + 1) & mask
		}
		s.slots[j] = v
	}
}
