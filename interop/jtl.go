package interop

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// jtlColumns are the columns JMeter's CSV results (a JTL file) may have,
// as its jmeter.save.saveservice.* properties choose them.
var jtlColumns = []string{"timeStamp", "elapsed", "label", "responseCode", "responseMessage", "threadName",
	"dataType", "success", "failureMessage", "bytes", "sentBytes", "grpThreads", "allThreads", "URL",
	"Filename", "Latency", "Encoding", "SampleCount", "ErrorCount", "Hostname", "IdleTime", "Connect"}

// ReadJTL reads JMeter's CSV results (the -l FILE of a plan from JMeter,
// with JMeter's default columns or any of its own) into samples: a
// sample is right when JMeter counted it a success; a failure's kind is
// the start of the gqlbench check's message (failureMessage), or follows
// from the response code when another assertion failed it. A column
// JMeter does not write (sample_variables, a typo) is an error, and so
// are an XML JTL, timestamps not in milliseconds and a cut last row
// (unless partial).
func ReadJTL(name string, r io.Reader, partial bool) ([]Sample, string, error) {
	br := newPeek(r)
	if strings.HasPrefix(strings.TrimSpace(br.head), "<") {
		return nil, "", fmt.Errorf("%s is an XML JTL: write CSV results (jmeter.save.saveservice.output_format=csv, JMeter's default)", name)
	}
	if first, _, _ := strings.Cut(br.head, ","); first != "" {
		if _, err := strconv.ParseInt(first, 10, 64); err == nil {
			return nil, "", fmt.Errorf("%s: the first line is a row, not JMeter's header line: write results with jmeter.save.saveservice.print_field_names=true (JMeter's default)", name)
		}
	}
	t, err := newTable(name, br, ',', partial)
	if err != nil {
		return nil, "", err
	}
	for _, c := range t.header {
		if !slices.Contains(jtlColumns, c) {
			return nil, "", fmt.Errorf("%s: unknown JTL column %q (JMeter's columns are %s; sample_variables add others): import a results file of JMeter's own columns", name, c, strings.Join(jtlColumns, ", "))
		}
	}
	if err := t.require("timeStamp", "elapsed", "label", "success"); err != nil {
		return nil, "", err
	}
	var out []Sample
	target := ""
	for {
		row, line, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", err
		}
		ts, err1 := strconv.ParseInt(row("timeStamp"), 10, 64)
		el, err2 := strconv.ParseInt(row("elapsed"), 10, 64)
		if err1 != nil {
			return nil, "", fmt.Errorf("%s, line %d: timeStamp %q is not milliseconds since 1970 (set jmeter.save.saveservice.timestamp_format=ms, JMeter's default)", name, line, row("timeStamp"))
		}
		if err2 != nil || el < 0 {
			return nil, "", fmt.Errorf("%s, line %d: elapsed %q is not a number of milliseconds", name, line, row("elapsed"))
		}
		s := Sample{Label: row("label"), QET: time.Duration(el) * time.Millisecond,
			End: time.UnixMilli(ts).Add(time.Duration(el) * time.Millisecond)}
		if v, err := strconv.ParseInt(row("Latency"), 10, 64); err == nil && v > 0 {
			s.QRT = time.Duration(v) * time.Millisecond
		}
		s.Recv, _ = strconv.ParseInt(row("bytes"), 10, 64)
		s.Sent, _ = strconv.ParseInt(row("sentBytes"), 10, 64)
		u, _ := strconv.Atoi(row("allThreads"))
		s.Users = u
		code := row("responseCode")
		s.Status, _ = strconv.Atoi(code)
		switch ok := row("success"); {
		case ok == "true":
			s.Outcome = OK
		case ok != "false":
			return nil, "", fmt.Errorf("%s, line %d: success %q is neither true nor false", name, line, ok)
		case row("failureMessage") != "":
			s.Outcome, s.Reason = outcomeOf(row("failureMessage"))
		case s.Status != 0 && s.Status != 200:
			s.Outcome = "http_status"
		default:
			s.Outcome, s.Reason = "transport", strings.TrimSpace(code+" "+row("responseMessage"))
		}
		if target == "" {
			target = row("URL")
		}
		out = append(out, s)
	}
	return out, target, nil
}

// peek reads the first bytes of a reader and hands them on.
type peek struct {
	head string
	r    io.Reader
}

func newPeek(r io.Reader) *peek {
	buf := make([]byte, 64)
	n, _ := io.ReadFull(r, buf)
	return &peek{head: string(buf[:n]), r: io.MultiReader(strings.NewReader(string(buf[:n])), r)}
}

func (p *peek) Read(b []byte) (int, error) { return p.r.Read(b) }
