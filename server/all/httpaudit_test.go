package all_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/internal/nodetest"
	"github.com/gqlbench/gqlbench/server"
)

// notApplicable lists, per variant, the graphql-http audits that cannot
// apply to it by its nature, each with the reason.
//
// null answers every request with one canned response, {"data":
// {"__typename":"Query"}}, without reading the query: that is its job (it
// measures the load generator's ceiling, so it must not parse). It cannot
// find a document's parse, validation or variable-coercion failure, so the
// audits that send such a document under application/graphql-response+json
// and want a 4xx without data cannot apply. (Their application/json twins
// want 200, which null gives; the MAY audit 9C48, a mutation over GET, is a
// notice, not asserted here.)
var notApplicable = map[string]map[string]string{
	"null": {
		"865D": "a parse failure: null does not parse",
		"556A": "a parse failure: null does not parse",
		"D586": "a parse failure: null does not parse",
		"51FE": "a validation failure: null does not validate",
		"74FF": "a validation failure: null does not validate",
		"5E5B": "a validation failure: null does not validate",
		"86EE": "a variable-coercion failure: null does not coerce variables",
	},
}

// TestHTTPAudit runs graphql-http's GraphQL-over-HTTP server audits against
// every registered variant, served by server.Handler over a small SQLite
// dataset, and wants no error (a MUST not met) and no warning (a SHOULD not
// met). Notices (a MAY not met) are logged. A new variant is covered by
// registering it; nothing here needs to change.
func TestHTTPAudit(t *testing.T) {
	nodetest.Ensure(t)
	db := "sqlite:" + filepath.Join(t.TempDir(), "audit.db")
	if _, err := loadDB(context.Background(), db, testDataset); err != nil {
		t.Fatal(err)
	}
	for _, v := range server.Variants() {
		if v.Process != nil {
			continue // a server of another stack: not gqlbench's HTTP layer
		}
		t.Run(v.Name, func(t *testing.T) {
			e, err := v.Open(context.Background(), serverConfig(db))
			if err != nil {
				t.Fatalf("opening %s: %v", v.Name, err)
			}
			t.Cleanup(func() { closeExecutor(e) })
			srv := httptest.NewServer(server.Handler(e, server.HTTPOptions{Variant: v.Name}))
			t.Cleanup(srv.Close)

			all := nodetest.Audit(t, srv.URL+"/graphql")
			skip := notApplicable[v.Name]
			var ids []string
			for _, a := range all.Audits {
				if reason, ok := skip[a.ID]; ok {
					ids = append(ids, a.ID)
					if a.Status == nodetest.StatusOK {
						t.Errorf("%s passes audit %s, listed as not applicable to it (%s): take it off the list", v.Name, a.ID, reason)
					}
				}
			}
			if len(ids) != len(skip) {
				t.Errorf("%d of the %d audits listed as not applicable to %s exist in graphql-http: %v", len(ids), len(skip), v.Name, ids)
			}
			r := all.Without(ids...)
			t.Logf("%s: %s (%s before leaving out %d not applicable)", v.Name, r, all, len(ids))
			var bad, notices []string
			for _, a := range r.NotOK() {
				if a.Status == nodetest.StatusNotice {
					notices = append(notices, "  "+a.String())
				} else {
					bad = append(bad, "  "+a.String())
				}
			}
			if len(notices) > 0 {
				t.Logf("notices (MAY):\n%s", strings.Join(notices, "\n"))
			}
			if r.Error != 0 || r.Warn != 0 {
				t.Errorf("%s: %d errors, %d warnings:\n%s", v.Name, r.Error, r.Warn, strings.Join(bad, "\n"))
			}
		})
	}
}
