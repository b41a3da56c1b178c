package queryfile

import (
	"encoding/json"
	"reflect"
	"testing"
)

// fastLineCases are lines fastLine takes or leaves: every one must read as
// encoding/json reads it.
var fastLineCases = []string{
	`{"id":"q1","template":"Q","query":"query Q($row: Int) { __typename }","variables":{"row":1},"expect":"` + hash + `"}`,
	` { "id" : "a" , "template":"T", "query":"{x}" , "unordered" : true, "variables": { "u" : [1, "}]"] } } `,
	`{"id":"a","template":"T","query":"{x}","unordered":false,"expect":null,"variables":null,"operationName":null}`,
	`{"id":"a","template":"T","query":"{x}","unordered":null,"dialect":"postgraphile","operationName":"Op"}`,
	`{"id":"é","template":"Ünïcode","query":"{ a(s: \"x\") }"}`, // an escape: encoding/json's
	`{"id":"a","template":"T","query":"{x}","answer":{"b":[2,1]},"plan":[{"call":"GET /a"}],"steps":null}`,
	`{"id":"a","template":"T","query":"{x}","dataset":{"sf":1,"seed":0,"version":1}}`,
	`{"id":"a","ID":"b","template":"T","query":"{x}"}`,            // another spelling
	`{"id":"a","id":"b","template":"T","query":"{x}"}`,            // a duplicate
	`{"id":"a","template":"T","query":"{x}","extra":[1,{"y":2}]}`, // another member
	`{"id":"a","template":"T","query":"{x}","expect":""}`,
	`{"id":"a","template":"T","query":"{x}","variables":{"u":tru}}`,
	`{"id":"a","template":"T","query":"{x}","unordered":"yes"}`,
	`{"id":1,"template":"T","query":"{x}"}`,
	`{"id":"a","template":"T","query":"bad` + "\x01" + `"}`,
	`{"id":"a","template":"T","query":"` + "\xff" + `"}`,
	`{"id":"a","template":"T","query":"{x}"} {}`,
	`{"id":"a","template":"T","query":"{x}",}`,
	`{"id":"a" "template":"T"}`,
	`{"id":"a","template":"T","query":"{x}"`,
	`{}`,
	`[]`,
	`{"variables":{"a":"\"}"}}`,
}

// TestFastLine: what fastLine reads is what encoding/json reads.
func TestFastLine(t *testing.T) {
	fast := 0
	for _, line := range fastLineCases {
		if checkFastLine(t, []byte(line)) {
			fast++
		}
	}
	if fast < 5 {
		t.Errorf("fastLine read %d of the lines", fast)
	}
}

// checkFastLine compares fastLine with encoding/json on line, and says
// whether fastLine took it.
func checkFastLine(t *testing.T, line []byte) bool {
	var fast, slow rawLine
	if !fastLine(line, &fast, map[string]string{}, false) {
		return false
	}
	if err := json.Unmarshal(line, &slow); err != nil {
		t.Errorf("%s: fastLine took a line encoding/json refuses: %v", line, err)
		return true
	}
	deref := func(p *string) string {
		if p == nil {
			return "<absent>"
		}
		return *p
	}
	fe, se := deref(fast.Expect), deref(slow.Expect)
	fast.Expect, slow.Expect, fast.expect = nil, nil, ""
	if fe != se || !reflect.DeepEqual(fast, slow) {
		t.Errorf("%s:\nfastLine      %+v %v\nencoding/json %+v %v", line, fast, fe, slow, se)
	}
	return true
}

func FuzzFastLine(f *testing.F) {
	for _, line := range fastLineCases {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, line []byte) { checkFastLine(t, line) })
}
