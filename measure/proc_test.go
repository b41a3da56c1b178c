package measure

import (
	"os"
	"testing"
)

func TestProcSelf(t *testing.T) {
	p, err := NewProc(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	x := 0
	for i := range 20_000_000 {
		x += i
	}
	_ = x
	s := p.Sample()
	if s.Gone || s.RSSBytes <= 0 || s.CPUPercent < 0 || p.Name == "" {
		t.Errorf("sample %+v of %q", s, p.Name)
	}
	if _, err := NewProc(1 << 30); err == nil {
		t.Error("a process that does not exist can be watched")
	}
}
