package cli

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gqlbench/gqlbench/link"
)

func init() {
	register("link", "an emulated network link in front of a server: a TCP proxy with a one-way delay and a bandwidth, for what round trips and bytes cost off loopback", runLink)
}

const linkSynopsis = `link --target HOST:PORT [--delay D] [--rate R] [--listen 127.0.0.1:0]

Listens on --listen and connects every connection to --target through an emulated
link: each byte is delivered --delay after it was sent (one way: a round trip takes
twice that) and no faster than --rate (bits per second, e.g. 100mbit, shared by every
connection through the link, in each direction). Loopback has neither, so a REST
client's extra round trips and over-fetched bytes cost next to nothing there; the
kernel's netem needs root and the sch_netem module, this needs neither. Prints the
address to send load to, and runs until interrupted:

  gqlbench serve rest --db sqlite:gqlbench.db --addr 127.0.0.1:4001 &
  gqlbench link --target 127.0.0.1:4001 --delay 5ms --rate 100mbit --listen 127.0.0.1:5001 &
  gqlbench load --api rest --target http://127.0.0.1:5001 --queries tasks.jsonl -o rest.jsonl

The link runs in its own process: pin it away from the server (its CPU is the
network's, not the server's). experiment rest-vs-graphql --link puts one in front of
each server itself.`

func runLink(ctx context.Context, env Env, args []string) error {
	fs := newFlags(env, "link", linkSynopsis)
	target := fs.String("target", "", "the server's `HOST:PORT`")
	listen := fs.String("listen", "127.0.0.1:0", "the `ADDR` to listen on")
	delay := fs.Duration("delay", 0, "one-way delay, e.g. 2ms (a round trip takes twice this); default none")
	rate := fs.String("rate", "", "bandwidth in bits per second (100mbit, 512kbit, 1g); default unlimited")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *target == "" {
		return usagef("--target HOST:PORT is required")
	}
	spec := fmt.Sprintf("delay=%s", *delay)
	if *rate != "" {
		spec += ",rate=" + *rate
	}
	c, err := link.ParseConfig(spec)
	if err != nil {
		return usagef("%v", err)
	}
	var mu sync.Mutex
	var last time.Time
	c.Log = func(msg string) { // at most a line a second: a dead target fails every connection
		mu.Lock()
		defer mu.Unlock()
		if now := time.Now(); now.Sub(last) >= time.Second {
			last = now
			fmt.Fprintln(env.Stderr, msg)
		}
	}
	p, err := link.Listen(*listen, *target, c)
	if err != nil {
		return err
	}
	defer p.Close()
	fmt.Fprintf(env.Stderr, "link: %s, listening on %s for %s\n", c, p.Addr(), *target)
	fmt.Fprintln(env.Stdout, p.Addr())
	<-ctx.Done()
	return nil
}
