package rest_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// memFixture is an organization with its admin, one member of every other role and a guest
// (created in the order of memRoles, so later ones joined later), and an outsider: the admin of
// another organization.
type memFixture struct {
	e        *testenv.Env
	org      string
	admin    testenv.Actor
	by       map[string]testenv.Actor // "create" … "read", "guest"
	outsider testenv.Actor
	otherOrg string
}

// memRoles are the roles below admin, then "guest" (a member without a role).
var memRoles = []string{"create", "review", "edit", "comment", "read", "guest"}

func newMemFixture(t *testing.T) *memFixture {
	t.Helper()
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	f := &memFixture{e: e, org: org, admin: admin, by: map[string]testenv.Actor{}}
	for _, r := range memRoles {
		f.by[r] = e.User(r+"@example.com", org, memRole(r))
	}
	f.outsider, f.otherOrg = e.Bootstrap("olga@other.example", "Other")
	return f
}

// memRole is the role named by a REST role name; "guest" is nil.
func memRole(name string) *viewer.Role {
	if name == "guest" {
		return nil
	}
	return testenv.Role(viewer.Role(name))
}

// actor returns the member of a role ("admin" included) or the outsider.
func (f *memFixture) actor(name string) testenv.Actor {
	switch name {
	case "admin":
		return f.admin
	case "outsider":
		return f.outsider
	}
	return f.by[name]
}

// path is /v1/orgs/{org}/members followed by the given segments.
func (f *memFixture) path(segments ...string) string {
	return "/v1/orgs/" + f.org + "/members" + teamsJoin(segments)
}

// member adds one more member (nil role: a guest).
func (f *memFixture) member(t *testing.T, email string, role *viewer.Role) testenv.Actor {
	t.Helper()
	return f.e.User(email, f.org, role)
}

// team creates a team with the given members as the admin and returns its id.
func (f *memFixture) team(t *testing.T, title string, members ...string) string {
	t.Helper()
	resp := f.e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/teams", map[string]any{"title": title, "members": members})
	memWant(t, resp, 201)
	return resp.Map(t)["id"].(string)
}

// memWant asserts the status of a response.
func memWant(t *testing.T, resp testenv.Response, status int) {
	t.Helper()
	if resp.Status != status {
		t.Fatalf("want %d, got %d %s", status, resp.Status, resp.Body)
	}
}

// memWantError asserts a failure with status whose message contains each of words.
func memWantError(t *testing.T, resp testenv.Response, status int, words ...string) {
	t.Helper()
	msg := testenv.CheckError(t, resp, status)
	for _, w := range words {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not name %q", msg, w)
		}
	}
}

type memWire struct {
	Object string  `json:"object"`
	ID     string  `json:"id"`
	Role   *string `json:"role"`
	User   struct {
		ID          string `json:"id"`
		DisplayName string `json:"displayName"`
		Email       string `json:"email"`
	} `json:"user"`
	JoinedAt   time.Time  `json:"joinedAt"`
	LastSeenAt *time.Time `json:"lastSeenAt"`
	SSO        bool       `json:"sso"`
	Spaces     int        `json:"spaces"`
	Teams      int        `json:"teams"`
	Sites      int        `json:"sites"`
}

type memList struct {
	Next *struct {
		Page string `json:"page"`
	} `json:"next"`
	Count int       `json:"count"`
	Items []memWire `json:"items"`
}

func memIDs(items []memWire) []string {
	ids := make([]string, len(items))
	for i, m := range items {
		ids[i] = m.ID
	}
	return ids
}

// list lists the members as a with the query parameters q (nil: none).
func (f *memFixture) list(t *testing.T, a testenv.Actor, q url.Values) memList {
	t.Helper()
	resp := f.e.Do(a, "GET", f.path()+"?"+q.Encode(), nil)
	memWant(t, resp, 200)
	var l memList
	resp.JSON(t, &l)
	return l
}

// get reads one member as the admin.
func (f *memFixture) get(t *testing.T, userID string) memWire {
	t.Helper()
	resp := f.e.Do(f.admin, "GET", f.path(userID), nil)
	memWant(t, resp, 200)
	var m memWire
	resp.JSON(t, &m)
	return m
}

// role is the REST role of a member ("guest" for null).
func (f *memFixture) role(t *testing.T, userID string) string {
	t.Helper()
	if r := f.get(t, userID).Role; r != nil {
		return *r
	}
	return "guest"
}

// walk reads every page of the member list with q and a page size, checking that count is the
// same on every page, that every page but the last is full and that next is absent on the last.
// It returns the ids in list order and the count.
func (f *memFixture) walk(t *testing.T, q url.Values, limit int) ([]string, int) {
	t.Helper()
	q = memClone(q)
	q.Set("limit", strconv.Itoa(limit))
	var ids []string
	count := -1
	for pages := 0; ; pages++ {
		if pages > 50 {
			t.Fatal("pagination does not end")
		}
		l := f.list(t, f.admin, q)
		if count >= 0 && l.Count != count {
			t.Fatalf("count changed across pages: %d then %d", count, l.Count)
		}
		count = l.Count
		ids = append(ids, memIDs(l.Items)...)
		if l.Next == nil {
			return ids, count
		}
		if len(l.Items) != limit {
			t.Fatalf("a page before the last has %d items, want %d", len(l.Items), limit)
		}
		q.Set("page", l.Next.Page)
	}
}

func memClone(q url.Values) url.Values {
	c := url.Values{}
	for k, v := range q {
		c[k] = append([]string(nil), v...)
	}
	return c
}

// memEqual fails unless got and want hold the same ids in the same order.
func memEqual(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("got ids %v, want %v", got, want)
	}
}

// memUnique fails when an id is listed twice.
func memUnique(t *testing.T, ids []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("%s listed twice in %v", id, ids)
		}
		seen[id] = true
	}
}

// joinOrder is the fixture's members, oldest first.
func (f *memFixture) joinOrder() []string {
	ids := []string{f.admin.UserID}
	for _, r := range memRoles {
		ids = append(ids, f.by[r].UserID)
	}
	return ids
}

func memReversed(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[len(ids)-1-i] = id
	}
	return out
}

// ping records that a was seen in the organization.
func (f *memFixture) ping(t *testing.T, a testenv.Actor) {
	t.Helper()
	memWant(t, f.e.Do(a, "POST", "/v1/orgs/"+f.org+"/ping", nil), 200)
}

// ---------------------------------------------------------------- GET /members

func TestMembersListOrder(t *testing.T) {
	f := newMemFixture(t)
	t.Run("OKNewestFirstByDefault", func(t *testing.T) {
		l := f.list(t, f.admin, nil)
		if l.Count != 7 || l.Next != nil {
			t.Fatalf("count %d next %v, want 7 on one page", l.Count, l.Next)
		}
		memEqual(t, memIDs(l.Items), memReversed(f.joinOrder()))
	})
	t.Run("OKOrderAsc", func(t *testing.T) {
		l := f.list(t, f.admin, url.Values{"order": {"asc"}})
		memEqual(t, memIDs(l.Items), f.joinOrder())
	})
	t.Run("OKOrderDescSortJoinedAt", func(t *testing.T) {
		l := f.list(t, f.admin, url.Values{"order": {"desc"}, "sort": {"joinedAt"}})
		memEqual(t, memIDs(l.Items), memReversed(f.joinOrder()))
	})
	t.Run("OKAnyRoleLists", func(t *testing.T) {
		if l := f.list(t, f.by["read"], nil); l.Count != 7 {
			t.Fatalf("a reader sees %d members, want 7", l.Count)
		}
	})
	for _, bad := range []string{"bogus", "ASC"} {
		t.Run("ErrOrder"+bad, func(t *testing.T) {
			memWantError(t, f.e.Do(f.admin, "GET", f.path()+"?order="+bad, nil), 400, "order")
		})
	}
}

func TestMembersListRoleFilter(t *testing.T) {
	f := newMemFixture(t)
	for _, r := range append([]string{"admin"}, memRoles...) {
		t.Run("OK"+r, func(t *testing.T) {
			l := f.list(t, f.admin, url.Values{"role": {r}})
			if l.Count != 1 {
				t.Fatalf("count %d, want 1", l.Count)
			}
			memEqual(t, memIDs(l.Items), []string{f.actor(r).UserID})
			if got := f.role(t, l.Items[0].ID); got != r {
				t.Errorf("listed a %s for role=%s", got, r)
			}
		})
	}
	for _, bad := range []string{"owner", "Admin", "bogus", ""} {
		t.Run("ErrUnknownRole"+bad, func(t *testing.T) {
			memWantError(t, f.e.Do(f.admin, "GET", f.path()+"?role="+bad, nil), 400, "role")
		})
	}
}

func TestMembersListSearch(t *testing.T) {
	f := newMemFixture(t)
	grace, _, err := accounts.CreateUser(context.Background(), f.e.Store.Client,
		accounts.NewUser{Email: "gh@example.com", Name: "Grace Hopper", OrgID: f.org, Role: memRole("read")})
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := accounts.CreateUser(context.Background(), f.e.Store.Client,
		accounts.NewUser{Email: "bs@example.com", Name: `Back\Slash`, OrgID: f.org, Role: memRole("read")})
	if err != nil {
		t.Fatal(err)
	}
	under := f.member(t, "under_score@example.com", memRole("read"))
	underX := f.member(t, "underXscore@example.com", memRole("read"))
	pct := f.member(t, "fifty%off@example.com", memRole("read"))
	pctX := f.member(t, "fiftyXoff@example.com", memRole("read"))
	cases := []struct {
		name, search string
		want         []string
	}{
		{"OKDisplayNameCaseInsensitive", "HOPPER", []string{grace.ID}},
		{"OKEmailCaseInsensitive", "GH@EXAMPLE", []string{grace.ID}},
		{"OKUnderscoreLiteral", "r_s", []string{under.UserID}},
		{"OKPercentLiteral", "y%o", []string{pct.UserID}},
		{"OKOnlyPercent", "%", []string{pct.UserID}},
		{"OKOnlyUnderscore", "_", []string{under.UserID}},
		{"OKBackslashLiteral", `k\s`, []string{back.ID}},
		{"OKBothSpellings", "score", []string{underX.UserID, under.UserID}},
		{"OKWildcardFree", "fiftyx", []string{pctX.UserID}},
		{"OKNoMatch", "nobody", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := f.list(t, f.admin, url.Values{"search": {c.search}})
			if l.Count != len(c.want) {
				t.Fatalf("count %d, want %d (%v)", l.Count, len(c.want), memIDs(l.Items))
			}
			memEqual(t, memIDs(l.Items), c.want)
		})
	}
	t.Run("OKWithRole", func(t *testing.T) {
		l := f.list(t, f.admin, url.Values{"search": {"example.com"}, "role": {"guest"}})
		memEqual(t, memIDs(l.Items), []string{f.by["guest"].UserID})
	})
	t.Run("ErrTooLong", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "GET", f.path()+"?search="+strings.Repeat("a", 257), nil), 400, "search", "256")
	})
}

func TestMembersListLastSeen(t *testing.T) {
	f := newMemFixture(t)
	seen := []string{"edit", "read", "guest"}
	var ids []string
	for _, r := range seen {
		f.ping(t, f.by[r])
		ids = append(ids, f.by[r].UserID)
	}
	t.Run("OKOnlySeenMostRecentFirst", func(t *testing.T) {
		l := f.list(t, f.admin, url.Values{"sort": {"lastSeenAt"}})
		if l.Count != 3 {
			t.Fatalf("count %d, want 3", l.Count)
		}
		memEqual(t, memIDs(l.Items), memReversed(ids))
		for _, m := range l.Items {
			if m.LastSeenAt == nil {
				t.Errorf("%s listed without lastSeenAt", m.ID)
			}
		}
	})
	t.Run("OKAsc", func(t *testing.T) {
		l := f.list(t, f.admin, url.Values{"sort": {"lastSeenAt"}, "order": {"asc"}})
		memEqual(t, memIDs(l.Items), ids)
	})
	t.Run("OKPingAgainMovesFirst", func(t *testing.T) {
		f.ping(t, f.by["edit"])
		l := f.list(t, f.admin, url.Values{"sort": {"lastSeenAt"}})
		memEqual(t, memIDs(l.Items), []string{f.by["edit"].UserID, f.by["guest"].UserID, f.by["read"].UserID})
	})
	for _, bad := range []string{"name", "bogus", "lastseenat", ""} {
		t.Run("ErrSort"+bad, func(t *testing.T) {
			memWantError(t, f.e.Do(f.admin, "GET", f.path()+"?sort="+bad, nil), 400, "sort")
		})
	}
}

func TestMembersListPagination(t *testing.T) {
	f := newMemFixture(t)
	for i := 0; i < 4; i++ {
		f.member(t, "extra"+strconv.Itoa(i)+"@example.com", memRole("read"))
	}
	all := f.list(t, f.admin, nil)
	for _, limit := range []int{1, 3, 5, 11, 12} {
		t.Run("OKLimit"+strconv.Itoa(limit), func(t *testing.T) {
			ids, count := f.walk(t, nil, limit)
			if count != 11 {
				t.Fatalf("count %d, want 11", count)
			}
			memUnique(t, ids)
			memEqual(t, ids, memIDs(all.Items))
		})
	}
	t.Run("OKAscPages", func(t *testing.T) {
		ids, _ := f.walk(t, url.Values{"order": {"asc"}}, 4)
		memEqual(t, ids, memReversed(memIDs(all.Items)))
	})
	t.Run("OKFilteredCount", func(t *testing.T) {
		ids, count := f.walk(t, url.Values{"role": {"read"}}, 2)
		if count != 5 || len(ids) != 5 {
			t.Fatalf("count %d, %d ids, want 5 readers", count, len(ids))
		}
		memUnique(t, ids)
	})
	t.Run("OKLimitZeroCountsOnly", func(t *testing.T) {
		l := f.list(t, f.admin, url.Values{"limit": {"0"}})
		if l.Count != 11 || len(l.Items) != 0 {
			t.Fatalf("count %d with %d items, want 11 with none", l.Count, len(l.Items))
		}
	})
	t.Run("OKLastSeenPages", func(t *testing.T) {
		var pinged []string
		for _, r := range []string{"create", "review", "edit", "comment", "read"} {
			f.ping(t, f.by[r])
			pinged = append(pinged, f.by[r].UserID)
		}
		ids, count := f.walk(t, url.Values{"sort": {"lastSeenAt"}}, 2)
		if count != 5 {
			t.Fatalf("count %d, want 5", count)
		}
		memUnique(t, ids)
		memEqual(t, ids, memReversed(pinged))
	})
	for _, bad := range []string{"-1", "1001", "abc", "1.5"} {
		t.Run("ErrLimit"+bad, func(t *testing.T) {
			memWantError(t, f.e.Do(f.admin, "GET", f.path()+"?limit="+bad, nil), 400, "limit")
		})
	}
	t.Run("ErrPageToken", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "GET", f.path()+"?page=forged", nil), 400, "page")
	})
}

func TestMembersListAccess(t *testing.T) {
	f := newMemFixture(t)
	t.Run("ErrGuest", func(t *testing.T) {
		memWantError(t, f.e.Do(f.by["guest"], "GET", f.path(), nil), 403)
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		memWantError(t, f.e.Do(f.outsider, "GET", f.path(), nil), 404)
	})
	t.Run("ErrNoToken", func(t *testing.T) {
		memWantError(t, f.e.Do(testenv.Actor{}, "GET", f.path(), nil), 401)
	})
	t.Run("ErrBadToken", func(t *testing.T) {
		memWantError(t, f.e.Do(testenv.Actor{Token: "bdy_bogus"}, "GET", f.path(), nil), 401)
	})
	t.Run("ErrUnknownOrg", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "GET", "/v1/orgs/nope/members", nil), 404)
	})
}

// ---------------------------------------------------------------- GET /members/{userId}

func TestMembersGet(t *testing.T) {
	f := newMemFixture(t)
	reader := f.by["read"]
	f.team(t, "One", reader.UserID)
	f.team(t, "Two", reader.UserID, f.by["edit"].UserID)
	t.Run("OK", func(t *testing.T) {
		m := f.get(t, reader.UserID)
		if m.Object != "member" || m.ID != reader.UserID || m.Role == nil || *m.Role != "read" {
			t.Fatalf("member %+v", m)
		}
		if m.User.ID != reader.UserID || m.User.Email != reader.Email || m.User.DisplayName != "read" {
			t.Errorf("user %+v", m.User)
		}
		if m.JoinedAt.IsZero() || m.JoinedAt.After(time.Now().Add(time.Minute)) {
			t.Errorf("joinedAt %v", m.JoinedAt)
		}
		if m.Teams != 2 || m.Spaces != 0 || m.Sites != 0 || m.SSO || m.LastSeenAt != nil {
			t.Errorf("teams %d spaces %d sites %d sso %v lastSeenAt %v", m.Teams, m.Spaces, m.Sites, m.SSO, m.LastSeenAt)
		}
	})
	t.Run("OKGuestRoleNull", func(t *testing.T) {
		resp := f.e.Do(f.admin, "GET", f.path(f.by["guest"].UserID), nil)
		memWant(t, resp, 200)
		if v, ok := resp.Map(t)["role"]; !ok || v != nil {
			t.Fatalf("role of a guest: %v (present %v), want null", v, ok)
		}
	})
	t.Run("OKLastSeenAfterPing", func(t *testing.T) {
		f.ping(t, f.by["comment"])
		if m := f.get(t, f.by["comment"].UserID); m.LastSeenAt == nil {
			t.Fatal("lastSeenAt absent after ping")
		}
	})
	t.Run("OKGuestSeesOwnMembership", func(t *testing.T) {
		memWant(t, f.e.Do(f.by["guest"], "GET", f.path(f.by["guest"].UserID), nil), 200)
	})
	t.Run("ErrUnknownUser", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "GET", f.path("nobody00000000000000"), nil), 404)
	})
	t.Run("ErrUserOfAnotherOrg", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "GET", f.path(f.outsider.UserID), nil), 404)
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		memWantError(t, f.e.Do(f.outsider, "GET", f.path(reader.UserID), nil), 404)
	})
	t.Run("ErrNoToken", func(t *testing.T) {
		memWantError(t, f.e.Do(testenv.Actor{}, "GET", f.path(reader.UserID), nil), 401)
	})
}

// ---------------------------------------------------------------- PATCH /members/{userId}

// memAccess is the expected status of a write by each kind of actor: only admins may.
var memAccess = []struct {
	actor  string
	status int
}{
	{"admin", 200}, {"create", 403}, {"review", 403}, {"edit", 403},
	{"comment", 403}, {"read", 403}, {"guest", 403}, {"outsider", 404},
}

func TestMembersUpdateAccess(t *testing.T) {
	for _, c := range memAccess {
		t.Run(memOutcome(c.actor, c.status), func(t *testing.T) {
			f := newMemFixture(t)
			target := f.member(t, "target@example.com", memRole("read"))
			resp := f.e.Do(f.actor(c.actor), "PATCH", f.path(target.UserID), map[string]any{"role": "edit"})
			memWant(t, resp, c.status)
			want := map[bool]string{true: "edit", false: "read"}[c.status == 200]
			if got := f.role(t, target.UserID); got != want {
				t.Fatalf("role %s after the request, want %s", got, want)
			}
		})
	}
}

// memOutcome names a subtest of an access matrix: OK<actor> or Err<actor>.
func memOutcome(actor string, status int) string {
	if status < 300 {
		return "OK" + actor
	}
	return "Err" + actor
}

func TestMembersUpdate(t *testing.T) {
	f := newMemFixture(t)
	target := f.by["read"]
	patch := func(a testenv.Actor, userID string, body any) testenv.Response {
		return f.e.Do(a, "PATCH", f.path(userID), body)
	}
	for _, r := range []string{"admin", "create", "review", "edit", "comment", "read"} {
		t.Run("OKRole"+r, func(t *testing.T) {
			resp := patch(f.admin, target.UserID, map[string]any{"role": r})
			memWant(t, resp, 200)
			var m memWire
			resp.JSON(t, &m)
			if m.Role == nil || *m.Role != r || f.role(t, target.UserID) != r {
				t.Fatalf("role %v after setting %s", m.Role, r)
			}
		})
	}
	t.Run("OKNullMakesGuest", func(t *testing.T) {
		resp := patch(f.admin, target.UserID, map[string]any{"role": nil})
		memWant(t, resp, 200)
		if v := resp.Map(t)["role"]; v != nil || f.role(t, target.UserID) != "guest" {
			t.Fatalf("role %v after null, want a guest", v)
		}
	})
	t.Run("OKEmptyBodyChangesNothing", func(t *testing.T) {
		memWant(t, patch(f.admin, f.by["edit"].UserID, map[string]any{}), 200)
		if got := f.role(t, f.by["edit"].UserID); got != "edit" {
			t.Fatalf("role %s, want edit", got)
		}
	})
	for i, bad := range []any{"owner", "guest", "ADMIN", 3, true} {
		t.Run("ErrUnknownRole"+strconv.Itoa(i), func(t *testing.T) {
			memWantError(t, patch(f.admin, f.by["edit"].UserID, map[string]any{"role": bad}), 400, "role")
		})
	}
	t.Run("ErrMalformedJSON", func(t *testing.T) {
		memWantError(t, patch(f.admin, f.by["edit"].UserID, `{"role":`), 400)
	})
	t.Run("ErrUnknownUser", func(t *testing.T) {
		memWantError(t, patch(f.admin, "nobody00000000000000", map[string]any{"role": "read"}), 404)
	})
	t.Run("ErrUserOfAnotherOrg", func(t *testing.T) {
		memWantError(t, patch(f.admin, f.outsider.UserID, map[string]any{"role": "read"}), 404)
	})
	t.Run("ErrNoToken", func(t *testing.T) {
		memWantError(t, patch(testenv.Actor{}, target.UserID, map[string]any{"role": "read"}), 401)
	})
}

func TestMembersLastAdmin(t *testing.T) {
	f := newMemFixture(t)
	for name, body := range map[string]map[string]any{"ErrDemoteToEdit": {"role": "edit"}, "ErrDemoteToGuest": {"role": nil}} {
		t.Run(name, func(t *testing.T) {
			resp := f.e.Do(f.admin, "PATCH", f.path(f.admin.UserID), body)
			memWantError(t, resp, 400, "last admin")
			if got := f.role(t, f.admin.UserID); got != "admin" {
				t.Fatalf("role %s after a refused demotion", got)
			}
		})
	}
	t.Run("ErrRemove", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "DELETE", f.path(f.admin.UserID), nil), 400, "last admin")
		f.get(t, f.admin.UserID)
	})
	t.Run("OKAdminToAdmin", func(t *testing.T) {
		memWant(t, f.e.Do(f.admin, "PATCH", f.path(f.admin.UserID), map[string]any{"role": "admin"}), 200)
	})
}

func TestMembersDemoteSelf(t *testing.T) {
	f := newMemFixture(t)
	second := f.by["create"]
	memWant(t, f.e.Do(f.admin, "PATCH", f.path(second.UserID), map[string]any{"role": "admin"}), 200)
	t.Run("OK", func(t *testing.T) {
		resp := f.e.Do(f.admin, "PATCH", f.path(f.admin.UserID), map[string]any{"role": "edit"})
		memWant(t, resp, 200)
		if got := f.role(t, f.admin.UserID); got != "edit" {
			t.Fatalf("role %s, want edit", got)
		}
	})
	t.Run("ErrNoLongerAdmin", func(t *testing.T) {
		resp := f.e.Do(f.admin, "PATCH", f.path(f.by["read"].UserID), map[string]any{"role": "comment"})
		memWantError(t, resp, 403)
		if got := f.role(t, f.by["read"].UserID); got != "read" {
			t.Fatalf("role %s, want read", got)
		}
	})
	t.Run("ErrCannotPromoteSelfBack", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "PATCH", f.path(f.admin.UserID), map[string]any{"role": "admin"}), 403)
	})
	t.Run("ErrSecondIsNowLast", func(t *testing.T) {
		memWantError(t, f.e.Do(second, "PATCH", f.path(second.UserID), map[string]any{"role": "read"}), 400, "last admin")
	})
}

// ---------------------------------------------------------------- DELETE /members/{userId}

func TestMembersRemove(t *testing.T) {
	f := newMemFixture(t)
	target := f.by["read"]
	memWant(t, f.e.Do(target, "GET", "/v1/orgs/"+f.org, nil), 200)
	memWant(t, f.e.Do(f.admin, "DELETE", f.path(target.UserID), nil), 204)
	t.Run("OKGone", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "GET", f.path(target.UserID), nil), 404)
		if l := f.list(t, f.admin, nil); l.Count != 6 {
			t.Fatalf("count %d after removal, want 6", l.Count)
		}
	})
	t.Run("ErrRemovedTokenSeesNoOrg", func(t *testing.T) {
		memWantError(t, f.e.Do(target, "GET", "/v1/orgs/"+f.org, nil), 404)
		memWantError(t, f.e.Do(target, "GET", f.path(), nil), 404)
		var l struct{ Count int }
		f.e.Do(target, "GET", "/v1/orgs", nil).JSON(t, &l)
		if l.Count != 0 {
			t.Fatalf("the removed member still lists %d organizations", l.Count)
		}
	})
	t.Run("ErrAgain", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "DELETE", f.path(target.UserID), nil), 404)
	})
	t.Run("ErrUserOfAnotherOrg", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "DELETE", f.path(f.outsider.UserID), nil), 404)
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		memWantError(t, f.e.Do(f.outsider, "DELETE", f.path(f.by["edit"].UserID), nil), 404)
	})
	t.Run("ErrNoToken", func(t *testing.T) {
		memWantError(t, f.e.Do(testenv.Actor{}, "DELETE", f.path(f.by["edit"].UserID), nil), 401)
	})
}

func TestMembersRemoveOther(t *testing.T) {
	f := newMemFixture(t)
	target := f.member(t, "target@example.com", memRole("read"))
	for _, r := range memRoles {
		t.Run("Err"+r, func(t *testing.T) {
			memWantError(t, f.e.Do(f.by[r], "DELETE", f.path(target.UserID), nil), 403)
			f.get(t, target.UserID)
		})
	}
	t.Run("ErrRemoveAdmin", func(t *testing.T) {
		memWantError(t, f.e.Do(f.by["create"], "DELETE", f.path(f.admin.UserID), nil), 403)
	})
}

func TestMembersLeave(t *testing.T) {
	f := newMemFixture(t)
	for _, r := range memRoles {
		t.Run("OK"+r, func(t *testing.T) {
			a := f.by[r]
			memWant(t, f.e.Do(a, "DELETE", f.path(a.UserID), nil), 204)
			memWantError(t, f.e.Do(a, "GET", "/v1/orgs/"+f.org, nil), 404)
			memWantError(t, f.e.Do(f.admin, "GET", f.path(a.UserID), nil), 404)
		})
	}
	t.Run("OKAdminWithAnotherAdmin", func(t *testing.T) {
		other := f.member(t, "second-admin@example.com", memRole("admin"))
		memWant(t, f.e.Do(other, "DELETE", f.path(other.UserID), nil), 204)
		memWantError(t, f.e.Do(other, "GET", "/v1/orgs/"+f.org, nil), 404)
	})
}

func TestMembersRemoveDropsTeams(t *testing.T) {
	f := newMemFixture(t)
	team := f.team(t, "Core", f.by["read"].UserID, f.by["edit"].UserID)
	other := f.team(t, "Docs", f.by["read"].UserID)
	teamMembers := func(id string) int {
		var tm struct{ Members int }
		f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/teams/"+id, nil).JSON(t, &tm)
		return tm.Members
	}
	if n := teamMembers(team); n != 2 {
		t.Fatalf("team has %d members before, want 2", n)
	}
	memWant(t, f.e.Do(f.admin, "DELETE", f.path(f.by["read"].UserID), nil), 204)
	t.Run("OKCountsDrop", func(t *testing.T) {
		if a, b := teamMembers(team), teamMembers(other); a != 1 || b != 0 {
			t.Fatalf("team members %d and %d after removal, want 1 and 0", a, b)
		}
	})
	t.Run("OKRosterDrops", func(t *testing.T) {
		var l struct{ Count int }
		f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/teams/"+team+"/members", nil).JSON(t, &l)
		if l.Count != 1 {
			t.Fatalf("roster count %d, want 1", l.Count)
		}
	})
	t.Run("OKRejoinHasNoTeams", func(t *testing.T) {
		inv := f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/link-invites", map[string]any{"role": "read"}).Map(t)["id"].(string)
		memWant(t, f.e.Do(f.by["read"], "POST", "/v1/orgs/"+f.org+"/invites/"+inv, nil), 200)
		if m := f.get(t, f.by["read"].UserID); m.Teams != 0 {
			t.Fatalf("rejoined member has %d teams, want 0", m.Teams)
		}
	})
}

// ---------------------------------------------------------------- POST /members/{userId}/sso

func TestMembersSSO(t *testing.T) {
	for _, c := range memAccess {
		t.Run(memOutcome(c.actor, c.status), func(t *testing.T) {
			f := newMemFixture(t)
			target := f.by["read"]
			resp := f.e.Do(f.actor(c.actor), "POST", f.path(target.UserID, "sso"), nil)
			memWant(t, resp, c.status)
			if c.status == 200 {
				var m memWire
				resp.JSON(t, &m)
				if !m.SSO || m.ID != target.UserID {
					t.Fatalf("answer %+v, want sso true", m)
				}
			}
			if got := f.get(t, target.UserID).SSO; got != (c.status == 200) {
				t.Fatalf("sso %v after the request", got)
			}
		})
	}
	t.Run("ErrUnknownUser", func(t *testing.T) {
		f := newMemFixture(t)
		memWantError(t, f.e.Do(f.admin, "POST", f.path("nobody00000000000000", "sso"), nil), 404)
	})
}

// ---------------------------------------------------------------- GET /members/{userId}/teams

type memTeamItem struct {
	Team struct {
		ID      string `json:"id"`
		Title   string `json:"title"`
		Members int    `json:"members"`
	} `json:"team"`
	Member struct {
		Role string `json:"role"`
	} `json:"member"`
}

type memTeamList struct {
	Next *struct {
		Page string `json:"page"`
	} `json:"next"`
	Count int           `json:"count"`
	Items []memTeamItem `json:"items"`
}

func (f *memFixture) memberTeams(t *testing.T, userID string, q url.Values) memTeamList {
	t.Helper()
	resp := f.e.Do(f.admin, "GET", f.path(userID, "teams")+"?"+q.Encode(), nil)
	memWant(t, resp, 200)
	var l memTeamList
	resp.JSON(t, &l)
	return l
}

func memTeamTitles(items []memTeamItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Team.Title
	}
	return out
}

func TestMembersTeams(t *testing.T) {
	f := newMemFixture(t)
	reader := f.by["read"].UserID
	ids := map[string]string{}
	for _, title := range []string{"Alpha", "Beta", "alphabet", "Gamma", "Delta"} {
		ids[title] = f.team(t, title, reader)
	}
	f.team(t, "Omega", f.by["edit"].UserID)
	memWant(t, f.e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/teams/"+ids["Beta"]+"/members/"+reader,
		map[string]any{"role": "owner"}), 204)
	t.Run("OK", func(t *testing.T) {
		l := f.memberTeams(t, reader, nil)
		if l.Count != 5 || len(l.Items) != 5 || l.Next != nil {
			t.Fatalf("count %d items %d next %v, want 5 on one page", l.Count, len(l.Items), l.Next)
		}
		for _, it := range l.Items {
			want := map[bool]string{true: "owner", false: "member"}[it.Team.Title == "Beta"]
			if it.Team.ID != ids[it.Team.Title] || it.Member.Role != want || it.Team.Members != 1 {
				t.Errorf("item %+v, want role %s", it, want)
			}
		}
	})
	t.Run("OKTitleFilter", func(t *testing.T) {
		l := f.memberTeams(t, reader, url.Values{"title": {"ALPHA"}})
		got := memTeamTitles(l.Items)
		if l.Count != 2 || len(got) != 2 || !strings.EqualFold(got[0][:5], "alpha") || !strings.EqualFold(got[1][:5], "alpha") {
			t.Fatalf("count %d titles %v, want Alpha and alphabet", l.Count, got)
		}
	})
	t.Run("OKNoTeams", func(t *testing.T) {
		if l := f.memberTeams(t, f.by["comment"].UserID, nil); l.Count != 0 || len(l.Items) != 0 {
			t.Fatalf("count %d, want 0", l.Count)
		}
	})
	t.Run("OKPages", func(t *testing.T) {
		titles := memWalkTeams(t, f, reader, 2)
		if len(titles) != 5 {
			t.Fatalf("titles %v, want 5", titles)
		}
		memUnique(t, titles)
	})
	t.Run("ErrLimit", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "GET", f.path(reader, "teams")+"?limit=1001", nil), 400, "limit")
	})
	t.Run("ErrUnknownUser", func(t *testing.T) {
		memWantError(t, f.e.Do(f.admin, "GET", f.path("nobody00000000000000", "teams"), nil), 404)
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		memWantError(t, f.e.Do(f.outsider, "GET", f.path(reader, "teams"), nil), 404)
	})
}

// memWalkTeams pages through a member's teams and returns their titles.
func memWalkTeams(t *testing.T, f *memFixture, userID string, limit int) []string {
	t.Helper()
	q := url.Values{"limit": {strconv.Itoa(limit)}}
	var titles []string
	for pages := 0; pages < 20; pages++ {
		l := f.memberTeams(t, userID, q)
		if l.Count != 5 {
			t.Fatalf("count %d on a page, want 5", l.Count)
		}
		titles = append(titles, memTeamTitles(l.Items)...)
		if l.Next == nil {
			return titles
		}
		if len(l.Items) != limit {
			t.Fatalf("a page before the last has %d items", len(l.Items))
		}
		q.Set("page", l.Next.Page)
	}
	t.Fatal("pagination does not end")
	return nil
}

// ---------------------------------------------------------------- GraphQL

// gql runs an operation as a; it fails the test on errors and decodes data into out.
func (f *memFixture) gql(t *testing.T, a testenv.Actor, query string, vars map[string]any, out any) {
	t.Helper()
	g := f.e.GraphQL(a, query, vars)
	if len(g.Errors) > 0 {
		t.Fatalf("GraphQL errors: %+v", g.Errors)
	}
	if out != nil {
		if err := json.Unmarshal(g.Data, out); err != nil {
			t.Fatalf("decode %s: %v", g.Data, err)
		}
	}
}

// gqlFails asserts the operation fails with code and a message containing each of words.
func (f *memFixture) gqlFails(t *testing.T, a testenv.Actor, query string, vars map[string]any, code string, words ...string) {
	t.Helper()
	g := f.e.GraphQL(a, query, vars)
	if g.Code() != code {
		t.Fatalf("want %s, got %d %s %+v", code, g.Status, g.Data, g.Errors)
	}
	for _, w := range words {
		if !strings.Contains(g.Errors[0].Message, w) {
			t.Errorf("message %q does not name %q", g.Errors[0].Message, w)
		}
	}
}

const memGQLMembers = `query($org: ID!, $first: Int, $after: String, $role: MemberRoleFilter, $search: String,
  $sort: MemberSort = JOINED_AT, $order: SortOrder = DESC) {
  organization(id: $org) { members(first: $first, after: $after, role: $role, search: $search, sort: $sort, order: $order) {
    totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id role lastSeenAt user { id email } } } } } }`

type memGQLConn struct {
	TotalCount int `json:"totalCount"`
	PageInfo   struct {
		HasNextPage bool    `json:"hasNextPage"`
		EndCursor   *string `json:"endCursor"`
	} `json:"pageInfo"`
	Edges []struct {
		Cursor string `json:"cursor"`
		Node   struct {
			ID         string  `json:"id"`
			Role       *string `json:"role"`
			LastSeenAt *string `json:"lastSeenAt"`
		} `json:"node"`
	} `json:"edges"`
}

func (c memGQLConn) ids() []string {
	out := make([]string, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node.ID
	}
	return out
}

// gqlMembers runs memGQLMembers as a with the organization and extra variables.
func (f *memFixture) gqlMembers(t *testing.T, a testenv.Actor, vars map[string]any) memGQLConn {
	t.Helper()
	v := map[string]any{"org": f.org}
	for k, x := range vars {
		v[k] = x
	}
	var out struct {
		Organization struct{ Members memGQLConn }
	}
	f.gql(t, a, memGQLMembers, v, &out)
	return out.Organization.Members
}

// gqlWalk pages through the GraphQL member list with vars, checking totalCount on every page.
func (f *memFixture) gqlWalk(t *testing.T, vars map[string]any, first int) ([]string, int) {
	t.Helper()
	v := map[string]any{"first": first}
	for k, x := range vars {
		v[k] = x
	}
	var ids []string
	total := -1
	for pages := 0; pages < 50; pages++ {
		c := f.gqlMembers(t, f.admin, v)
		if total >= 0 && c.TotalCount != total {
			t.Fatalf("totalCount changed across pages: %d then %d", total, c.TotalCount)
		}
		total = c.TotalCount
		ids = append(ids, c.ids()...)
		if !c.PageInfo.HasNextPage {
			return ids, total
		}
		v["after"] = *c.PageInfo.EndCursor
	}
	t.Fatal("pagination does not end")
	return nil, 0
}

func TestMembersGraphQLList(t *testing.T) {
	f := newMemFixture(t)
	t.Run("OKDefaultNewestFirst", func(t *testing.T) {
		c := f.gqlMembers(t, f.admin, nil)
		if c.TotalCount != 7 || c.PageInfo.HasNextPage {
			t.Fatalf("totalCount %d hasNext %v", c.TotalCount, c.PageInfo.HasNextPage)
		}
		memEqual(t, c.ids(), memReversed(f.joinOrder()))
	})
	t.Run("OKAsc", func(t *testing.T) {
		memEqual(t, f.gqlMembers(t, f.admin, map[string]any{"order": "ASC"}).ids(), f.joinOrder())
	})
	for _, r := range append([]string{"admin"}, memRoles...) {
		t.Run("OKRole"+r, func(t *testing.T) {
			c := f.gqlMembers(t, f.admin, map[string]any{"role": strings.ToUpper(r)})
			memEqual(t, c.ids(), []string{f.actor(r).UserID})
			if role := c.Edges[0].Node.Role; (r == "guest") != (role == nil) || (role != nil && *role != strings.ToUpper(r)) {
				t.Errorf("role %v for filter %s", role, r)
			}
		})
	}
	t.Run("OKSearch", func(t *testing.T) {
		memEqual(t, f.gqlMembers(t, f.admin, map[string]any{"search": "COMMENT@"}).ids(), []string{f.by["comment"].UserID})
	})
	t.Run("OKPages", func(t *testing.T) {
		ids, total := f.gqlWalk(t, nil, 3)
		if total != 7 {
			t.Fatalf("totalCount %d, want 7", total)
		}
		memEqual(t, ids, memReversed(f.joinOrder()))
	})
	t.Run("OKLastSeenPages", func(t *testing.T) {
		f.ping(t, f.by["review"])
		f.ping(t, f.by["guest"])
		f.ping(t, f.admin)
		ids, total := f.gqlWalk(t, map[string]any{"sort": "LAST_SEEN_AT"}, 2)
		if total != 3 {
			t.Fatalf("totalCount %d, want 3", total)
		}
		memEqual(t, ids, []string{f.admin.UserID, f.by["guest"].UserID, f.by["review"].UserID})
	})
	t.Run("ErrSortName", func(t *testing.T) {
		f.gqlFails(t, f.admin, memGQLMembers, map[string]any{"org": f.org, "sort": "NAME"}, "BAD_REQUEST", "sort")
	})
	for _, first := range []int{-1, 1001} {
		t.Run("ErrFirst"+strconv.Itoa(first), func(t *testing.T) {
			f.gqlFails(t, f.admin, `query($org: ID!, $first: Int) { organization(id: $org) { members(first: $first) { totalCount } } }`,
				map[string]any{"org": f.org, "first": first}, "BAD_REQUEST", "1000")
		})
	}
	t.Run("ErrGuest", func(t *testing.T) {
		f.gqlFails(t, f.by["guest"], memGQLMembers, map[string]any{"org": f.org}, "FORBIDDEN")
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		f.gqlFails(t, f.outsider, memGQLMembers, map[string]any{"org": f.org}, "NOT_FOUND")
	})
}

const memGQLMember = `query($org: ID!, $user: ID!) { organization(id: $org) {
  member(userId: $user) { id role sso joinedAt lastSeenAt spaceCount siteCount teamCount user { id email displayName }
    teams(first: 10) { totalCount edges { node { role team { title } } } } }
  viewerMembership { id role } } }`

type memGQLMemberNode struct {
	ID         string  `json:"id"`
	Role       *string `json:"role"`
	SSO        bool    `json:"sso"`
	JoinedAt   string  `json:"joinedAt"`
	SpaceCount int     `json:"spaceCount"`
	SiteCount  int     `json:"siteCount"`
	TeamCount  int     `json:"teamCount"`
	User       struct {
		ID    string `json:"id"`
		Email string `json:"email"`
	} `json:"user"`
	Teams struct {
		TotalCount int `json:"totalCount"`
	} `json:"teams"`
}

func TestMembersGraphQLMember(t *testing.T) {
	f := newMemFixture(t)
	reader := f.by["read"]
	f.team(t, "One", reader.UserID)
	f.team(t, "Two", reader.UserID)
	var out struct {
		Organization struct {
			Member           *memGQLMemberNode
			ViewerMembership *memGQLMemberNode
		}
	}
	t.Run("OK", func(t *testing.T) {
		f.gql(t, f.admin, memGQLMember, map[string]any{"org": f.org, "user": reader.UserID}, &out)
		m := out.Organization.Member
		if m == nil || m.ID != reader.UserID || m.Role == nil || *m.Role != "READ" || m.User.Email != reader.Email {
			t.Fatalf("member %+v", m)
		}
		if m.TeamCount != 2 || m.Teams.TotalCount != 2 || m.SpaceCount != 0 || m.SiteCount != 0 || m.JoinedAt == "" {
			t.Errorf("member %+v", m)
		}
		if vm := out.Organization.ViewerMembership; vm == nil || vm.ID != f.admin.UserID || *vm.Role != "ADMIN" {
			t.Errorf("viewerMembership %+v", vm)
		}
	})
	t.Run("OKGuestViewerMembership", func(t *testing.T) {
		g := f.by["guest"]
		f.gql(t, g, `query($org: ID!) { organization(id: $org) { viewerMembership { id role } } }`,
			map[string]any{"org": f.org}, &out)
		if vm := out.Organization.ViewerMembership; vm == nil || vm.ID != g.UserID || vm.Role != nil {
			t.Fatalf("viewerMembership %+v, want the guest with a null role", vm)
		}
	})
	for name, user := range map[string]string{"ErrUnknownUser": "nobody00000000000000", "ErrUserOfAnotherOrg": f.outsider.UserID} {
		t.Run(name, func(t *testing.T) {
			f.gqlFails(t, f.admin, memGQLMember, map[string]any{"org": f.org, "user": user}, "NOT_FOUND")
		})
	}
	t.Run("ErrOutsider", func(t *testing.T) {
		f.gqlFails(t, f.outsider, memGQLMember, map[string]any{"org": f.org, "user": reader.UserID}, "NOT_FOUND")
	})
}

const (
	memGQLUpdate = `mutation($org: ID!, $user: ID!, $input: UpdateMemberInput!) {
  updateMember(organizationId: $org, userId: $user, input: $input) { id role } }`
	memGQLRemove = `mutation($org: ID!, $user: ID!) { removeMember(organizationId: $org, userId: $user) }`
	memGQLSSO    = `mutation($org: ID!, $user: ID!) { setMemberSSO(organizationId: $org, userId: $user) { id sso } }`
)

// memGQLCode is the GraphQL error code of a REST status of the access matrix.
var memGQLCode = map[int]string{200: "", 403: "FORBIDDEN", 404: "NOT_FOUND"}

func TestMembersGraphQLWriteAccess(t *testing.T) {
	for _, c := range memAccess {
		t.Run(memOutcome(c.actor, c.status), func(t *testing.T) {
			f := newMemFixture(t)
			target := f.member(t, "target@example.com", memRole("read"))
			vars := map[string]any{"org": f.org, "user": target.UserID, "input": map[string]any{"role": "EDIT"}}
			for _, op := range []struct{ name, query string }{{"update", memGQLUpdate}, {"sso", memGQLSSO}, {"remove", memGQLRemove}} {
				if g := f.e.GraphQL(f.actor(c.actor), op.query, vars); g.Code() != memGQLCode[c.status] {
					t.Errorf("%s: got %q %+v", op.name, g.Code(), g.Errors)
				}
			}
			if c.status != 200 && f.role(t, target.UserID) != "read" {
				t.Error("the role changed")
			}
		})
	}
}

func TestMembersGraphQLUpdate(t *testing.T) {
	f := newMemFixture(t)
	target := f.by["read"].UserID
	vars := func(input map[string]any) map[string]any {
		return map[string]any{"org": f.org, "user": target, "input": input}
	}
	var out struct {
		UpdateMember struct {
			ID   string
			Role *string
		}
	}
	t.Run("OK", func(t *testing.T) {
		f.gql(t, f.admin, memGQLUpdate, vars(map[string]any{"role": "REVIEW"}), &out)
		if out.UpdateMember.Role == nil || *out.UpdateMember.Role != "REVIEW" || f.role(t, target) != "review" {
			t.Fatalf("answer %+v", out.UpdateMember)
		}
	})
	t.Run("OKNullMakesGuest", func(t *testing.T) {
		f.gql(t, f.admin, memGQLUpdate, vars(map[string]any{"role": nil}), &out)
		if out.UpdateMember.Role != nil || f.role(t, target) != "guest" {
			t.Fatalf("answer %+v, want a guest", out.UpdateMember)
		}
	})
	t.Run("OKOmittedRoleChangesNothing", func(t *testing.T) {
		f.gql(t, f.admin, memGQLUpdate, vars(map[string]any{}), &out)
		if f.role(t, target) != "guest" {
			t.Fatal("an empty input changed the role")
		}
	})
	t.Run("ErrUnknownRole", func(t *testing.T) {
		f.gqlFails(t, f.admin, memGQLUpdate, vars(map[string]any{"role": "OWNER"}), "GRAPHQL_VALIDATION_FAILED", "Role")
	})
	t.Run("ErrLastAdmin", func(t *testing.T) {
		f.gqlFails(t, f.admin, memGQLUpdate, map[string]any{"org": f.org, "user": f.admin.UserID,
			"input": map[string]any{"role": "READ"}}, "BAD_REQUEST", "last admin")
		f.gqlFails(t, f.admin, memGQLRemove, map[string]any{"org": f.org, "user": f.admin.UserID}, "BAD_REQUEST", "last admin")
		if f.role(t, f.admin.UserID) != "admin" {
			t.Fatal("the last admin was demoted")
		}
	})
}

// TestMembersGraphQLDemoteSelfSameRequest demotes the viewer, then tries an admin write in the
// same operation: mutations run in order, and the second sees the viewer's new role.
func TestMembersGraphQLDemoteSelfSameRequest(t *testing.T) {
	f := newMemFixture(t)
	memWant(t, f.e.Do(f.admin, "PATCH", f.path(f.by["create"].UserID), map[string]any{"role": "admin"}), 200)
	g := f.e.GraphQL(f.admin, `mutation($org: ID!, $self: ID!, $other: ID!) {
  a: updateMember(organizationId: $org, userId: $self, input: {role: EDIT}) { role }
  b: updateMember(organizationId: $org, userId: $other, input: {role: COMMENT}) { role } }`,
		map[string]any{"org": f.org, "self": f.admin.UserID, "other": f.by["read"].UserID})
	if g.Code() != "FORBIDDEN" || len(g.Errors) != 1 || len(g.Errors[0].Path) == 0 || g.Errors[0].Path[0] != "b" {
		t.Fatalf("want one FORBIDDEN error at b, got %+v", g.Errors)
	}
	if f.role(t, f.admin.UserID) != "edit" || f.role(t, f.by["read"].UserID) != "read" {
		t.Fatal("roles after the operation: want the demotion only")
	}
}

func TestMembersGraphQLRemoveAndSSO(t *testing.T) {
	f := newMemFixture(t)
	t.Run("OKSSO", func(t *testing.T) {
		var out struct{ SetMemberSSO struct{ SSO bool } }
		f.gql(t, f.admin, memGQLSSO, map[string]any{"org": f.org, "user": f.by["edit"].UserID}, &out)
		if !out.SetMemberSSO.SSO || !f.get(t, f.by["edit"].UserID).SSO {
			t.Fatal("sso not set")
		}
	})
	t.Run("OKRemove", func(t *testing.T) {
		var out struct{ RemoveMember bool }
		f.gql(t, f.admin, memGQLRemove, map[string]any{"org": f.org, "user": f.by["edit"].UserID}, &out)
		if !out.RemoveMember {
			t.Fatal("removeMember answered false")
		}
		memWantError(t, f.e.Do(f.admin, "GET", f.path(f.by["edit"].UserID), nil), 404)
	})
	t.Run("OKLeave", func(t *testing.T) {
		g := f.by["guest"]
		f.gql(t, g, memGQLRemove, map[string]any{"org": f.org, "user": g.UserID}, nil)
		memWantError(t, f.e.Do(g, "GET", "/v1/orgs/"+f.org, nil), 404)
	})
	t.Run("ErrUnknownUser", func(t *testing.T) {
		f.gqlFails(t, f.admin, memGQLRemove, map[string]any{"org": f.org, "user": "nobody00000000000000"}, "NOT_FOUND")
	})
	t.Run("ErrNoToken", func(t *testing.T) {
		if g := f.e.GraphQL(testenv.Actor{}, memGQLRemove, map[string]any{"org": f.org, "user": f.by["read"].UserID}); g.Status != 401 {
			t.Fatalf("want 401, got %d", g.Status)
		}
		f.get(t, f.by["read"].UserID)
	})
}

func TestMembersGraphQLTeams(t *testing.T) {
	f := newMemFixture(t)
	reader := f.by["read"].UserID
	for _, title := range []string{"Alpha", "Beta", "alphabet", "Gamma", "Delta"} {
		f.team(t, title, reader)
	}
	query := `query($org: ID!, $user: ID!, $first: Int, $after: String, $title: String) { organization(id: $org) {
  member(userId: $user) { teams(first: $first, after: $after, title: $title) {
    totalCount pageInfo { hasNextPage endCursor } edges { node { role team { title } } } } } } }`
	type conn struct {
		TotalCount int
		PageInfo   struct {
			HasNextPage bool
			EndCursor   *string
		}
		Edges []struct{ Node struct{ Role string } }
	}
	run := func(vars map[string]any) conn {
		var out struct {
			Organization struct{ Member struct{ Teams conn } }
		}
		vars["org"], vars["user"] = f.org, reader
		f.gql(t, f.admin, query, vars, &out)
		return out.Organization.Member.Teams
	}
	t.Run("OKTitle", func(t *testing.T) {
		if c := run(map[string]any{"title": "alpha"}); c.TotalCount != 2 || len(c.Edges) != 2 || c.Edges[0].Node.Role != "MEMBER" {
			t.Fatalf("connection %+v, want 2 teams", c)
		}
	})
	t.Run("OKPages", func(t *testing.T) {
		seen := 0
		vars := map[string]any{"first": 2}
		for pages := 0; pages < 10; pages++ {
			c := run(vars)
			seen += len(c.Edges)
			if c.TotalCount != 5 || !c.PageInfo.HasNextPage {
				break
			}
			vars["after"] = *c.PageInfo.EndCursor
		}
		if seen != 5 {
			t.Fatalf("saw %d teams over the pages, want 5", seen)
		}
	})
}

// TestMembersLastAdminConcurrent has the two admins of an organization demote each other at the
// same time, many times over: however the requests interleave, an admin remains.
func TestMembersLastAdminConcurrent(t *testing.T) {
	e := testenv.New(t)
	for i := 0; i < 20; i++ {
		n := strconv.Itoa(i)
		a, org := e.Bootstrap("a"+n+"@example.com", "Org "+n)
		b := e.User("b"+n+"@example.com", org, memRole("admin"))
		reader := e.User("r"+n+"@example.com", org, memRole("read"))
		f := &memFixture{e: e, org: org, admin: a}
		// Round by round: both demote the other; a demotes b while b removes a; both leave.
		method := [3][2]string{{"PATCH", "PATCH"}, {"PATCH", "DELETE"}, {"DELETE", "DELETE"}}[i%3]
		target := [3][2]testenv.Actor{{b, a}, {b, a}, {a, b}}[i%3]
		done := make(chan testenv.Response, 2)
		for j, actor := range []testenv.Actor{a, b} {
			go func() {
				done <- e.Raw(actor, method[j], f.path(target[j].UserID), "application/json", strings.NewReader(`{"role":"read"}`))
			}()
		}
		r1, r2 := <-done, <-done
		if l := f.list(t, reader, url.Values{"role": {"admin"}}); l.Count == 0 {
			t.Fatalf("round %d: no admin left (answers %d %s, %d %s)", i, r1.Status, r1.Body, r2.Status, r2.Body)
		}
	}
}
