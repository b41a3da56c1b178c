package dataset

import (
	"encoding/json"
	"fmt"
)

// IDList is an ascending list of ids. In JSON it is written as runs of
// arithmetic progressions, [first, step, count] each, because the id
// encoding makes long runs (a department's full professors are D·1000+1,
// +11, +21, ...): the metadata of sf=100 stays a few hundred kilobytes
// instead of megabytes, and fits a MySQL packet at any scale.
type IDList []int64

// MarshalJSON implements json.Marshaler.
func (l IDList) MarshalJSON() ([]byte, error) {
	var runs [][3]int64
	for i := 0; i < len(l); {
		step, n := int64(1), 1
		if i+1 < len(l) {
			step = l[i+1] - l[i]
			for n = 2; i+n < len(l) && l[i+n]-l[i+n-1] == step; n++ {
			}
		}
		runs = append(runs, [3]int64{l[i], step, int64(n)})
		i += n
	}
	if runs == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(runs)
}

// UnmarshalJSON implements json.Unmarshaler.
func (l *IDList) UnmarshalJSON(b []byte) error {
	var runs [][3]int64
	if err := json.Unmarshal(b, &runs); err != nil {
		return fmt.Errorf("id list: want [[first, step, count], ...]: %w", err)
	}
	out := IDList{}
	for _, r := range runs {
		if r[2] < 1 || r[2] > 1<<24 || len(out)+int(r[2]) > 1<<26 {
			return fmt.Errorf("id list: bad run %v", r)
		}
		for k := int64(0); k < r[2]; k++ {
			out = append(out, r[0]+k*r[1])
		}
	}
	*l = out
	return nil
}
