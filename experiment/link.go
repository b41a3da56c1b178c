package experiment

import (
	"fmt"
	"strings"

	"github.com/gqlbench/gqlbench/link"
)

// linkTo puts an emulated link (package link) in front of srv: every later
// run reaches srv through it. The returned func closes it.
func (s *session) linkTo(srv *Server, c link.Config) (func(), error) {
	host := strings.TrimPrefix(srv.Base(), "http://")
	p, err := link.Listen("127.0.0.1:0", host, c)
	if err != nil {
		return nil, fmt.Errorf("the link to %s: %w", srv.Spec.Variant, err)
	}
	s.mu.Lock()
	if s.links == nil {
		s.links = map[string]string{}
	}
	s.links[host] = p.Addr()
	s.mu.Unlock()
	fmt.Fprintf(s.Log, "link to %s: %s (one way), through %s\n", srv.Spec.Variant, c, p.Addr())
	return func() { p.Close() }, nil
}
