package runfile

// Subscription is the account of a subscription run (load --mode
// subscribe), the summary's "subscription": what was subscribed and
// published, what each subscription received, and whether the run passes
// its validity gate (Valid: every expected event delivered once, in order,
// as its mutation implies; Invalid lists what broke it). Counts are of the
// measured window, over the subscriptions that read.
type Subscription struct {
	Subscribers   int     `json:"subscribers"`       // connections
	PerSubscriber int     `json:"per_subscriber"`    // subscriptions on each
	Stalled       int     `json:"stalled,omitempty"` // connections that never read, left out of the counts
	PublishRate   float64 `json:"publish_rate"`      // mutations per second asked
	Protocol      string  `json:"protocol"`          // graphql-transport-ws
	WindowNS      int64   `json:"window_ns"`         // the measured publishing
	WarmUpNS      int64   `json:"warmup_ns"`         // until every subscription had an event

	Published     int64 `json:"published"`      // mutations that succeeded in the window
	PublishErrors int64 `json:"publish_errors"` // that failed
	PublishLate   int64 `json:"publish_late"`   // sent over 10 ms after their intended time

	Expected              int64 `json:"expected"` // deliveries the filters imply
	Delivered             int64 `json:"delivered"`
	Lost                  int64 `json:"lost"`
	Duplicates            int64 `json:"duplicates"`
	OutOfOrder            int64 `json:"out_of_order"`
	Wrong                 int64 `json:"wrong"`      // payloads unlike what the mutation implies
	Unexpected            int64 `json:"unexpected"` // events nobody asked for
	SubscriptionsAffected int64 `json:"subscriptions_affected"`
	NeverActive           int64 `json:"never_active"`
	Ended                 int64 `json:"ended"` // ended by the server before the run did
	Drops                 int64 `json:"drops"` // connections broken during the run
	Reconnects            int64 `json:"reconnects"`
	DialErrors            int64 `json:"dial_errors"`

	// Latency is the delivery latency's distribution (nanoseconds), from
	// LatencyFrom ("commit": the time the event carries; "send": the
	// mutation's send) to receipt; Hist is its HDR histogram, encoded.
	Latency     Dist   `json:"latency"`
	LatencyFrom string `json:"latency_from"`
	Hist        string `json:"hist,omitempty"`

	// The generator's memory: RSS before connecting and once subscribed,
	// and their difference per connection.
	RSSBeforeBytes     int64 `json:"rss_before_bytes"`
	RSSSubscribedBytes int64 `json:"rss_subscribed_bytes"`
	BytesPerSubscriber int64 `json:"bytes_per_subscriber"`

	// GoldenCompared counts the window's events compared with a golden
	// stream (--golden), GoldenDiffs those that differed from it.
	GoldenCompared int64 `json:"golden_compared,omitempty"`
	GoldenDiffs    int64 `json:"golden_diffs,omitempty"`

	Valid      bool     `json:"valid"`
	Invalid    []string `json:"invalid,omitempty"`
	FirstError string   `json:"first_error,omitempty"`

	// Ramp lists the steps of a ramp (--ramp), each a whole run at one
	// number of subscribers, the account above being the last one's;
	// RampStop says why it stopped ("" when every step met the SLO).
	Ramp     []SubscriptionStep `json:"ramp,omitempty"`
	RampSLO  string             `json:"ramp_slo,omitempty"`
	RampStop string             `json:"ramp_stop,omitempty"`
}

// SubscriptionStep is one step of a subscription ramp.
type SubscriptionStep struct {
	Subscribers        int   `json:"subscribers"`
	Valid              bool  `json:"valid"`
	Delivered          int64 `json:"delivered"`
	P50NS              int64 `json:"p50_ns"`
	P99NS              int64 `json:"p99_ns"`
	BytesPerSubscriber int64 `json:"bytes_per_subscriber"`
}
