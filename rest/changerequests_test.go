package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// crFixture is an organization with one space and its admin.
type crFixture struct {
	e            *testenv.Env
	admin        testenv.Actor
	org, space   string
	spaceRevBase string // the space's revision when the fixture was made
}

func newCRFixture(t *testing.T, opts ...func(*server.Options)) *crFixture {
	t.Helper()
	f := &crFixture{e: testenv.New(t, opts...)}
	f.admin, f.org = f.e.Bootstrap("ada@example.com", "Acme")
	s := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Docs"})
	f.space, f.spaceRevBase = s["id"].(string), s["revision"].(string)
	return f
}

// path is the change request collection of the fixture's space, followed by suffix.
func (f *crFixture) path(suffix string) string {
	return "/v1/spaces/" + f.space + "/change-requests" + suffix
}

// create opens a change request as a and returns it.
func (f *crFixture) create(t *testing.T, a testenv.Actor, subject string) map[string]any {
	t.Helper()
	r := f.e.Do(a, "POST", f.path(""), map[string]any{"subject": subject})
	crWant(t, r, http.StatusCreated)
	return r.Map(t)
}

// patch changes a change request (id or number) as the admin and returns it.
func (f *crFixture) patch(t *testing.T, ref string, body map[string]any) map[string]any {
	t.Helper()
	r := f.e.Do(f.admin, "PATCH", f.path("/"+ref), body)
	crWant(t, r, http.StatusOK)
	return r.Map(t)
}

// counters returns the space's changeRequests, changeRequestsOpen and changeRequestsDraft.
func (f *crFixture) counters(t *testing.T) [3]int {
	t.Helper()
	s := f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space, nil).Map(t)
	return [3]int{int(s["changeRequests"].(float64)), int(s["changeRequestsOpen"].(float64)), int(s["changeRequestsDraft"].(float64))}
}

func (f *crFixture) wantCounters(t *testing.T, total, open, draft int) {
	t.Helper()
	if got, want := f.counters(t), [3]int{total, open, draft}; got != want {
		t.Fatalf("space counters (total, open, draft) = %v, want %v", got, want)
	}
}

// list returns the numbers of a change request list (path relative to the collection).
func (f *crFixture) list(t *testing.T, a testenv.Actor, query string) ([]int, map[string]any) {
	t.Helper()
	r := f.e.Do(a, "GET", f.path(query), nil)
	crWant(t, r, http.StatusOK)
	l := r.Map(t)
	var numbers []int
	for _, it := range l["items"].([]any) {
		numbers = append(numbers, int(it.(map[string]any)["number"].(float64)))
	}
	return numbers, l
}

func crWant(t *testing.T, r testenv.Response, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("want %d, got %d %s", status, r.Status, r.Body)
	}
}

func crWantError(t *testing.T, r testenv.Response, status int, words ...string) {
	t.Helper()
	msg := testenv.CheckError(t, r, status)
	for _, w := range words {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not mention %q", msg, w)
		}
	}
}

// system is a context that writes around the policies, to set up states the API reaches only
// through the merge and content endpoints.
func system() context.Context { return accounts.System(context.Background()) }

// newSpaceRevision gives the space a new active revision (as a merge would) and returns its id.
func (f *crFixture) newSpaceRevision(t *testing.T) string {
	t.Helper()
	c := f.e.Store.Client
	rev, err := c.Revision.Create().SetSpaceID(f.space).SetOrganizationID(f.org).SetType(revision.TypeMerge).
		SetRootTree(rootTreeOf(t, f.e, f.spaceRevBase)).Save(system())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Space.UpdateOneID(f.space).SetRevisionID(rev.ID).Exec(system()); err != nil {
		t.Fatal(err)
	}
	return rev.ID
}

func TestChangeRequestCreate(t *testing.T) {
	f := newCRFixture(t)
	t.Run("OK", func(t *testing.T) {
		cr := f.create(t, f.admin, "  Fix the intro  ")
		if cr["object"] != "change-request" || cr["number"] != 1.0 || cr["status"] != "open" || cr["subject"] != "Fix the intro" ||
			cr["space"] != f.space || cr["comments"] != 0.0 || cr["outdated"] != false {
			t.Fatalf("change request: %v", cr)
		}
		if cr["revision"] != f.spaceRevBase || cr["revisionInitial"] != f.spaceRevBase {
			t.Fatalf("revisions %v, %v; want the space's %s", cr["revision"], cr["revisionInitial"], f.spaceRevBase)
		}
		for _, absent := range []string{"revisionMergedAncestor", "revisionMerged", "mergedBy", "mergedAt"} {
			if _, ok := cr[absent]; ok {
				t.Errorf("%s is set on a new change request: %v", absent, cr[absent])
			}
		}
		if by := cr["createdBy"].(map[string]any); by["id"] != f.admin.UserID || by["email"] != f.admin.Email {
			t.Fatalf("createdBy: %v", by)
		}
		urls := cr["urls"].(map[string]any)
		if !strings.HasSuffix(urls["location"].(string), f.path("/"+cr["id"].(string))) ||
			!strings.HasSuffix(urls["app"].(string), "/s/"+f.space+"/~/changes/1") {
			t.Fatalf("urls: %v", urls)
		}
		f.wantCounters(t, 1, 1, 0)
	})
	t.Run("OKNoBody", func(t *testing.T) {
		r := f.e.Do(f.admin, "POST", f.path(""), nil)
		crWant(t, r, http.StatusCreated)
		if cr := r.Map(t); cr["subject"] != "" || cr["number"] != 2.0 {
			t.Fatalf("change request: %v", cr)
		}
	})
	t.Run("OKLocationHeader", func(t *testing.T) {
		req, _ := http.NewRequest("POST", f.e.Server.URL+f.path(""), strings.NewReader(`{}`))
		req.Header.Set("Authorization", "Bearer "+f.admin.Token)
		res, err := f.e.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if loc := res.Header.Get("Location"); res.StatusCode != http.StatusCreated || !strings.HasPrefix(loc, f.e.Server.URL+f.path("/")) {
			t.Fatalf("%d, Location %q", res.StatusCode, loc)
		}
	})
	t.Run("OKSubjectAtBound", func(t *testing.T) {
		subject := strings.Repeat("é", 100)
		if cr := f.create(t, f.admin, subject); cr["subject"] != subject {
			t.Fatalf("subject %q", cr["subject"])
		}
	})
	for name, body := range map[string]any{
		"ErrSubjectTooLong": map[string]any{"subject": strings.Repeat("a", 101)},
		"ErrSubjectNull":    map[string]any{"subject": nil},
		"ErrSubjectNumber":  map[string]any{"subject": 3},
		"ErrTemplate":       map[string]any{"template": map[string]any{"id": "t"}},
	} {
		t.Run(name, func(t *testing.T) {
			word := "subject"
			if name == "ErrTemplate" {
				word = "template"
			}
			crWantError(t, f.e.Do(f.admin, "POST", f.path(""), body), http.StatusBadRequest, word)
		})
	}
	t.Run("ErrSubjectTooLongNamesBound", func(t *testing.T) {
		crWantError(t, f.e.Do(f.admin, "POST", f.path(""), map[string]any{"subject": strings.Repeat("a", 101)}),
			http.StatusBadRequest, "subject", "100")
	})
	t.Run("ErrLockedSpace", func(t *testing.T) {
		crWant(t, f.e.Do(f.admin, "PATCH", "/v1/spaces/"+f.space, map[string]any{"editMode": "locked"}), http.StatusOK)
		defer f.e.Do(f.admin, "PATCH", "/v1/spaces/"+f.space, map[string]any{"editMode": "live"})
		crWantError(t, f.e.Do(f.admin, "POST", f.path(""), nil), http.StatusForbidden, "locked")
	})
	t.Run("ErrUnknownSpace", func(t *testing.T) {
		crWant(t, f.e.Do(f.admin, "POST", "/v1/spaces/nope/change-requests", nil), http.StatusNotFound)
	})
	t.Run("CountersExact", func(t *testing.T) {
		f.wantCounters(t, 4, 4, 0) // the failures above counted nothing
	})
}

// TestChangeRequestNumbersConcurrent: 20 creations at once, spread over two servers on one
// database (as several processes would be), take the numbers 1..20, each once, and the counters
// end exact. On PostgreSQL the transactions really overlap (a pool of connections); the space's
// row lock is what serializes them.
func TestChangeRequestNumbersConcurrent(t *testing.T) {
	f := newCRFixture(t)
	h, _ := server.New(f.e.Store, server.Defaults(""))
	second := httptest.NewServer(h)
	defer second.Close()
	const n = 20
	statuses := make([]int, n)
	bodies := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			base := f.e.Server.URL
			if i%2 == 1 {
				base = second.URL
			}
			req, _ := http.NewRequest("POST", base+f.path(""), strings.NewReader(fmt.Sprintf(`{"subject":"cr %d"}`, i)))
			req.Header.Set("Authorization", "Bearer "+f.admin.Token)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				bodies[i] = err.Error()
				return
			}
			defer res.Body.Close()
			statuses[i] = res.StatusCode
		}()
	}
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusCreated {
			t.Fatalf("creation %d: %d %s", i, s, bodies[i])
		}
	}
	numbers, _ := f.list(t, f.admin, "?limit=100")
	slices.Sort(numbers)
	for i, got := range numbers {
		if got != i+1 {
			t.Fatalf("numbers %v, want 1..%d each once", numbers, n)
		}
	}
	if len(numbers) != n {
		t.Fatalf("%d change requests, want %d", len(numbers), n)
	}
	f.wantCounters(t, n, n, 0)
}

func TestChangeRequestGet(t *testing.T) {
	f := newCRFixture(t)
	first := f.create(t, f.admin, "First")
	f.create(t, f.admin, "Second")
	other := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Other"})["id"].(string)
	foreign := f.e.Do(f.admin, "POST", "/v1/spaces/"+other+"/change-requests", nil).Map(t)
	cases := []struct {
		name, ref string
		status    int
		subject   string
	}{
		{"OKByID", first["id"].(string), http.StatusOK, "First"},
		{"OKByNumber", "2", http.StatusOK, "Second"},
		{"OKByNumberLeadingZero", "01", http.StatusOK, "First"},
		{"ErrNumberZero", "0", http.StatusNotFound, ""},
		{"ErrNumberUnknown", "3", http.StatusNotFound, ""},
		{"ErrNegative", "-1", http.StatusNotFound, ""},
		{"ErrHugeNumber", "99999999999999999999", http.StatusNotFound, ""},
		{"ErrUnknownID", "nope", http.StatusNotFound, ""},
		{"ErrOtherSpacesChangeRequest", foreign["id"].(string), http.StatusNotFound, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := f.e.Do(f.admin, "GET", f.path("/"+c.ref), nil)
			crWant(t, r, c.status)
			if c.status == http.StatusOK && r.Map(t)["subject"] != c.subject {
				t.Fatalf("got %s", r.Body)
			}
		})
	}
	t.Run("ErrUnknownSpace", func(t *testing.T) {
		crWant(t, f.e.Do(f.admin, "GET", "/v1/spaces/nope/change-requests/1", nil), http.StatusNotFound)
	})
}

func TestChangeRequestUpdate(t *testing.T) {
	f := newCRFixture(t)
	cr := f.create(t, f.admin, "Draft me")
	f.create(t, f.admin, "Stays open")
	t.Run("OKSubject", func(t *testing.T) {
		got := f.patch(t, "1", map[string]any{"subject": " Renamed "})
		if got["subject"] != "Renamed" || got["status"] != "open" || got["updatedAt"] == cr["updatedAt"] {
			t.Fatalf("after PATCH: %v (before %v)", got, cr)
		}
		f.wantCounters(t, 2, 2, 0)
	})
	steps := []struct {
		status             string
		total, open, draft int
	}{
		{"draft", 2, 1, 1},
		{"draft", 2, 1, 1}, // the same status again changes no counter
		{"archived", 2, 1, 0},
		{"open", 2, 2, 0},
		{"archived", 2, 1, 0},
		{"draft", 2, 1, 1},
		{"open", 2, 2, 0},
	}
	for _, s := range steps {
		t.Run("OKStatus/"+s.status, func(t *testing.T) {
			if got := f.patch(t, cr["id"].(string), map[string]any{"status": s.status}); got["status"] != s.status {
				t.Fatalf("status %v", got["status"])
			}
			f.wantCounters(t, s.total, s.open, s.draft)
		})
	}
	t.Run("OKPreferMinimal", func(t *testing.T) {
		sendMinimal(t, f.e, f.admin, "PATCH", f.path("/1"), `{"subject":"Quiet"}`)
		if got := f.e.Do(f.admin, "GET", f.path("/1"), nil).Map(t); got["subject"] != "Quiet" {
			t.Fatalf("subject %v", got["subject"])
		}
	})
	for name, c := range map[string]struct {
		body  map[string]any
		words []string
	}{
		"ErrStatusMerged":   {map[string]any{"status": "merged"}, []string{"status", "merg"}},
		"ErrStatusUnknown":  {map[string]any{"status": "closed"}, []string{"status", "draft, open, archived"}},
		"ErrStatusNull":     {map[string]any{"status": nil}, []string{"status"}},
		"ErrSubjectTooLong": {map[string]any{"subject": strings.Repeat("x", 101)}, []string{"subject", "100"}},
	} {
		t.Run(name, func(t *testing.T) {
			crWantError(t, f.e.Do(f.admin, "PATCH", f.path("/1"), c.body), http.StatusBadRequest, c.words...)
			f.wantCounters(t, 2, 2, 0)
		})
	}
	t.Run("ErrUnknown", func(t *testing.T) {
		crWant(t, f.e.Do(f.admin, "PATCH", f.path("/9"), map[string]any{"status": "open"}), http.StatusNotFound)
	})
	t.Run("Merged", func(t *testing.T) {
		// As a merge leaves it: status merged, revisionMerged set, counted out of open.
		rev := f.newSpaceRevision(t)
		err := f.e.Store.Client.ChangeRequest.UpdateOneID(cr["id"].(string)).SetStatus(changerequest.StatusMerged).
			SetRevisionMergedID(rev).SetMergedBy(f.admin.UserID).SetMergedAt(time0()).Exec(system())
		if err != nil {
			t.Fatal(err)
		}
		if err := f.e.Store.Client.Space.UpdateOneID(f.space).AddChangeRequestsOpenCount(-1).Exec(system()); err != nil {
			t.Fatal(err)
		}
		for _, status := range []string{"open", "draft", "archived"} {
			crWantError(t, f.e.Do(f.admin, "PATCH", f.path("/1"), map[string]any{"status": status}), http.StatusBadRequest, "merged")
		}
		got := f.patch(t, "1", map[string]any{"subject": "Merged, renamed"})
		if got["status"] != "merged" || got["subject"] != "Merged, renamed" || got["revisionMerged"] != rev ||
			got["mergedBy"].(map[string]any)["id"] != f.admin.UserID || got["mergedAt"] == nil || got["outdated"] != false {
			t.Fatalf("merged change request: %v", got)
		}
		f.wantCounters(t, 2, 1, 0)
	})
}

// time0 is a fixed time, stored as the database keeps it.
func time0() time.Time { return time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC) }

func TestChangeRequestList(t *testing.T) {
	f := newCRFixture(t)
	editor := f.e.User("eve@example.com", f.org, testenv.Role(viewer.RoleEdit))
	one := f.create(t, f.admin, "One")
	f.create(t, editor, "Two")
	f.create(t, f.admin, "Three")
	f.create(t, f.admin, "Four")
	f.patch(t, "3", map[string]any{"status": "draft"})
	f.patch(t, "4", map[string]any{"status": "archived"})
	f.patch(t, "1", map[string]any{"subject": "One, touched"}) // the last updated comes first
	// The editor contributes to #1 by a revision made in it.
	_, err := f.e.Store.Client.Revision.Create().SetSpaceID(f.space).SetOrganizationID(f.org).SetType(revision.TypeEdits).
		SetParents([]string{f.spaceRevBase}).SetRootTree(rootTreeOf(t, f.e, f.spaceRevBase)).
		SetCreatedBy(editor.UserID).SetChangeRequestID(one["id"].(string)).Save(system())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, query string
		want        []int
	}{
		{"OKDefaultOpen", "", []int{1, 2}},
		{"OKOpen", "?status=open", []int{1, 2}},
		{"OKDraft", "?status=draft", []int{3}},
		{"OKArchived", "?status=archived", []int{4}},
		{"OKMergedNone", "?status=merged", nil},
		{"OKOrderByCreatedAt", "?orderBy=createdAt", []int{2, 1}},
		{"OKOrderByUpdatedAt", "?orderBy=updatedAt", []int{1, 2}},
		{"OKCreator", "?creator=" + editor.UserID, []int{2}},
		{"OKCreatorAdmin", "?creator=" + f.admin.UserID, []int{1}},
		{"OKContributor", "?contributor=" + editor.UserID, []int{1, 2}},
		{"OKContributorDraft", "?status=draft&contributor=" + editor.UserID, nil},
		{"OKContributorNobody", "?contributor=nobody", nil},
		{"OKEmptyContributor", "?contributor=", []int{1, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, l := f.list(t, f.admin, c.query)
			if !slices.Equal(got, c.want) || int(l["count"].(float64)) != len(c.want) {
				t.Fatalf("numbers %v (count %v), want %v", got, l["count"], c.want)
			}
		})
	}
	for name, query := range map[string]string{
		"ErrStatusAll":       "?status=all",
		"ErrStatusUpper":     "?status=OPEN",
		"ErrOrderBy":         "?orderBy=number",
		"ErrLimit":           "?limit=1001",
		"ErrPage":            "?page=garbage",
		"ErrContributorLong": "?contributor=" + strings.Repeat("u", 65),
	} {
		t.Run(name, func(t *testing.T) {
			crWant(t, f.e.Do(f.admin, "GET", f.path(query), nil), http.StatusBadRequest)
		})
	}
	t.Run("OKPages", func(t *testing.T) {
		for i := 5; i <= 9; i++ {
			f.create(t, f.admin, fmt.Sprint(i))
		}
		var seen []int
		query := "?limit=2"
		for pages := 0; ; pages++ {
			got, l := f.list(t, f.admin, query)
			if int(l["count"].(float64)) != 7 || pages > 4 {
				t.Fatalf("page %d: %v", pages, l)
			}
			seen = append(seen, got...)
			next, ok := l["next"].(map[string]any)
			if !ok {
				break
			}
			query = "?limit=2&page=" + next["page"].(string)
		}
		if want := []int{9, 8, 7, 6, 5, 1, 2}; !slices.Equal(seen, want) {
			t.Fatalf("pages gave %v, want %v", seen, want)
		}
	})
}

func TestChangeRequestOutdated(t *testing.T) {
	f := newCRFixture(t)
	cr := f.create(t, f.admin, "Based on the first revision")
	outdated := func(t *testing.T, ref string) bool {
		t.Helper()
		return f.e.Do(f.admin, "GET", f.path("/"+ref), nil).Map(t)["outdated"].(bool)
	}
	if outdated(t, "1") {
		t.Fatal("a fresh change request is outdated")
	}
	moved := f.newSpaceRevision(t)
	t.Run("OKMainMoved", func(t *testing.T) {
		if !outdated(t, "1") {
			t.Fatal("the space's content moved, yet the change request is not outdated")
		}
		if _, l := f.list(t, f.admin, ""); !l["items"].([]any)[0].(map[string]any)["outdated"].(bool) {
			t.Fatalf("listed as up to date: %v", l)
		}
	})
	t.Run("OKNewChangeRequestUpToDate", func(t *testing.T) {
		if got := f.create(t, f.admin, "Based on the second"); got["outdated"] != false || got["revisionInitial"] != moved {
			t.Fatalf("change request: %v", got)
		}
	})
	t.Run("OKUpdatedFromMain", func(t *testing.T) {
		err := f.e.Store.Client.ChangeRequest.UpdateOneID(cr["id"].(string)).SetRevisionMergedAncestorID(moved).Exec(system())
		if err != nil {
			t.Fatal(err)
		}
		if outdated(t, "1") {
			t.Fatal("updated from the main content, yet outdated")
		}
		if got := f.e.Do(f.admin, "GET", f.path("/1"), nil).Map(t); got["revisionMergedAncestor"] != moved {
			t.Fatalf("revisionMergedAncestor %v, want %s", got["revisionMergedAncestor"], moved)
		}
	})
}

// crActor is a caller of the role matrix and what they may do with change requests.
type crActor struct {
	name         string
	actor        testenv.Actor
	read, write  bool
	graphQLWrite string // extensions.code of a write over GraphQL ("" for success)
}

// TestChangeRequestRoles: editors and up create and change change requests; commenters and
// readers read them (403 on writes); members without access to the space and outsiders get 404,
// on REST and on GraphQL alike.
func TestChangeRequestRoles(t *testing.T) {
	f := newCRFixture(t)
	member := func(name string, role viewer.Role) testenv.Actor {
		return f.e.User(name+"@example.com", f.org, testenv.Role(role))
	}
	outsider, _ := f.e.Bootstrap("zed@zeta.io", "Zeta")
	grantedGuest := f.e.User("gus@example.com", f.org, nil)
	crWant(t, f.e.Do(f.admin, "POST", "/v1/spaces/"+f.space+"/permissions",
		map[string]any{"role": "edit", "users": []string{grantedGuest.UserID}}), http.StatusNoContent)
	actors := []crActor{
		{"admin", f.admin, true, true, ""},
		{"create", member("cre", viewer.RoleCreate), true, true, ""},
		{"review", member("rev", viewer.RoleReview), true, true, ""},
		{"edit", member("edi", viewer.RoleEdit), true, true, ""},
		{"guestWithEditGrant", grantedGuest, true, true, ""},
		{"comment", member("com", viewer.RoleComment), true, false, "FORBIDDEN"},
		{"read", member("rea", viewer.RoleRead), true, false, "FORBIDDEN"},
		{"guest", f.e.User("gia@example.com", f.org, nil), false, false, "NOT_FOUND"},
		{"outsider", outsider, false, false, "NOT_FOUND"},
	}
	f.create(t, f.admin, "The admin's")
	for _, a := range actors {
		t.Run(a.name, func(t *testing.T) {
			readStatus, writeStatus := http.StatusOK, http.StatusCreated
			switch {
			case !a.read:
				readStatus, writeStatus = http.StatusNotFound, http.StatusNotFound
			case !a.write:
				writeStatus = http.StatusForbidden
			}
			crWant(t, f.e.Do(a.actor, "GET", f.path(""), nil), readStatus)
			crWant(t, f.e.Do(a.actor, "GET", f.path("/1"), nil), readStatus)
			crWant(t, f.e.Do(a.actor, "POST", f.path(""), map[string]any{"subject": a.name}), writeStatus)
			if writeStatus == http.StatusCreated {
				writeStatus = http.StatusOK
			}
			crWant(t, f.e.Do(a.actor, "PATCH", f.path("/1"), map[string]any{"subject": a.name}), writeStatus)

			g := f.e.GraphQL(a.actor, `mutation($s: ID!) { updateChangeRequest(spaceId: $s, id: "1", input: {status: OPEN}) { number } }`,
				map[string]any{"s": f.space})
			if g.Code() != a.graphQLWrite {
				t.Fatalf("GraphQL update: code %q, want %q (%v)", g.Code(), a.graphQLWrite, g.Errors)
			}
			g = f.e.GraphQL(a.actor, `query($s: ID!) { changeRequest(spaceId: $s, id: "1") { number } }`, map[string]any{"s": f.space})
			if readable := g.Code() == ""; readable != a.read {
				t.Fatalf("GraphQL read: code %q, errors %v", g.Code(), g.Errors)
			}
		})
	}
	t.Run("NothingChangedByRefusedWrites", func(t *testing.T) {
		f.wantCounters(t, 6, 6, 0) // the admin's first, then one by each of the five writers
	})
}

// TestChangeRequestPublicSpace: anyone signed in reads the change requests of a public space,
// and sees their authors' names but not their email addresses; writing still takes the edit role.
func TestChangeRequestPublicSpace(t *testing.T) {
	f := newCRFixture(t)
	crWant(t, f.e.Do(f.admin, "PATCH", "/v1/spaces/"+f.space, map[string]any{"visibility": "public"}), http.StatusOK)
	f.create(t, f.admin, "Public work")
	outsider, _ := f.e.Bootstrap("zed@zeta.io", "Zeta")
	_, l := f.list(t, outsider, "")
	by := l["items"].([]any)[0].(map[string]any)["createdBy"].(map[string]any)
	if by["id"] != f.admin.UserID || by["displayName"] != "ada" || by["email"] != "" {
		t.Fatalf("createdBy for an outside reader: %v", by)
	}
	var d struct {
		ChangeRequest struct {
			CreatedBy struct{ DisplayName, Email string }
		}
	}
	gqlOK(t, f.e.GraphQL(outsider, `query($s: ID!) { changeRequest(spaceId: $s, id: "1") { createdBy { displayName email } } }`,
		map[string]any{"s": f.space}), &d)
	if d.ChangeRequest.CreatedBy.DisplayName != "ada" || d.ChangeRequest.CreatedBy.Email != "" {
		t.Fatalf("GraphQL createdBy: %+v", d.ChangeRequest.CreatedBy)
	}
	crWantError(t, f.e.Do(outsider, "POST", f.path(""), nil), http.StatusForbidden, "edit")
}

const crFields = `id number status subject createdAt updatedAt mergedAt spaceId openCommentCount outdated
	createdBy { id } mergedBy { id } revision { id type parents createdAt createdBy { id } }
	revisionInitial { id } revisionMergedAncestor { id } revisionMerged { id }`

func TestChangeRequestGraphQL(t *testing.T) {
	f := newCRFixture(t)
	vars := map[string]any{"s": f.space}
	t.Run("OKCreate", func(t *testing.T) {
		var d struct {
			CreateChangeRequest struct {
				Number   int
				Status   string
				Subject  string
				Outdated bool
				Revision struct {
					ID, Type  string
					Parents   []string
					CreatedBy struct{ ID string }
				}
				RevisionInitial        struct{ ID string }
				RevisionMergedAncestor *struct{ ID string }
				Space                  struct{ ChangeRequestCount, OpenChangeRequestCount int }
			}
		}
		gqlOK(t, f.e.GraphQL(f.admin, `mutation($s: ID!) { createChangeRequest(spaceId: $s, input: {subject: "Via GraphQL"}) { `+crFields+`
			space { changeRequestCount openChangeRequestCount } } }`, vars), &d)
		c := d.CreateChangeRequest
		if c.Number != 1 || c.Status != "OPEN" || c.Subject != "Via GraphQL" || c.Outdated || c.Revision.ID != f.spaceRevBase ||
			c.Revision.Type != "initial" || c.Revision.CreatedBy.ID != f.admin.UserID || c.RevisionInitial.ID != f.spaceRevBase ||
			c.RevisionMergedAncestor != nil || c.Space.ChangeRequestCount != 1 || c.Space.OpenChangeRequestCount != 1 {
			t.Fatalf("created: %+v", c)
		}
	})
	t.Run("OKUpdateAndList", func(t *testing.T) {
		f.create(t, f.admin, "Second")
		var u struct {
			UpdateChangeRequest struct{ Status, Subject string }
		}
		gqlOK(t, f.e.GraphQL(f.admin, `mutation($s: ID!) { updateChangeRequest(spaceId: $s, id: "1", input: {status: DRAFT, subject: "Later"}) { status subject } }`, vars), &u)
		if u.UpdateChangeRequest.Status != "DRAFT" || u.UpdateChangeRequest.Subject != "Later" {
			t.Fatalf("updated: %+v", u)
		}
		var l struct {
			Space struct {
				Open, Drafts, All struct {
					TotalCount int
					Edges      []struct{ Node struct{ Number int } }
				}
				DraftChangeRequestCount int
			}
		}
		gqlOK(t, f.e.GraphQL(f.admin, `query($s: ID!) { space(id: $s) { draftChangeRequestCount
			open: changeRequests { totalCount edges { node { number } } }
			drafts: changeRequests(status: DRAFT) { totalCount edges { node { number } } }
			all: changeRequests(status: null, orderBy: CREATED_AT) { totalCount edges { node { number } } } } }`, vars), &l)
		s := l.Space
		if s.Open.TotalCount != 1 || s.Open.Edges[0].Node.Number != 2 || s.Drafts.TotalCount != 1 || s.Drafts.Edges[0].Node.Number != 1 ||
			s.All.TotalCount != 2 || s.All.Edges[0].Node.Number != 2 || s.DraftChangeRequestCount != 1 {
			t.Fatalf("lists: %+v", s)
		}
	})
	t.Run("ErrStatusMerged", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, `mutation($s: ID!) { updateChangeRequest(spaceId: $s, id: "1", input: {status: MERGED}) { status } }`, vars)
		if g.Code() != "BAD_REQUEST" || !strings.Contains(g.Errors[0].Message, "merg") {
			t.Fatalf("code %q errors %v", g.Code(), g.Errors)
		}
	})
	t.Run("ErrSubjectTooLong", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, `mutation($s: ID!, $subject: String) { createChangeRequest(spaceId: $s, input: {subject: $subject}) { id } }`,
			map[string]any{"s": f.space, "subject": strings.Repeat("a", 101)})
		if g.Code() != "BAD_REQUEST" {
			t.Fatalf("code %q errors %v", g.Code(), g.Errors)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, `query($s: ID!) { changeRequest(spaceId: $s, id: "42") { id } }`, vars)
		if g.Code() != "NOT_FOUND" {
			t.Fatalf("code %q errors %v", g.Code(), g.Errors)
		}
	})
}

// crListStatements bounds the statements of a change request list with everything in it,
// whatever its length: authentication 3 (token, user, memberships), the viewer's content
// snapshot 3, the space 1, the page and its count 2, the revisions 1 (the four each change
// request names), and the users 2 (the authors and mergers of the change requests, then the
// authors of their revisions): 12. REST needs no revisions and no second level of users: 10.
const crListStatements = 12

// TestChangeRequestListStatements: listing change requests with their authors, mergers, space
// and revisions (and the revisions' authors) costs as many statements for 5 change requests as
// for 50, on GraphQL and on REST (the largest count of statementRuns runs of each).
func TestChangeRequestListStatements(t *testing.T) {
	const q = `query($s: ID!) { space(id: $s) { changeRequests(status: null, first: 100) { totalCount edges { node { ` + crFields + `
		space { title } } } } } }`
	count := func(t *testing.T, n int) (graphQL, rest int64) {
		t.Helper()
		f := newCRFixture(t)
		authors := []testenv.Actor{f.admin, f.e.User("eve@example.com", f.org, testenv.Role(viewer.RoleEdit)),
			f.e.User("max@example.com", f.org, testenv.Role(viewer.RoleReview))}
		for i := range n {
			f.fillChangeRequest(t, f.create(t, authors[i%len(authors)], fmt.Sprint(i)), authors[(i+1)%len(authors)], i)
		}
		var g testenv.GQLResponse
		graphQL = gqlStatements(t, f.e, func() { g = f.e.GraphQL(f.admin, q, map[string]any{"s": f.space}) })
		var d struct {
			Space struct {
				ChangeRequests struct {
					TotalCount int
					Edges      []struct {
						Node struct {
							CreatedBy, MergedBy *struct{ ID string }
							Revision            struct{ CreatedBy *struct{ ID string } }
						}
					}
				}
			}
		}
		gqlOK(t, g, &d)
		if got := d.Space.ChangeRequests; got.TotalCount != n || len(got.Edges) != n || got.Edges[0].Node.CreatedBy == nil ||
			got.Edges[0].Node.Revision.CreatedBy == nil {
			t.Fatalf("listed %+v", got)
		}
		rest = gqlStatements(t, f.e, func() { crWant(t, f.e.Do(f.admin, "GET", f.path("?status=draft&limit=100"), nil), http.StatusOK) })
		return graphQL, rest
	}
	smallGQL, smallREST := count(t, 5)
	largeGQL, largeREST := count(t, 50)
	t.Logf("statements: GraphQL %d for 5 change requests, %d for 50; REST %d and %d", smallGQL, largeGQL, smallREST, largeREST)
	if max(smallGQL, largeGQL) > crListStatements || smallREST != largeREST || largeREST > crListStatements {
		t.Fatalf("GraphQL: %d and %d statements; REST: %d and %d; want at most %d", smallGQL, largeGQL, smallREST, largeREST, crListStatements)
	}
}

// fillChangeRequest gives a change request what its life would: a revision of its own by
// contributor, and for every other one a status and an update from the main content.
func (f *crFixture) fillChangeRequest(t *testing.T, cr map[string]any, contributor testenv.Actor, i int) {
	t.Helper()
	c := f.e.Store.Client
	rev, err := c.Revision.Create().SetSpaceID(f.space).SetOrganizationID(f.org).SetType(revision.TypeEdits).
		SetParents([]string{f.spaceRevBase}).SetRootTree(rootTreeOf(t, f.e, f.spaceRevBase)).
		SetCreatedBy(contributor.UserID).SetChangeRequestID(cr["id"].(string)).Save(system())
	if err != nil {
		t.Fatal(err)
	}
	upd := c.ChangeRequest.UpdateOneID(cr["id"].(string)).SetRevisionID(rev.ID)
	if i%2 == 1 {
		upd.SetStatus(changerequest.StatusDraft).SetRevisionMergedAncestorID(f.spaceRevBase)
	}
	if err := upd.Exec(system()); err != nil {
		t.Fatal(err)
	}
}

// TestChangeRequestListReadsAskedColumns: a list of change requests reads, of each row, the
// columns of the fields its nodes ask (decision 357), and each field answers as it does when every
// column is read: each field asked alone gives the values a query asking for one that needs them
// all (outdated) gives.
func TestChangeRequestListReadsAskedColumns(t *testing.T) {
	f := newCRFixture(t)
	eve := f.e.User("eve@example.com", f.org, testenv.Role(viewer.RoleEdit))
	for i := range 4 {
		f.fillChangeRequest(t, f.create(t, f.admin, fmt.Sprint("Change ", i)), eve, i)
	}
	merged := f.create(t, eve, "Merged")["id"].(string)
	err := f.e.Store.Client.ChangeRequest.UpdateOneID(merged).SetStatus(changerequest.StatusMerged).SetMergedAt(time0()).
		SetMergedBy(f.admin.UserID).SetRevisionMergedID(f.spaceRevBase).Exec(system())
	if err != nil {
		t.Fatal(err)
	}
	list := func(selection string) []map[string]any {
		t.Helper()
		var d struct {
			Space struct {
				ChangeRequests struct {
					Edges []struct{ Node map[string]any }
				}
			}
		}
		gqlOK(t, f.e.GraphQL(f.admin, `query($s: ID!) { space(id: $s) { changeRequests(status: null) {
			edges { node { `+selection+` } } } } }`, map[string]any{"s": f.space}), &d)
		nodes := make([]map[string]any, len(d.Space.ChangeRequests.Edges))
		for i, e := range d.Space.ChangeRequests.Edges {
			nodes[i] = e.Node
		}
		return nodes
	}
	fields := []string{"id", "number", "status", "subject", "createdAt", "updatedAt", "mergedAt", "spaceId", "space { id }",
		"createdBy { id }", "mergedBy { id }", "revision { id }", "revisionInitial { id }", "revisionMergedAncestor { id }",
		"revisionMerged { id }", "__typename"}
	every := list(strings.Join(fields, " ") + " outdated")
	if len(every) != 5 || every[0]["mergedBy"] == nil || every[0]["revisionMerged"] == nil || every[1]["revisionMergedAncestor"] == nil {
		t.Fatalf("every column: %v", every)
	}
	for _, field := range fields {
		name := strings.Fields(field)[0]
		for i, node := range list(field) {
			if !reflect.DeepEqual(node[name], every[i][name]) {
				t.Errorf("%s of change request %d: %v asked alone, %v with every column", name, i, node[name], every[i][name])
			}
		}
	}
	for i, node := range list("... on ChangeRequest { number mergedBy { id } }") { // fragments count
		if node["number"] != every[i]["number"] || !reflect.DeepEqual(node["mergedBy"], every[i]["mergedBy"]) {
			t.Errorf("change request %d through a fragment: %v, with every column %v", i, node, every[i])
		}
	}
	// One field in two fragments of an object has their selections merged there, not in another
	// object that spreads only one: each reads what its own selection asks, in either order.
	for _, objects := range []string{"a: space(id: $s) { ...A ...B } b: space(id: $s) { ...A }", "b: space(id: $s) { ...A } a: space(id: $s) { ...A ...B }"} {
		var d map[string]struct {
			ChangeRequests struct {
				Edges []struct{ Node map[string]any }
			}
		}
		gqlOK(t, f.e.GraphQL(f.admin, `query($s: ID!) { `+objects+` }
			fragment A on Space { changeRequests(status: null) { edges { node { id } } } }
			fragment B on Space { changeRequests(status: null) { edges { node { subject } } } }`, map[string]any{"s": f.space}), &d)
		for i, e := range d["a"].ChangeRequests.Edges {
			if e.Node["subject"] != every[i]["subject"] || e.Node["id"] != every[i]["id"] {
				t.Errorf("%s: change request %d read through two fragments: %v, want %v", objects, i, e.Node, every[i])
			}
		}
	}

	pageStatement := func(selection string) string {
		for _, q := range f.e.StatementsSent(func() { list(selection) }) {
			if strings.Contains(q, "top_rows") {
				return q
			}
		}
		t.Fatalf("no statement read the page of %q", selection)
		return ""
	}
	narrow := pageStatement("id subject createdBy { id }")
	for _, c := range []string{"subject", "created_by", "space_id", "updated_at"} {
		if !strings.Contains(narrow, c) {
			t.Errorf("the page of id, subject and createdBy does not read %s: %s", c, narrow)
		}
	}
	for _, c := range []string{"revision_initial_id", "merged_at", "number", "comments_count"} {
		if strings.Contains(narrow, c) {
			t.Errorf("the page of id, subject and createdBy reads %s: %s", c, narrow)
		}
	}
	if wide := pageStatement("id outdated"); !strings.Contains(wide, "revision_initial_id") || !strings.Contains(wide, "comments_count") {
		t.Errorf("the page of outdated does not read every column: %s", wide)
	}
}
