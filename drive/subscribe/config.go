package subscribe

import (
	"errors"
	"fmt"
	"time"
)

// Config is one subscription run.
type Config struct {
	// URL is the GraphQL endpoint, http(s)://HOST/graphql: the publisher
	// POSTs its mutations there, the subscribers open ws(s):// to it.
	URL string
	// WebsocketURL, when not "", is where the subscribers connect instead.
	WebsocketURL string
	// Subscribers is the number of connections (N), PerSubscriber the
	// subscriptions on each (K).
	Subscribers, PerSubscriber int
	// PublishRate is the mutations per second the publisher issues.
	PublishRate float64
	// Duration is how long the measured publishing lasts, after every
	// subscription has received its first event (the warm-up).
	Duration time.Duration
	// Events, when not 0, ends the measured publishing after this many
	// mutations instead (Duration still bounds it).
	Events int64
	// WarmUp bounds the warm-up (0: 30 s): subscriptions still silent then
	// are counted as never active, which makes the run invalid.
	WarmUp time.Duration
	// Settle is how long, after the last mutation, the run waits for the
	// events still on their way (0: 5 s); it ends sooner once every
	// expected event has arrived.
	Settle time.Duration
	// Publishers is the number of mutations in flight at most (0: 4).
	Publishers int
	// Reconnect redials a dropped connection and subscribes again; the
	// events it missed count as lost.
	Reconnect bool
	// Stalled is the number of extra connections that subscribe and then
	// never read: they must not slow the others (they are left out of the
	// counts, and reported).
	Stalled int
	// Protocol is TransportWS (""/default) or SSE (GraphQL over
	// Server-Sent Events, distinct connections mode: one HTTP connection per
	// subscription; Reconnect does not apply).
	Protocol string
	// Workload is what is subscribed and published (nil: Publications).
	Workload Workload
	// Dialers bounds the connections being opened at once (0: 64).
	Dialers int
	// Golden, with a workload of a user's operations (*Ops), is the
	// recorded stream each event of the window is compared with (see
	// Golden); Events defaults to its length.
	Golden *Golden
	// RecordGolden, with *Ops, records the window's events in
	// Result.Golden.
	RecordGolden bool
}

// Limits of a run from one process.
const (
	MaxSubscribers   = 100000
	MaxPerSubscriber = 100 // the reference servers refuse more on one connection
)

// Check says what is wrong with c's settings, before anything is opened.
func Check(c Config) error { return c.withDefaults() }

func (c *Config) withDefaults() error {
	switch {
	case c.URL == "" && c.WebsocketURL == "":
		return errors.New("subscribe: no server URL")
	case c.Subscribers < 1 || c.Subscribers > MaxSubscribers:
		return fmt.Errorf("--subscribers %d: want 1 to %d", c.Subscribers, MaxSubscribers)
	case c.PerSubscriber < 1 || c.PerSubscriber > MaxPerSubscriber:
		return fmt.Errorf("--per-subscriber %d: want 1 to %d (servers limit the subscriptions on one connection: the reference servers to 100)", c.PerSubscriber, MaxPerSubscriber)
	case !(c.PublishRate > 0) || c.PublishRate > 100000:
		return fmt.Errorf("--publish-rate %v: want more than 0 and at most 100000 mutations per second", c.PublishRate)
	case c.Duration <= 0:
		return fmt.Errorf("--duration %v: want more than 0", c.Duration)
	case c.Protocol != "" && c.Protocol != TransportWS && c.Protocol != SSE:
		return fmt.Errorf("--protocol %q: want %s or %s", c.Protocol, TransportWS, SSE)
	case c.Protocol == SSE && c.Reconnect:
		return errors.New("--reconnect applies to graphql-transport-ws only")
	case c.Stalled < 0:
		return fmt.Errorf("stalled subscribers %d: want 0 or more", c.Stalled)
	case c.Golden != nil && c.RecordGolden:
		return errors.New("--golden and --record-golden: check against a golden stream or record one, not both")
	}
	if c.Golden != nil || c.RecordGolden {
		o, ok := c.Workload.(*Ops)
		if !ok {
			return errors.New("a golden stream is of a user's operations (--ops or --subscription/--mutation), not the built-in workload")
		}
		if c.Golden != nil {
			if err := c.Golden.Matches(o); err != nil {
				return err
			}
			if c.Events == 0 {
				c.Events = int64(len(c.Golden.Events))
			}
		}
	}
	if c.Protocol == "" {
		c.Protocol = TransportWS
	}
	if c.WarmUp <= 0 {
		c.WarmUp = 30 * time.Second
	}
	if c.Settle <= 0 {
		c.Settle = 5 * time.Second
	}
	if c.Publishers <= 0 {
		c.Publishers = 4
	}
	if c.Dialers <= 0 {
		c.Dialers = 64
	}
	if c.Workload == nil {
		c.Workload = Publications{Tag: fmt.Sprint(time.Now().UnixNano())}
	}
	if c.WebsocketURL == "" {
		u, err := wsURL(c.URL)
		if err != nil {
			return err
		}
		c.WebsocketURL = u
	}
	return nil
}
