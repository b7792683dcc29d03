package apispec_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/binderyhq/bindery/internal/apispec"
)

// recorder is a testing.TB whose Errorf records the failure instead of
// failing the wrapped test.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// failures runs fn with a recorder and returns the recorded failures.
func failures(t *testing.T, fn func(tb testing.TB)) []string {
	t.Helper()
	r := &recorder{TB: t}
	fn(r)
	return r.errs
}

// expectFailure asserts fn fails with a message containing every want.
func expectFailure(t *testing.T, fn func(tb testing.TB), want ...string) {
	t.Helper()
	errs := failures(t, fn)
	if len(errs) == 0 {
		t.Fatalf("expected a failure, got none")
	}
	msg := strings.Join(errs, "\n")
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("failure message lacks %q:\n%s", w, msg)
		}
	}
}

// expectPass asserts fn records no failure.
func expectPass(t *testing.T, fn func(tb testing.TB)) {
	t.Helper()
	if errs := failures(t, fn); len(errs) > 0 {
		t.Errorf("unexpected failure:\n%s", strings.Join(errs, "\n"))
	}
}

const validUser = `{"object":"user","id":"u1","displayName":"A","urls":{"location":"https://x.test/v1/users/u1"}}`

func TestLoadIsCached(t *testing.T) {
	if apispec.Load(t) != apispec.Load(t) {
		t.Fatal("Load returned different specs in one process")
	}
}

func TestValidateSchemaUser(t *testing.T) {
	t.Parallel()
	spec := apispec.Load(t)
	spec.ValidateSchema(t, "User", []byte(validUser))
	expectPass(t, func(tb testing.TB) { spec.ValidateSchema(tb, "User", []byte(validUser)) })
}

func TestValidateSchemaUserInvalid(t *testing.T) {
	t.Parallel()
	spec := apispec.Load(t)
	cases := map[string]struct{ body, reason string }{
		"missing displayName": {`{"object":"user","id":"u1","urls":{"location":"https://x.test/v1/users/u1"}}`, "missing property 'displayName'"},
		"wrong object":        {`{"object":"member","id":"u1","displayName":"A","urls":{"location":"https://x.test/v1/users/u1"}}`, "value must be 'user'"},
		"location not a uri":  {`{"object":"user","id":"u1","displayName":"A","urls":{"location":"not a uri"}}`, "is not valid uri"},
		"not json":            {`{"object":`, "body is not JSON"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			expectFailure(t, func(tb testing.TB) { spec.ValidateSchema(tb, "User", []byte(c.body)) }, "schema User", c.reason, c.body)
		})
	}
}

func TestValidateSchemaTruncatesBody(t *testing.T) {
	t.Parallel()
	spec := apispec.Load(t)
	body := `{"object":"user","pad":"` + strings.Repeat("x", 5000) + `"}`
	errs := failures(t, func(tb testing.TB) { spec.ValidateSchema(tb, "User", []byte(body)) })
	total := fmt.Sprintf("(%d bytes total)", len(body))
	if len(errs) != 1 || len(errs[0]) > 4000 || !strings.Contains(errs[0], total) {
		t.Errorf("want one truncated failure, got %d: %.300q", len(errs), errs)
	}
}

func TestValidateSchemaUnknownName(t *testing.T) {
	t.Parallel()
	spec := apispec.Load(t)
	expectFailure(t, func(tb testing.TB) { spec.ValidateSchema(tb, "NoSuchSchema", []byte(`{}`)) }, "NoSuchSchema")
}

func TestValidateResponseNotFound(t *testing.T) {
	t.Parallel()
	spec := apispec.Load(t)
	spec.ValidateResponse(t, "GET", "/v1/orgs/o1", 404, []byte(`{"error":{"code":404,"message":"x"}}`))
	expectFailure(t, func(tb testing.TB) {
		spec.ValidateResponse(tb, "GET", "/v1/orgs/o1", 404, []byte(`{"error":{"code":500,"message":"x"}}`))
	}, "GET /v1/orgs/o1 -> 404")
	expectFailure(t, func(tb testing.TB) {
		spec.ValidateResponse(tb, "GET", "/v1/orgs/o1", 404, []byte(`{"message":"x"}`))
	}, "error")
}

func TestValidateResponseUndeclared(t *testing.T) {
	t.Parallel()
	spec := apispec.Load(t)
	expectFailure(t, func(tb testing.TB) {
		spec.ValidateResponse(tb, "GET", "/v1/orgs/o1", 418, []byte(`{}`))
	}, "status 418 is not declared", "200, 404")
	expectFailure(t, func(tb testing.TB) {
		spec.ValidateResponse(tb, "DELETE", "/v1/orgs/o1", 204, nil)
	}, "no DELETE operation", "get, patch")
	expectFailure(t, func(tb testing.TB) {
		spec.ValidateResponse(tb, "GET", "/v1/no/such/path", 200, []byte(`{}`))
	}, "no path template")
}

func TestValidateResponseNoContent(t *testing.T) {
	t.Parallel()
	spec := apispec.Load(t)
	for _, status := range []int{204, 205} {
		spec.ValidateResponse(t, "DELETE", "/v1/spaces/s1", status, nil)
		expectFailure(t, func(tb testing.TB) {
			spec.ValidateResponse(tb, "DELETE", "/v1/spaces/s1", status, []byte(`{}`))
		}, "expected an empty body")
	}
}

const validOrg = `{
	"object": "organization",
	"id": "o1",
	"title": "Acme",
	"createdAt": "2024-05-01T10:00:00.000Z",
	"plan": "free",
	"inviteLinks": true,
	"type": "business",
	"emailDomains": [],
	"mergeRules": {"type": "none"},
	"trial": {"status": "none", "count": 0},
	"urls": {"location": "https://api.x.test/v1/orgs/o1", "app": "https://app.x.test/o/o1/"},
	"permissions": {"view": true, "access": true, "admin": false, "ownTeam": false,
		"createContent": false, "createOpenAPISpec": false, "viewBilling": false,
		"listMembers": true, "listTeams": true, "listIntegrations": false,
		"listInstallations": false, "installIntegration": false}
}`

func TestValidateResponseOrganizationList(t *testing.T) {
	t.Parallel()
	spec := apispec.Load(t)
	spec.ValidateResponse(t, "GET", "/v1/orgs/o1", 200, []byte(validOrg))
	spec.ValidateResponse(t, "GET", "/v1/orgs", 200, []byte(`{"items":[`+validOrg+`],"count":1}`))
	spec.ValidateResponse(t, "GET", "/v1/orgs?limit=1", 200, []byte(`{"items":[],"next":{"page":"p2"}}`))
	badDate := strings.Replace(validOrg, "2024-05-01T10:00:00.000Z", "yesterday", 1)
	expectFailure(t, func(tb testing.TB) {
		spec.ValidateResponse(tb, "GET", "/v1/orgs", 200, []byte(`{"items":[`+badDate+`]}`))
	}, "createdAt")
	expectFailure(t, func(tb testing.TB) {
		spec.ValidateResponse(tb, "GET", "/v1/orgs", 200, []byte(`{"count":0}`))
	}, "items")
}

func TestMatch(t *testing.T) {
	t.Parallel()
	spec := apispec.Load(t)
	cases := map[string]string{
		"/v1/orgs/o1":                 "/orgs/{organizationId}",
		"/orgs/o1":                    "/orgs/{organizationId}",
		"/v1/orgs/o1/":                "/orgs/{organizationId}",
		"/v1/orgs":                    "/orgs",
		"/v1/user":                    "/user",
		"/v1/orgs/o1/members/u1":      "/orgs/{organizationId}/members/{userId}",
		"/v1/orgs/o1/members/u1/sso":  "/orgs/{organizationId}/members/{userId}/sso",
		"/v1/orgs/o1/members/sso/sso": "/orgs/{organizationId}/members/{userId}/sso",
		"/v1/orgs/o1/openapi/api/versions/latest":         "/orgs/{organizationId}/openapi/{specSlug}/versions/latest",
		"/v1/orgs/o1/openapi/api/versions/v7":             "/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}",
		"/v1/orgs/o1/openapi/api/versions/latest/content": "/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content",
	}
	for path, want := range cases {
		if got, ok := spec.Match(path); !ok || got != want {
			t.Errorf("Match(%q) = %q, %v; want %q", path, got, ok, want)
		}
	}
	for _, path := range []string{"/v1/nope", "/v1/orgs/o1/members/u1/sso/x", "/v2/orgs"} {
		if got, ok := spec.Match(path); ok {
			t.Errorf("Match(%q) = %q; want no match", path, got)
		}
	}
}

func TestHasOperation(t *testing.T) {
	t.Parallel()
	spec := apispec.Load(t)
	cases := []struct {
		method, path string
		want         bool
	}{
		{"GET", "/v1/orgs/o1", true},
		{"patch", "/v1/orgs/o1", true},
		{"DELETE", "/v1/orgs/o1", false},
		{"GET", "/v1/orgs/o1/members/u1/sso", false},
		{"GET", "/v1/nope", false},
	}
	for _, c := range cases {
		if got := spec.HasOperation(c.method, c.path); got != c.want {
			t.Errorf("HasOperation(%s, %s) = %v; want %v", c.method, c.path, got, c.want)
		}
	}
}

func TestConcurrentValidation(t *testing.T) {
	t.Parallel()
	spec := apispec.Load(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			spec.ValidateSchema(t, "User", []byte(validUser))
			spec.ValidateResponse(t, "GET", "/v1/orgs/o1", 404, []byte(`{"error":{"code":404,"message":"x"}}`))
		})
	}
	wg.Wait()
}
