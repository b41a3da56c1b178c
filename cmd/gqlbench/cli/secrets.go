package cli

import (
	"io"
	"slices"
	"strings"

	"github.com/gqlbench/gqlbench/dbloc"
)

// Secrets on the command line. Every URL- or DSN-valued flag (--target,
// --reference, --paired-target, --db, --db-statements, --schema URL, ...)
// is redacted by dbloc.Redact, the one redaction, before it is recorded or
// printed: redactArg for the command line and flag maps of run files and
// experiment files, dbloc.Redact at each message that names one. As a
// second net, Run scrubs what a command writes to stdout and stderr, and
// its error, of every secret of its arguments (scrubPairs): a message
// from a library or driver that quotes a URL as given is caught there.

// minScrubBytes is the shortest secret the second net scrubs: a shorter
// one ("pw") would turn every message into xxxxx; the redaction at the
// source hides it all the same.
const minScrubBytes = 4

// mayHoldSecret says whether a flag's value can hold a secret: a URL or
// user part, a keyword/value DSN, a named password or secret parameter.
func mayHoldSecret(v string) bool {
	if strings.Contains(v, "://") || strings.Contains(v, "@") {
		return true
	}
	if l, err := dbloc.Parse(v); err == nil && l.Kind() == dbloc.Postgres {
		return true
	}
	return dbloc.Redact(v) != v && strings.ContainsAny(v, "=?#")
}

// redactArg returns one argument, or a flag's value, with its secrets
// hidden: a --flag=VALUE's value and a bare value alike.
func redactArg(a string) string {
	if strings.HasPrefix(a, "-") {
		if name, v, ok := strings.Cut(a, "="); ok {
			return name + "=" + redactArg(v)
		}
		return a
	}
	if mayHoldSecret(a) {
		return dbloc.Redact(a)
	}
	return a
}

// redactFlagValues hides the secrets of every value of a flag map, as the
// run file's header records it.
func redactFlagValues(flags map[string]string) {
	for k, v := range flags {
		flags[k] = redactArg(v)
	}
}

// scrubPairs returns what the second net replaces, old and new in turn:
// first every argument that may hold a secret, as given, by its redacted
// form (a message that quotes a URL whole, short password and all); then
// every secret dbloc finds in such an argument, and the value of every
// secret header given with --header, by xxxxx (a message that quotes one
// alone or decoded), the longest first. Nil when there is nothing to hide.
func scrubPairs(args []string) []string {
	var whole, secrets []string
	secretNames := slices.Clone(secretHeaders)
	for i, a := range args {
		if (a == "--secret-header" || a == "-secret-header") && i+1 < len(args) {
			secretNames = append(secretNames, strings.ToLower(strings.TrimSpace(args[i+1])))
		} else if v, ok := strings.CutPrefix(strings.TrimLeft(a, "-"), "secret-header="); ok && strings.HasPrefix(a, "-") {
			secretNames = append(secretNames, strings.ToLower(strings.TrimSpace(v)))
		}
	}
	for i, a := range args {
		v := a
		if strings.HasPrefix(a, "-") {
			_, v, _ = strings.Cut(a, "=")
		}
		if mayHoldSecret(v) {
			if r := dbloc.Redact(v); r != v {
				whole = append(whole, v)
			}
			secrets = append(secrets, dbloc.Secrets(v)...)
		}
		isHeader := a == "--header" || a == "-header"
		if isHeader && i+1 < len(args) {
			v = args[i+1]
		} else if h, ok := strings.CutPrefix(a, "--header="); ok {
			v, isHeader = h, true
		}
		if name, val, ok := strings.Cut(v, ":"); isHeader && ok && slices.Contains(secretNames, strings.ToLower(strings.TrimSpace(name))) {
			secrets = append(secrets, strings.TrimSpace(val))
		}
	}
	secrets = slices.DeleteFunc(secrets, func(s string) bool { return len(s) < minScrubBytes })
	longestFirst := func(a, b string) int { return len(b) - len(a) } // a secret may hold another
	slices.SortFunc(whole, longestFirst)
	slices.SortFunc(secrets, longestFirst)
	var pairs []string
	for _, w := range slices.Compact(whole) {
		pairs = append(pairs, w, dbloc.Redact(w))
	}
	for _, s := range slices.Compact(secrets) {
		pairs = append(pairs, s, "xxxxx")
	}
	return pairs
}

// scrubber replaces every secret by xxxxx.
type scrubber struct{ r *strings.Replacer }

// newScrubber replaces the old-new pairs; nil when there are none.
func newScrubber(pairs []string) *scrubber {
	if len(pairs) == 0 {
		return nil
	}
	return &scrubber{strings.NewReplacer(pairs...)}
}

func (s *scrubber) scrub(text string) string {
	if s == nil {
		return text
	}
	return s.r.Replace(text)
}

// writer wraps w so that what goes through it is scrubbed, one Write at a
// time (a message is one Write; a secret cut across two is not caught,
// which the redaction at the source makes moot).
func (s *scrubber) writer(w io.Writer) io.Writer {
	if s == nil || w == nil {
		return w
	}
	return scrubWriter{s, w}
}

type scrubWriter struct {
	s *scrubber
	w io.Writer
}

func (sw scrubWriter) Write(p []byte) (int, error) {
	out := sw.s.r.Replace(string(p))
	if out == string(p) {
		return sw.w.Write(p)
	}
	if _, err := io.WriteString(sw.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}
