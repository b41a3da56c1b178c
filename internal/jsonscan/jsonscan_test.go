package jsonscan

import "testing"

func TestValueEnd(t *testing.T) {
	for _, c := range []struct {
		in   string
		end  int
		okay bool
	}{
		{`"a\"b",`, 6, true},
		{`{"a":[1,{"b":"}"}]} `, 19, true},
		{`[1,2]`, 5, true},
		{`123,`, 3, true},
		{`true}`, 4, true},
		{`{"a":1`, 0, false},
		{`"open`, 0, false},
		{`,`, 0, false},
		{``, 0, false},
	} {
		end, ok := ValueEnd([]byte(c.in), 0)
		if end != c.end || ok != c.okay {
			t.Errorf("ValueEnd(%q) = %d, %v; want %d, %v", c.in, end, ok, c.end, c.okay)
		}
	}
	if i := SkipSpace([]byte(" \t\r\nx"), 0); i != 4 {
		t.Errorf("SkipSpace: %d", i)
	}
}
