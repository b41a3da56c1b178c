package trace

import (
	"math/bits"
	"slices"
	"time"
)

// AppendMillis appends d in milliseconds with decimals decimals (0 to 6;
// the last one rounded), as a Server-Timing dur, without floating point:
// it is on every traced response's path. A negative d is 0.
func AppendMillis(b []byte, d time.Duration, decimals int) []byte {
	decimals = min(max(decimals, 0), 6)
	unit := pow10[6-decimals] // nanoseconds per last digit
	n := (uint64(max(d, 0)) + unit/2) / unit
	scale := pow10[decimals]
	b = appendUint(b, n/scale)
	if decimals == 0 {
		return b
	}
	// The fraction with a leading 1, so that its zeros are written; the
	// 1 becomes the point.
	at := len(b)
	b = appendUint(b, n%scale+scale)
	b[at] = '.'
	return b
}

var pow10 = [...]uint64{1, 10, 100, 1000, 10000, 100000, 1000000, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// smalls is "00" to "99", two digits at a time.
const smalls = "00010203040506070809" + "10111213141516171819" + "20212223242526272829" +
	"30313233343536373839" + "40414243444546474849" + "50515253545556575859" +
	"60616263646566676869" + "70717273747576777879" + "80818283848586878889" +
	"90919293949596979899"

// AppendUint appends v in decimal (a negative v as 0), as
// strconv.AppendInt does for a non-negative one.
func AppendUint(b []byte, v int64) []byte { return appendUint(b, uint64(max(v, 0))) }

// appendUint appends u in decimal: its digits counted first, then written
// in place from the last, two at a time.
func appendUint(b []byte, u uint64) []byte {
	if u < 10 {
		return append(b, '0'+byte(u))
	}
	n := (bits.Len64(u)*1233)>>12 + 1 // digits, or one too many
	if u < pow10[n-1] {
		n--
	}
	b = slices.Grow(b, n)
	b = b[:len(b)+n]
	d := b[len(b)-n:]
	i := n
	for u >= 100 {
		r := u % 100 * 2
		u /= 100
		i -= 2
		d[i], d[i+1] = smalls[r], smalls[r+1]
	}
	if u >= 10 {
		d[1], d[0] = smalls[2*u+1], smalls[2*u]
	} else {
		d[0] = '0' + byte(u)
	}
	return b
}
