package dataset

import (
	"math/rand/v2"
	"sync"
)

// The word lists are part of the generator (they change only with Version):
// pseudo-words built from syllables by a fixed random stream, so titles,
// abstracts and research interests are deterministic, ASCII, free of SQL
// metacharacters, and short enough for LinGBM's column sizes (a word has at
// most maxWordLen bytes, so 20 abstract words fit varchar(250)).
const (
	// VocabularySize is the number of words titles and abstracts draw from.
	// Hits of a keyword search grow linearly with the scale factor.
	VocabularySize = 16384
	// InterestVocabularySize is the number of research-interest words: a small
	// list (LUBM has 30 research areas), so that filters on an advisor's
	// interest (QT13, QT14) select a few per cent of the professors.
	InterestVocabularySize = 64
	maxWordLen             = 11
)

var (
	onsets  = []string{"b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "ch", "gr", "st", "tr", "th"}
	nuclei  = []string{"a", "e", "i", "o", "u", "ai", "ou", "ea"}
	codas   = []string{"", "", "", "n", "r", "s", "l", "x"}
	wordsMu sync.Once
	vocab   []string
	intrst  []string
)

func buildWords() {
	r := rand.New(rand.NewPCG(0x6771_6c62_656e_6368, 1)) // fixed: the lists never depend on the user's seed
	seen := make(map[string]bool, VocabularySize+InterestVocabularySize)
	next := func() string {
		for {
			var b []byte
			n := 2 + r.IntN(3) // 2..4 syllables
			for i := 0; i < n; i++ {
				b = append(b, onsets[r.IntN(len(onsets))]...)
				b = append(b, nuclei[r.IntN(len(nuclei))]...)
				if i == n-1 {
					b = append(b, codas[r.IntN(len(codas))]...)
				}
			}
			w := string(b)
			if len(w) > maxWordLen || seen[w] {
				continue
			}
			seen[w] = true
			return w
		}
	}
	vocab = make([]string, VocabularySize)
	for i := range vocab {
		vocab[i] = next()
	}
	intrst = make([]string, InterestVocabularySize)
	for i := range intrst {
		intrst[i] = next()
	}
}

// Vocabulary returns the words of titles and abstracts. Do not modify it.
func Vocabulary() []string {
	wordsMu.Do(buildWords)
	return vocab
}

// InterestVocabulary returns the words of research interests. Do not modify it.
func InterestVocabulary() []string {
	wordsMu.Do(buildWords)
	return intrst
}
