package measure

import (
	"bufio"
	"io"
	"strconv"
)

// RecordHeader is the first line of a records file: LinGBM's columns
// (client, query id, execution time, error) first, then gqlbench's.
const RecordHeader = "client,query_id,qet_ns,error,template,run,qrt_ns,latency_ns,intended_ns,start_ns,status,bytes_sent,bytes_received,calls,pair\n"

// RecordWriter writes per-request records as CSV. Times are nanoseconds;
// intended_ns and start_ns are offsets from the run's start; error is ""
// for a correct answer, else an Outcome name.
type RecordWriter struct {
	w    *bufio.Writer
	buf  []byte
	err  error
	head bool
}

// NewRecordWriter returns a RecordWriter on w.
func NewRecordWriter(w io.Writer) *RecordWriter {
	return &RecordWriter{w: bufio.NewWriterSize(w, 256<<10)}
}

// Write writes the samples of run, naming queries and templates through the
// given lists, and flushes.
func (rw *RecordWriter) Write(run int, samples []Sample, queryIDs, templates []string) error {
	if rw.err != nil {
		return rw.err
	}
	if !rw.head {
		rw.head = true
		if _, rw.err = rw.w.WriteString(RecordHeader); rw.err != nil {
			return rw.err
		}
	}
	for i := range samples {
		s := &samples[i]
		b := rw.buf[:0]
		b = strconv.AppendInt(b, int64(s.Client), 10)
		b = append(b, ',')
		b = appendCSV(b, queryIDs[s.Query])
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.QET()), 10)
		b = append(b, ',')
		b = append(b, s.Outcome.String()...)
		b = append(b, ',')
		b = appendCSV(b, templates[s.Template])
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(run), 10)
		b = append(b, ',')
		if s.Timed() {
			b = strconv.AppendInt(b, int64(s.QRT()), 10)
		}
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.Latency()), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.Intended), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.Start), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.Status), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, s.SentBytes, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, s.RecvBytes, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(max(s.Calls, 1)), 10)
		b = append(b, ',')
		if s.Pair > 0 {
			b = strconv.AppendInt(b, s.Pair, 10)
		}
		b = append(b, '\n')
		rw.buf = b
		if _, rw.err = rw.w.Write(b); rw.err != nil {
			return rw.err
		}
	}
	rw.err = rw.w.Flush()
	return rw.err
}

// appendCSV appends s as a CSV field, quoted when it needs to be.
func appendCSV(b []byte, s string) []byte {
	quote := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ',' || c == '"' || c == '\n' || c == '\r' {
			quote = true
			break
		}
	}
	if !quote {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}
