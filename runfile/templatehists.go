package runfile

import hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

// TemplateHists returns one template's merged non-warm-up histograms: QET,
// QRT and the corrected latency, each nil when none was recorded. Reports
// take quantiles from them that a Dist does not hold (quartiles).
func (s *Summarizer) TemplateHists(name string) (qet, qrt, latency *hdrhistogram.Histogram) {
	a := s.templates[name]
	if a == nil {
		return nil, nil, nil
	}
	return histFrom(a.qet), histFrom(a.qrt), histFrom(a.latency)
}
