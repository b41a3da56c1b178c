package workload

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/dataset"
)

// mixStream is the random stream of mix shuffles, apart from the templates' streams.
const mixStream = 0x6d69_78 // "mix"

// ParseMix reads a mix: "all" (every template, weight 1: the paper's mixed
// workloads, Section 6.2.1) or a comma-separated list of TEMPLATE:WEIGHT,
// e.g. "1:2,5:1" or "QT3:4,QT11"; a missing weight is 1. Weights are relative
// counts: with "1:2,5:1" the workload holds twice as many QT1 queries as QT5.
func ParseMix(s string) (map[int]int, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "all") {
		m := make(map[int]int, NumTemplates)
		for id := 1; id <= NumTemplates; id++ {
			m[id] = 1
		}
		return m, nil
	}
	if s == "" {
		return nil, fmt.Errorf("empty mix: want `all` or TEMPLATE:WEIGHT,... such as 1:2,5:1")
	}
	m := map[int]int{}
	for _, part := range strings.Split(s, ",") {
		name, w, hasWeight := strings.Cut(strings.TrimSpace(part), ":")
		t, err := TemplateByName(name)
		if err != nil {
			return nil, fmt.Errorf("mix %q: %w", s, err)
		}
		weight := 1
		if hasWeight {
			weight, err = strconv.Atoi(strings.TrimSpace(w))
			if err != nil || weight <= 0 {
				return nil, fmt.Errorf("mix %q: the weight of %s must be a positive integer, got %q", s, t.Name, w)
			}
		}
		if _, dup := m[t.ID]; dup {
			return nil, fmt.Errorf("mix %q: %s appears twice", s, t.Name)
		}
		m[t.ID] = weight
	}
	return m, nil
}

// Mix returns a mixed workload: for each template t in weights, the first
// weights[t]·perWeight instances of t in instances (all of t's instances when
// there are fewer), in one sequence shuffled with seed. Templates without a
// weight are left out.
func Mix(instances []Instance, weights map[int]int, perWeight int, seed uint64) ([]Instance, error) {
	if len(weights) == 0 {
		return nil, fmt.Errorf("empty mix")
	}
	if perWeight <= 0 {
		return nil, fmt.Errorf("the number of instances per unit of weight must be positive, got %d", perWeight)
	}
	byTemplate := map[int][]Instance{}
	for _, in := range instances {
		byTemplate[in.Template] = append(byTemplate[in.Template], in)
	}
	ids := make([]int, 0, len(weights))
	for id, w := range weights {
		if _, err := TemplateByID(id); err != nil {
			return nil, err
		}
		if w <= 0 {
			return nil, fmt.Errorf("the weight of QT%d must be positive, got %d", id, w)
		}
		if len(byTemplate[id]) == 0 {
			return nil, fmt.Errorf("the mix wants QT%d but there are no instances of it", id)
		}
		ids = append(ids, id)
	}
	slices.Sort(ids) // map order must not leak into the result
	var out []Instance
	for _, id := range ids {
		all := byTemplate[id]
		out = append(out, all[:min(len(all), weights[id]*perWeight)]...)
	}
	r := rand.New(rand.NewPCG(seed, mixStream))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, nil
}

// GenerateMix generates weights[t]·perWeight instances of every template t in
// weights (all possible ones when fewer exist) and mixes them with Mix. A
// template's instances are the same as Generate's with the same seed.
func GenerateMix(meta *dataset.Meta, weights map[int]int, perWeight int, seed uint64) ([]Instance, error) {
	if perWeight <= 0 {
		return nil, fmt.Errorf("the number of instances per template must be positive, got %d", perWeight)
	}
	var all []Instance
	for id, w := range weights {
		if w <= 0 {
			return nil, fmt.Errorf("the weight of QT%d must be positive, got %d", id, w)
		}
		inst, err := Generate(meta, Options{PerTemplate: w * perWeight, Templates: []int{id}, Seed: seed})
		if err != nil {
			return nil, err
		}
		all = append(all, inst...)
	}
	return Mix(all, weights, perWeight, seed)
}
