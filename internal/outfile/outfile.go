// Package outfile writes what a command's output flag names without ever
// harming what is already there: every path gqlbench writes an output to
// goes through it.
//
// What happens depends on what the path names (symbolic links followed):
//
//	nothing yet, a regular file   written under a temporary name beside it and
//	                              renamed over it when complete (WriteFile,
//	                              Create + Commit), or created and written in
//	                              place, line by line (Open)
//	a character device, a FIFO    opened and written straight, never replaced,
//	or a socket                   removed or truncated: /dev/null, /dev/stdout,
//	                              a named pipe read by another program
//	a directory, a block device,  an error that says so; nothing is touched
//	anything else
//
// "-" is the command's standard output; the package leaves it to the
// caller (IsStdout), whose standard output may not be the process's.
//
// Files derived from an output's path (RUN.failures/, PATH.meta.json,
// OUT.headers) exist only beside a regular file: Beside says where, or that
// there is no such place (/dev/null.meta.json would be a file in /dev).
//
// Directories an output flag names go through Dir: a directory or a new
// path, never a device or a file replaced by one.
//
// The package imports only the standard library.
package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Kind is what an output path names.
type Kind uint8

const (
	// New is a path where nothing is yet.
	New Kind = iota + 1
	// Regular is a regular file, replaced whole by a new one.
	Regular
	// Stream is a character device, a FIFO or a socket: written straight.
	Stream
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case New:
		return "new file"
	case Regular:
		return "regular file"
	case Stream:
		return "device or pipe"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// IsStdout reports whether path is "-", the command's standard output.
func IsStdout(path string) bool { return path == "-" }

// Stat says what path names, following symbolic links, or why no output may
// be written there (a directory, a block device, a path that cannot be
// read); its errors name path.
func Stat(path string) (Kind, error) {
	if path == "" {
		return 0, errors.New("no output path given")
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, lerr := os.Lstat(path); lerr == nil {
			return 0, fmt.Errorf("cannot write %s: it is a symbolic link to nothing", path)
		}
		return New, nil
	case err != nil:
		return 0, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return kindOf(path, fi.Mode())
}

// kindOf classifies an existing path's mode.
func kindOf(path string, m fs.FileMode) (Kind, error) {
	switch {
	case m.IsRegular():
		return Regular, nil
	case m.IsDir():
		return 0, fmt.Errorf("cannot write %s: it is a directory, and a file is expected here", path)
	case m&fs.ModeCharDevice != 0, m&fs.ModeNamedPipe != 0, m&fs.ModeSocket != 0:
		return Stream, nil
	case m&fs.ModeDevice != 0:
		return 0, fmt.Errorf("cannot write %s: it is a block device; gqlbench writes no output onto one", path)
	}
	return 0, fmt.Errorf("cannot write %s: it is not a regular file (%s)", path, m.Type())
}

// Beside returns path+suffix, the place of a file derived from the output
// path, and true — or "", false when path names no regular file or new path
// (a device or a pipe has no "beside"), or cannot be written at all.
func Beside(path, suffix string) (string, bool) {
	if k, err := Stat(path); err != nil || k == Stream {
		return "", false
	}
	return path + suffix, true
}

// CheckFile checks that path names a regular file or nothing, for an output
// that can only be a file of its own (a database): a device, a pipe or a
// directory is an error that names what, the kind of file wanted being
// what. Symbolic links are followed.
func CheckFile(path, what string) error {
	k, err := Stat(path)
	if err != nil {
		return fmt.Errorf("%w (%s must be a regular file)", err, what)
	}
	if k == Stream {
		return fmt.Errorf("cannot write %s: it is a device or a pipe, and %s must be a regular file; it is left as it is", path, what)
	}
	return nil
}

// Dir checks that path names a directory or nothing, for an output
// directory flag, and creates it (with its parents) if it does not exist.
func Dir(path string) error {
	if err := CheckDir(path); err != nil {
		return err
	}
	if err := os.MkdirAll(path, 0o755); err != nil {
		return fmt.Errorf("cannot create the directory %s: %w", path, err)
	}
	return nil
}

// CheckDir is Dir without creating: path must name a directory or nothing.
func CheckDir(path string) error {
	if path == "" {
		return errors.New("no output directory given")
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("cannot write into %s: %w", path, err)
	case !fi.IsDir():
		return fmt.Errorf("cannot write into %s: it is a %s, and a directory is expected here", path, describe(fi.Mode()))
	}
	return nil
}

// describe names a file mode's type for an error.
func describe(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "file of type " + m.Type().String()
}

// target resolves path's symbolic links, so that a rename replaces the file
// a link names and keeps the link.
func target(path string) string {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		return p
	}
	return path
}

// WriteFile writes an output whole: onto a regular file or a new path
// through a temporary file beside it, renamed into place when write has
// succeeded (a reader never sees half a file; perm applies from the first
// byte, so a secret is never readable by others); onto a device or a pipe
// straight. write's error, or any I/O error, leaves a regular file as it
// was.
func WriteFile(path string, perm os.FileMode, write func(io.Writer) error) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := write(f); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// File is an output being written by Create: a temporary file beside a
// regular file or new path, or the device or pipe itself.
type File struct {
	*os.File
	path, tmp string // tmp: the temporary name; "" for a stream
	kind      Kind
	done      bool
}

// Create opens an output to be written whole and committed: see WriteFile.
// Close without Commit leaves a regular file as it was.
func Create(path string, perm os.FileMode) (*File, error) {
	k, err := Stat(path)
	if err != nil {
		return nil, err
	}
	if k == Stream {
		fh, err := openStream(path)
		if err != nil {
			return nil, err
		}
		return &File{File: fh, path: path, kind: k}, nil
	}
	real := target(path)
	fh, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".tmp-*")
	if err != nil {
		return nil, PathError(path, err)
	}
	if err := fh.Chmod(perm); err != nil {
		fh.Close()
		os.Remove(fh.Name())
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return &File{File: fh, path: real, tmp: fh.Name(), kind: k}, nil
}

// Kind is what the output's path named when it was opened.
func (f *File) Kind() Kind { return f.kind }

// Commit makes the output complete: it syncs and renames the temporary file
// over the path, or closes the stream.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	if f.tmp == "" {
		return f.File.Close()
	}
	err := f.File.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.tmp, f.path)
	}
	if err != nil {
		os.Remove(f.tmp)
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	if d, err := os.Open(filepath.Dir(f.path)); err == nil { // make the rename durable
		d.Sync()
		d.Close()
	}
	return nil
}

// Close ends the output: after Commit a no-op; before, it drops what was
// written to a temporary file (a stream keeps what it was sent).
func (f *File) Close() error {
	if f.done {
		return nil
	}
	f.done = true
	err := f.File.Close()
	if f.tmp != "" {
		os.Remove(f.tmp)
	}
	return err
}

// Open opens an output written in place as it goes, line by line (a run
// file another program may follow): a regular file is truncated, a new one
// created with perm, a device or a pipe opened for writing and never
// replaced. The caller closes it.
func Open(path string, perm os.FileMode) (*os.File, error) {
	k, err := Stat(path)
	if err != nil {
		return nil, err
	}
	if k == Stream {
		return openStream(path)
	}
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return nil, PathError(path, err)
	}
	return fh, nil
}

// openStream opens a device, FIFO or socket for writing, as it is.
func openStream(path string) (*os.File, error) {
	fh, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return fh, nil
}

// PathError explains why path cannot be created: a missing directory or
// a permission named as such.
func PathError(path string, err error) error {
	dir := filepath.Dir(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot write %s: directory %s does not exist", path, dir)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("cannot write %s: no permission to create files in %s", path, dir)
	}
	return fmt.Errorf("cannot write %s: %w", path, err)
}
