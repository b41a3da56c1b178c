// Package cli is gqlbench's command line, the top of the house: flags,
// files, standard streams and the process's exit code (exitcode.Of), and
// nothing else; the work is done by the packages below it, which it may all
// import. Nothing imports it but main and the experiments' tests, which run
// the command line in-process.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/gqlbench/gqlbench/exitcode"
)

// Version is gqlbench's version, written into every output that must be reproducible.
const Version = "0.1.0-dev"

// Env is everything a command may touch of its process, injected so that the
// whole CLI runs in-process in tests.
type Env struct {
	Args           []string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
}

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, env Env, args []string) error
}

var commands = map[string]command{}

func register(name, summary string, run func(context.Context, Env, []string) error) {
	if _, dup := commands[name]; dup {
		panic("cli: command registered twice: " + name)
	}
	commands[name] = command{summary, run}
}

// usagef makes the *exitcode.UsageError of a wrong command line (exit code
// 2); the library's errors carry their class likewise (exitcode.Of).
func usagef(format string, a ...any) error { return exitcode.Usagef(format, a...) }

// Run runs the command line in env.Args and returns the exit code.
func Run(ctx context.Context, env Env) int {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	if len(env.Args) == 0 || env.Args[0] == "help" || env.Args[0] == "-h" || env.Args[0] == "--help" {
		if len(env.Args) > 1 {
			return Run(ctx, Env{Args: []string{env.Args[1], "--help"}, Stdin: env.Stdin, Stdout: env.Stdout, Stderr: env.Stderr, Getenv: env.Getenv})
		}
		help(env.Stdout)
		return exitcode.OK
	}
	if env.Args[0] == "version" || env.Args[0] == "--version" {
		fmt.Fprintln(env.Stdout, "gqlbench", Version)
		return exitcode.OK
	}
	cmd, ok := commands[env.Args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "gqlbench: unknown command %q (run `gqlbench help`)\n", env.Args[0])
		return exitcode.Usage
	}
	// The second net under the redaction at the source: no secret of a flag
	// reaches stdout, stderr or an error message (secrets.go).
	if sc := newScrubber(scrubPairs(env.Args[1:])); sc != nil {
		env.Stdout, env.Stderr = sc.writer(env.Stdout), sc.writer(env.Stderr)
	}
	err := cmd.run(ctx, env, env.Args[1:])
	switch code := exitcode.Of(err); {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitcode.OK
	case code == exitcode.Failure && ctx.Err() != nil:
		fmt.Fprintf(env.Stderr, "gqlbench %s: interrupted: %v\n", env.Args[0], err)
		return code
	default:
		fmt.Fprintf(env.Stderr, "gqlbench %s: %v\n", env.Args[0], err)
		return code
	}
}

func help(w io.Writer) {
	fmt.Fprintf(w, "gqlbench %s — a benchmark and testbed for GraphQL servers (LinGBM)\n\nUsage: gqlbench <command> [flags]\n\nCommands:\n", Version)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprint(w, `  version    print the version

Run 'gqlbench <command> --help' for a command's flags.
Data goes to stdout, logs and progress to stderr.
Exit codes: 0 success, 1 failure, 2 wrong usage, 3 a check failed (wrong answers, errors, SLO).
`)
}

// usages holds the help printer of every flag set made by newFlags: the flag
// package calls Usage on every parse error too, and an error should print the
// error alone, not the whole help.
var usages sync.Map // *flag.FlagSet → func()

// newFlags returns a flag set that reports errors as usage errors and prints
// its help to stdout when asked with --help.
func newFlags(env Env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	usages.Store(fs, func() {
		fmt.Fprintf(env.Stdout, "Usage: gqlbench %s\n\nFlags:\n", synopsis)
		fs.SetOutput(env.Stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	})
	return fs
}

// parse parses args, turning flag errors into usage errors.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			if u, ok := usages.Load(fs); ok {
				u.(func())()
			}
			return err
		}
		return &exitcode.UsageError{Err: err}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", strings.Join(fs.Args(), " "))
	}
	return nil
}

// splitArgs separates the flags of fs (with their values) from the
// positional arguments (file names, a variant), so that flags may come
// before or after them, in any order. An unknown flag stays with the
// flags, for parse to report.
func splitArgs(fs *flag.FlagSet, args []string) (flags, positional []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flags, append(positional, args[i+1:]...)
		case len(a) < 2 || a[0] != '-':
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, positional
}
