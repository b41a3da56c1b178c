package runfile

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gqlbench/gqlbench/measure"
)

// StandardHist is the configuration of every histogram in a run file.
var StandardHist = HistConfig{Unit: "ns", Lowest: measure.HistLowest, Highest: measure.HistHighest, Digits: measure.HistDigits}

// EncodeHist returns h in HdrHistogram's V2 compressed encoding, base64: the
// form every HdrHistogram implementation reads. An empty or nil histogram
// encodes as "". The encoding is hdrhistogram-go's Encode's, to the byte
// once inflated (a test checks), compressed by Huffman coding alone (see
// encoders) with a reused zlib writer and counts array: Encode makes a new
// writer per histogram, about 1 MB at its best compression, which with an
// interval line a second of tens of templates was most of what the load
// generator allocated.
func EncodeHist(h *hdrhistogram.Histogram) (string, error) {
	if h == nil || h.TotalCount() == 0 {
		return "", nil
	}
	e := encoders.Get().(*encoder)
	defer encoders.Put(e)
	// e.h counts into e.counts: Merge copies h's counts there, where Export
	// would allocate a copy.
	e.h.Reset()
	e.h.Merge(h)
	return e.encode(e.counts, 0)
}

// EncodeCounts is EncodeHist of the recorder's histogram h, to the byte,
// written straight from its counts: hdrhistogram-go's Merge (and its
// Encode) walk all 33,792 indexes working out each one's values, a few
// million instructions a histogram, an interval.
func EncodeCounts(h *measure.Hist) (string, error) {
	if h == nil || h.TotalCount() == 0 {
		return "", nil
	}
	e := encoders.Get().(*encoder)
	defer encoders.Put(e)
	counts, lo := h.Counts()
	return e.encode(counts, lo)
}

// encode encodes the counts array whose counts from index lo on are
// counts, every other count zero.
func (e *encoder) encode(counts []int64, lo int) (string, error) {
	b := append(e.raw[:0], make([]byte, v2HeaderBytes)...)
	// Runs of zeros are written as a negative count unless one long, up to
	// the last count (hdrhistogram-go writes up to Max's index): a run is
	// written when a count follows it.
	zeros := int64(lo)
	for _, c := range counts {
		if c == 0 {
			zeros++
			continue
		}
		switch {
		case zeros == 1:
			b = append(b, 0) // zigzag 0
		case zeros > 1:
			b = appendZigzag(b, -zeros)
		}
		zeros = 0
		if uint64(c) < 64 { // one byte, 2c: most counts
			b = append(b, byte(c<<1))
		} else {
			b = appendZigzag(b, c)
		}
	}
	binary.BigEndian.PutUint32(b, v2Cookie|0x10)
	binary.BigEndian.PutUint32(b[4:], uint32(len(b)-v2HeaderBytes))
	binary.BigEndian.PutUint32(b[8:], 1) // normalizing index offset
	binary.BigEndian.PutUint32(b[12:], measure.HistDigits)
	binary.BigEndian.PutUint64(b[16:], uint64(measure.HistLowest))
	binary.BigEndian.PutUint64(b[24:], uint64(measure.HistHighest))
	binary.BigEndian.PutUint64(b[32:], math.Float64bits(1)) // integer to double ratio
	e.raw = b
	e.z.Reset()
	var head [8]byte // cookie and length, filled in below
	e.z.Write(head[:])
	e.zw.Reset(&e.z)
	if _, err := e.zw.Write(b); err != nil {
		return "", err
	}
	if err := e.zw.Close(); err != nil {
		return "", err
	}
	z := e.z.Bytes()
	binary.BigEndian.PutUint32(z, v2CompressedCookie|0x10)
	binary.BigEndian.PutUint32(z[4:], uint32(len(z)-8))
	// into a reused buffer: the string is then the one allocation
	e.b64 = slices.Grow(e.b64[:0], base64.StdEncoding.EncodedLen(len(z)))[:base64.StdEncoding.EncodedLen(len(z))]
	base64.StdEncoding.Encode(e.b64, z)
	return string(e.b64), nil
}

// encoder is EncodeHist's reusable state.
type encoder struct {
	counts []int64
	h      *hdrhistogram.Histogram // over counts
	raw    []byte
	z      bytes.Buffer
	b64    []byte
	zw     *zlib.Writer
}

var encoders = sync.Pool{New: func() any {
	e := &encoder{counts: make([]int64, countsLen)}
	e.h = histOf(e.counts)
	// Huffman coding only: an encoding's bytes are counts as zigzag
	// varints, small numbers that seldom repeat as strings, so LZ77's
	// search for matches finds little and was most of the encoding's cost.
	// Measured on 13,000 latencies (40 µs–3 ms, 3,175 bytes of counts):
	// 1,561 compressed bytes in a third of the time of the best
	// compression, which hdrhistogram-go's Encode uses (1,584 bytes). Any
	// zlib reader reads it: every HdrHistogram implementation does.
	e.zw, _ = zlib.NewWriterLevel(&e.z, zlib.HuffmanOnly) // a valid level: no error
	return e
}}

// appendZigzag appends v as one of HdrHistogram's ZigZag LEB128 values (at
// most 9 bytes, the ninth holding 8 bits).
func appendZigzag(b []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for k := 0; k < 8; k++ {
		if u < 0x80 {
			return append(b, byte(u))
		}
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

// The V2 encoding's constants (HdrHistogram's EncodableHistogram).
const (
	v2Cookie           = 0x1c849303
	v2CompressedCookie = 0x1c849304
	v2HeaderBytes      = 40
)

// countsLen is the length of the counts array of StandardHist (a
// constant: making a histogram to read it cost every command 0.3 ms and
// 541 KB at its start).
const countsLen = measure.HistCountsLen

// DecodeHist decodes a histogram written by EncodeHist (or any HdrHistogram
// library's V2 compressed encoding of gqlbench's configuration). "" decodes
// to nil.
func DecodeHist(s string) (*hdrhistogram.Histogram, error) {
	if s == "" {
		return nil, nil
	}
	counts := make([]int64, countsLen)
	if err := addCounts(counts, s); err != nil {
		return nil, err
	}
	return histOf(counts), nil
}

// ValidateHist checks an encoded histogram without building it.
func ValidateHist(s string) error { return decodeCounts(s, func(int, int64) {}) }

// histOf returns the histogram of gqlbench's configuration with these
// counts (which it takes over).
func histOf(counts []int64) *hdrhistogram.Histogram {
	return hdrhistogram.Import(&hdrhistogram.Snapshot{
		LowestTrackableValue:  measure.HistLowest,
		HighestTrackableValue: measure.HistHighest,
		SignificantFigures:    measure.HistDigits,
		Counts:                counts,
	})
}

// addCounts adds the encoded histogram s into counts (of length countsLen),
// exactly: this is how histograms are merged without building each one.
func addCounts(counts []int64, s string) error {
	var overflow bool
	err := decodeCounts(s, func(i int, c int64) {
		if counts[i] += c; counts[i] < 0 {
			overflow = true
		}
	})
	if err == nil && overflow {
		err = errors.New("histogram: count overflows")
	}
	return err
}

// addHistCounts adds the recorder's histogram h into *dst (of length
// countsLen, allocated on first use), exactly as addCounts adds its
// encoding, without decoding it.
func addHistCounts(dst *[]int64, h *measure.Hist) error {
	src, lo := h.Counts()
	if len(src) == 0 {
		return nil
	}
	if *dst == nil {
		*dst = make([]int64, countsLen)
	}
	var overflow bool
	d := (*dst)[lo : lo+len(src)]
	for i, c := range src {
		if c != 0 {
			d[i] += c
			if d[i] < 0 {
				overflow = true
			}
		}
	}
	if overflow {
		return errors.New("histogram: count overflows")
	}
	return nil
}

// decodeCounts decodes an encoded histogram, calling add for every
// non-empty bucket (by index in the counts array). It checks everything
// before use: the file may be hostile or corrupt, and a crafted header must
// neither panic nor exhaust memory.
func decodeCounts(s string, add func(i int, c int64)) error {
	if s == "" {
		return nil
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return fmt.Errorf("histogram: not base64: %w", err)
	}
	if len(raw) < 8 {
		return errors.New("histogram: too short")
	}
	if binary.BigEndian.Uint32(raw)&^0xf0 != v2CompressedCookie {
		return errors.New("histogram: not a V2 compressed HdrHistogram")
	}
	n := binary.BigEndian.Uint32(raw[4:])
	if uint64(n) > uint64(len(raw)-8) {
		return errors.New("histogram: truncated")
	}
	z, err := zlib.NewReader(bytes.NewReader(raw[8 : 8+n]))
	if err != nil {
		return fmt.Errorf("histogram: %w", err)
	}
	// A count takes at most 9 bytes: bound what a zlib bomb can make us read.
	limit := int64(v2HeaderBytes + 9*countsLen + 1)
	payload, err := io.ReadAll(io.LimitReader(z, limit))
	if err != nil {
		return fmt.Errorf("histogram: %w", err)
	}
	if int64(len(payload)) >= limit {
		return errors.New("histogram: payload too long")
	}
	if len(payload) < v2HeaderBytes {
		return errors.New("histogram: header truncated")
	}
	hd := payload[:v2HeaderBytes]
	if binary.BigEndian.Uint32(hd)&^0xf0 != v2Cookie {
		return errors.New("histogram: bad payload cookie")
	}
	if int(binary.BigEndian.Uint32(hd[4:])) != len(payload)-v2HeaderBytes {
		return errors.New("histogram: payload length mismatch")
	}
	digits := int32(binary.BigEndian.Uint32(hd[12:]))
	lowest := int64(binary.BigEndian.Uint64(hd[16:]))
	highest := int64(binary.BigEndian.Uint64(hd[24:]))
	if digits != measure.HistDigits || lowest != measure.HistLowest || highest != measure.HistHighest {
		return fmt.Errorf("histogram: configuration %d..%d ns, %d digits; gqlbench records %d..%d ns, %d digits",
			lowest, highest, digits, measure.HistLowest, measure.HistHighest, measure.HistDigits)
	}
	idx := 0
	var total int64
	for p := payload[v2HeaderBytes:]; len(p) > 0; {
		v, k := zigzag(p)
		if k == 0 {
			return errors.New("histogram: truncated count")
		}
		p = p[k:]
		if v < 0 { // a run of -v empty buckets
			if v == math.MinInt64 || -v > int64(countsLen-idx) {
				return errors.New("histogram: counts beyond the range")
			}
			idx += int(-v)
			continue
		}
		if idx >= countsLen {
			return errors.New("histogram: counts beyond the range")
		}
		if total += v; total < 0 {
			return errors.New("histogram: total count overflows")
		}
		if v > 0 {
			add(idx, v)
		}
		idx++
	}
	return nil
}

// zigzag decodes one of HdrHistogram's ZigZag LEB128 values (at most 9
// bytes, the ninth holding 8 bits); it returns k = 0 when p is truncated.
func zigzag(p []byte) (v int64, k int) {
	var u uint64
	for k < 9 {
		if k >= len(p) {
			return 0, 0
		}
		b := p[k]
		if k == 8 {
			u |= uint64(b) << 56
			k++
			break
		}
		u |= uint64(b&0x7f) << (7 * k)
		k++
		if b&0x80 == 0 {
			break
		}
	}
	return int64(u>>1) ^ -int64(u&1), k
}
