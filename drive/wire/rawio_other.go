//go:build !linux

package wire

import (
	"net"
	"time"
)

// rawIO is Linux's (see rawio_linux.go); elsewhere connections use net.Conn.
type rawIO struct{}

func newRawIO(net.Conn, *clock, func(time.Time) error) *rawIO { return nil }
func (*rawIO) read([]byte) (int, error)                       { panic("unreachable") }
func (*rawIO) write([]byte) (int, error)                      { panic("unreachable") }
func (*rawIO) peek([]byte) (int, error)                       { panic("unreachable") }
func (*rawIO) sendRead([]byte, []byte, bool) (int, int, int, time.Time, error) {
	panic("unreachable")
}
