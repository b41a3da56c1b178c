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

// TestScansWordAtATime: the scans that read eight bytes at a time find
// what a byte-by-byte loop finds, at every offset, for every byte value
// placed at every position of slices of every length up to 24.
func TestScansWordAtATime(t *testing.T) {
	naivePlain := func(b []byte, i int) int {
		for ; i < len(b); i++ {
			if c := b[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
				break
			}
		}
		return i
	}
	naiveQuote := func(b []byte, i int) int {
		for ; i < len(b) && b[i] != '"' && b[i] != '\\'; i++ {
		}
		return i
	}
	for n := 0; n <= 24; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a' + byte(i%26)
		}
		for pos := 0; pos < n; pos++ {
			for v := 0; v < 256; v++ {
				b[pos] = byte(v)
				// a second special byte further on: the first must win
				if pos+3 < n {
					b[pos+3] = 0x01
				}
				for from := 0; from <= n; from++ {
					if got, want := PlainEnd(b, from), naivePlain(b, from); got != want {
						t.Fatalf("PlainEnd(%q, %d) = %d, want %d", b, from, got, want)
					}
					if got, want := quoteOrEscape(b, from), naiveQuote(b, from); got != want {
						t.Fatalf("quoteOrEscape(%q, %d) = %d, want %d", b, from, got, want)
					}
				}
				if pos+3 < n {
					b[pos+3] = 'a' + byte((pos+3)%26)
				}
			}
			b[pos] = 'a' + byte(pos%26)
		}
	}
}

// TestStringEnd: escapes (of quotes and of backslashes) in and across
// eight-byte words, unterminated strings.
func TestStringEnd(t *testing.T) {
	for _, c := range []struct {
		s   string
		end int
		ok  bool
	}{
		{`""`, 2, true},
		{`"abc"x`, 5, true},
		{`"abcdefghijklmnop"`, 18, true},
		{`"abcdefg\"hijklmno"`, 19, true},
		{`"abcdef\\"hijklmno"`, 10, true},
		{`"abcdefg\\\"hij"`, 16, true},
		{`"abcdefghijklmnopq\`, 0, false},
		{`"abcdefghijklmnopq\"`, 0, false},
		{`"abc`, 0, false},
		{`"`, 0, false},
	} {
		end, ok := StringEnd([]byte(c.s), 0)
		if end != c.end || ok != c.ok {
			t.Errorf("StringEnd(%s) = %d, %v; want %d, %v", c.s, end, ok, c.end, c.ok)
		}
	}
}
