package report

import (
	"math"
	"testing"
)

// seed001 are seed 001's (Lawi et al.) Tables 1–4: per row GraphQL then
// REST — response time (ms, means of groups of 100 requests), throughput
// (requests per 10 ms), CPU load (%) and memory (MB).
var seed001 = map[string][20][2]float64{
	"response time": {{1840, 938}, {1830, 969}, {1860, 906}, {1830, 907}, {1860, 891}, {2020, 906}, {1860, 907}, {1810, 922}, {2130, 891}, {1860, 891},
		{1840, 906}, {1860, 907}, {1840, 922}, {1860, 906}, {1840, 891}, {1810, 938}, {1840, 1000}, {1830, 938}, {1840, 921}, {1830, 1000}},
	"throughput": {{3117, 5175}, {3000, 4500}, {2666, 4666}, {2750, 4500}, {2800, 4200}, {3000, 4333}, {2857, 4285}, {2875, 4250}, {2777, 4555}, {2900, 4500},
		{2818, 4545}, {2917, 4583}, {2923, 4615}, {2857, 4571}, {2867, 4600}, {2875, 4625}, {2823, 4584}, {2778, 4611}, {2789, 4631}, {2750, 4600}},
	"cpu": {{48.0, 82.5}, {49.0, 73.4}, {44.4, 77.8}, {45.8, 75.0}, {46.7, 70.0}, {50.0, 72.2}, {47.6, 70.0}, {47.9, 70.8}, {46.3, 75.9}, {48.3, 80.8},
		{47.0, 75.8}, {48.6, 72.0}, {48.7, 76.9}, {47.6, 76.2}, {47.8, 78.8}, {47.9, 77.1}, {47.1, 76.4}, {46.3, 76.9}, {46.5, 75.0}, {45.8, 76.7}},
	"memory": {{45.20, 67.50}, {43.50, 77.63}, {38.66, 69.99}, {39.88, 67.50}, {40.60, 63.00}, {43.50, 65.00}, {41.43, 78.33}, {41.69, 63.75}, {40.27, 68.33}, {42.05, 57.50},
		{40.86, 65.18}, {42.30, 78.75}, {42.38, 69.23}, {41.43, 68.57}, {41.57, 59.00}, {41.69, 69.38}, {40.93, 68.76}, {40.28, 69.17}, {40.44, 79.47}, {39.88, 69.00}},
}

// columns splits a seed 001 table into its GraphQL and REST columns.
func columns(rows [20][2]float64) (gql, rest []float64) {
	for _, r := range rows {
		gql, rest = append(gql, r[0]), append(rest, r[1])
	}
	return gql, rest
}

// TestPairedSeed001Table5 recomputes seed 001's Table 5 from its Tables 1–4:
// the two-tailed paired t-test of GraphQL against REST, 20 pairs each.
// Response time and throughput agree to the digits printed; CPU and
// memory to within 10 %, as Tables 3 and 4 print their samples rounded
// (Table 6's CPU maximum is 82.45 %, Table 3's 82.5 %).
func TestPairedSeed001Table5(t *testing.T) {
	for _, c := range []struct {
		measure string
		p, tol  float64 // the paper's p-value, and the relative tolerance
	}{
		{"response time", 7.37117e-21, 1e-5},
		{"throughput", 2.10916e-19, 1e-5},
		{"cpu", 2.35697e-18, 0.1},
		{"memory", 4.69417e-14, 0.1},
	} {
		g, r := columns(seed001[c.measure])
		got := PairedTest(g, r)
		if !got.Valid || got.DF != 19 || !got.Significant || math.Abs(got.P-c.p) > c.tol*c.p {
			t.Errorf("%s: %+v, want p %g", c.measure, got, c.p)
		}
	}
}

// TestBoxParamsSeed001Table6 recomputes seed 001's Table 6 (box-plot parameters)
// from its Tables 1, 2 and 4, to the digits printed.
func TestBoxParamsSeed001Table6(t *testing.T) {
	for _, c := range []struct {
		measure, api string
		want         [6]float64 // mean, max, Q3, median, Q1, min: the table's order
		digits       float64    // the table's precision
	}{
		{"response time", "graphql", [6]float64{1864.50, 2130, 1860, 1840, 1830, 1810}, 0.01},
		{"response time", "rest", [6]float64{922.85, 1000, 938, 907, 906, 891}, 0.01},
		{"throughput", "graphql", [6]float64{2856.95, 3117, 2904, 2857, 2786, 2666}, 1},
		{"throughput", "rest", [6]float64{4546.45, 5175, 4612, 4577, 4500, 4200}, 1},
		{"memory", "graphql", [6]float64{41.43, 45.20, 42.11, 41.43, 40.40, 38.66}, 0.01},
		{"memory", "rest", [6]float64{68.75, 79.47, 69.53, 68.66, 65.13, 57.50}, 0.01},
	} {
		g, r := columns(seed001[c.measure])
		xs := g
		if c.api == "rest" {
			xs = r
		}
		f := FiveNumbers(xs)
		got := [6]float64{f.Mean, f.Max, f.Q3, f.Median, f.Q1, f.Min}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > c.digits {
				t.Errorf("%s %s: got %v, want %v (Table 6)", c.measure, c.api, got, c.want)
				break
			}
		}
	}
	// The paper's standard deviations (Table 5): 75.77 and 32.99 ms.
	g, r := columns(seed001["response time"])
	if sg, sr := FiveNumbers(g).SD, FiveNumbers(r).SD; math.Abs(sg-75.77) > 0.01 || math.Abs(sr-32.99) > 0.01 {
		t.Errorf("sd %g, %g; want 75.77, 32.99", sg, sr)
	}
}

// TestBoxParamsSmall checks the quartiles by hand on small samples.
func TestBoxParamsSmall(t *testing.T) {
	for _, c := range []struct {
		name string
		xs   []float64
		want FiveNumber
	}{
		// (n−1)p = 0.75, 1.5, 2.25: between the order statistics.
		{"four", []float64{4, 1, 3, 2}, FiveNumber{N: 4, Mean: 2.5, SD: math.Sqrt(5.0 / 3), Min: 1, Q1: 1.75, Median: 2.5, Q3: 3.25, Max: 4}},
		// (n−1)p = 1, 2, 3: on them.
		{"five", []float64{10, 50, 20, 40, 30}, FiveNumber{N: 5, Mean: 30, SD: math.Sqrt(250), Min: 10, Q1: 20, Median: 30, Q3: 40, Max: 50}},
		{"one", []float64{7}, FiveNumber{N: 1, Mean: 7, Min: 7, Q1: 7, Median: 7, Q3: 7, Max: 7}},
		{"none", nil, FiveNumber{}},
	} {
		got := FiveNumbers(c.xs)
		got.SD, c.want.SD = math.Round(got.SD*1e9), math.Round(c.want.SD*1e9)
		if got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}
