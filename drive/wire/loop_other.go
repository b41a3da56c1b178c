//go:build !linux

package wire

import (
	"errors"
	"time"
)

// Loop is Linux's (loop_linux.go); elsewhere each connection has its
// goroutine.
type Loop struct{}

// NewLoop returns false: see loop_linux.go.
func (h *HTTP) NewLoop([]Conn) (*Loop, bool) { return nil, false }

// Run fails: see loop_linux.go.
func (*Loop) Run(<-chan struct{}, func(int) (int, time.Duration, bool), func(int, *Response, error)) error {
	return errors.New("no event loop on this system")
}

func (*h1conn) readNow() (int, error) { panic("unreachable") }
