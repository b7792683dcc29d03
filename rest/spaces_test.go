package rest_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/permissiongrant"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/sweep"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

const spaceFields = `id title emoji visibility editMode createdAt updatedAt deletedAt organizationId parentId
	revision { id } defaultLevel openCommentCount changeRequestCount openChangeRequestCount draftChangeRequestCount
	permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration }`

func createSpace(t *testing.T, e *testenv.Env, a testenv.Actor, orgID string, body any) map[string]any {
	t.Helper()
	resp := e.Do(a, "POST", "/v1/orgs/"+orgID+"/spaces", body)
	if resp.Status != 201 {
		t.Fatalf("create space: %d %s", resp.Status, resp.Body)
	}
	return resp.Map(t)
}

func spaceIDs(t *testing.T, e *testenv.Env, a testenv.Actor, orgID string) []string {
	t.Helper()
	resp := e.Do(a, "GET", "/v1/orgs/"+orgID+"/spaces", nil)
	if resp.Status != 200 {
		t.Fatalf("list spaces: %d %s", resp.Status, resp.Body)
	}
	var l struct {
		Items []struct{ ID string } `json:"items"`
	}
	resp.JSON(t, &l)
	ids := make([]string, len(l.Items))
	for i, it := range l.Items {
		ids[i] = it.ID
	}
	return ids
}

func gqlOK(t *testing.T, g testenv.GQLResponse, v any) {
	t.Helper()
	if len(g.Errors) > 0 {
		t.Fatalf("graphql errors: %v", g.Errors)
	}
	if err := json.Unmarshal(g.Data, v); err != nil {
		t.Fatalf("decode %s: %v", g.Data, err)
	}
}

func rootTreeOf(t *testing.T, e *testenv.Env, revID string) string {
	t.Helper()
	r, err := e.Store.Client.Revision.Get(accounts.System(context.Background()), revID)
	if err != nil {
		t.Fatal(err)
	}
	return r.RootTree
}

func TestSpaceCreate(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")

	t.Run("OK", func(t *testing.T) {
		s := createSpace(t, e, admin, org, nil)
		if s["title"] != "Untitled" || s["emoji"] != "" || s["visibility"] != "private" || s["defaultLevel"] != "inherit" ||
			s["editMode"] != "live" || s["organization"] != org || s["object"] != "space" {
			t.Fatalf("defaults: %v", s)
		}
		if perms := s["permissions"].(map[string]any); perms["admin"] != true || perms["merge"] != true {
			t.Fatalf("permissions: %v", perms)
		}
		if got := rootTreeOf(t, e, s["revision"].(string)); got != tree.EmptyRoot {
			t.Fatalf("root tree %q, want the empty tree %q", got, tree.EmptyRoot)
		}
		get := e.Do(admin, "GET", "/v1/spaces/"+s["id"].(string), nil).Map(t)
		if get["id"] != s["id"] || get["revision"] != s["revision"] {
			t.Fatalf("get: %v", get)
		}
	})
	t.Run("OKInCollection", func(t *testing.T) {
		col := e.Do(admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Docs"}).Map(t)
		s := createSpace(t, e, admin, org, map[string]any{"title": "Guide", "emoji": "📘", "parent": col["id"]})
		if s["parent"] != col["id"] || s["title"] != "Guide" || s["emoji"] != "📘" {
			t.Fatalf("space: %v", s)
		}
	})
	t.Run("OKGraphQL", func(t *testing.T) {
		var d struct{ CreateSpace map[string]any }
		gqlOK(t, e.GraphQL(admin, `mutation($o: ID!) { createSpace(organizationId: $o, input: {title: "Handbook", emoji: "📗"}) { `+spaceFields+` } }`,
			map[string]any{"o": org}), &d)
		s := d.CreateSpace
		if s["title"] != "Handbook" || s["visibility"] != "PRIVATE" || s["editMode"] != "LIVE" || s["defaultLevel"] != "inherit" ||
			s["organizationId"] != org || s["revision"] == nil {
			t.Fatalf("space: %v", s)
		}
	})
	t.Run("ErrTitleTooLong", func(t *testing.T) {
		msg := testenv.CheckError(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": strings.Repeat("é", 51)}), 400)
		if !strings.Contains(msg, "title") || !strings.Contains(msg, "50") {
			t.Fatalf("message %q", msg)
		}
		g := e.GraphQL(admin, `mutation($o: ID!, $t: String) { createSpace(organizationId: $o, input: {title: $t}) { id } }`,
			map[string]any{"o": org, "t": strings.Repeat("x", 51)})
		if g.Code() != "BAD_REQUEST" {
			t.Fatalf("graphql code %q", g.Code())
		}
	})
	t.Run("OKTitleAtBound", func(t *testing.T) {
		createSpace(t, e, admin, org, map[string]any{"title": strings.Repeat("é", 50), "emoji": strings.Repeat("é", 50)})
	})
	t.Run("ErrEmojiTooLong", func(t *testing.T) {
		msg := testenv.CheckError(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"emoji": strings.Repeat("é", 51)}), 400)
		if !strings.Contains(msg, "emoji") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrUnknownParent", func(t *testing.T) {
		msg := testenv.CheckError(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"parent": "nope"}), 400)
		if !strings.Contains(msg, "parent") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrUnauthenticated", func(t *testing.T) {
		testenv.CheckError(t, e.Do(testenv.Actor{}, "POST", "/v1/orgs/"+org+"/spaces", nil), 401)
	})
}

func TestSpaceRoleMatrix(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	outsider, _ := e.Bootstrap("otto@example.com", "Other")
	shared := createSpace(t, e, admin, org, map[string]any{"title": "Shared"})["id"].(string)
	hidden := createSpace(t, e, admin, org, map[string]any{"title": "Hidden"})["id"].(string)
	if resp := e.Do(admin, "PATCH", "/v1/spaces/"+hidden, map[string]any{"defaultLevel": nil}); resp.Status != 200 {
		t.Fatalf("patch: %d %s", resp.Status, resp.Body)
	}

	cases := []struct {
		name       string
		role       *viewer.Role
		create     int // POST /orgs/{org}/spaces
		getShared  int // GET of a space with defaultLevel inherit
		getHidden  int // GET of a space with defaultLevel null
		patch      int // PATCH of the shared space
		canAdmin   bool
		canEdit    bool
		canComment bool
	}{
		{"Admin", testenv.Role(viewer.RoleAdmin), 201, 200, 200, 200, true, true, true},
		{"Create", testenv.Role(viewer.RoleCreate), 201, 200, 404, 403, false, true, true},
		{"Review", testenv.Role(viewer.RoleReview), 403, 200, 404, 403, false, true, true},
		{"Edit", testenv.Role(viewer.RoleEdit), 403, 200, 404, 403, false, true, true},
		{"Comment", testenv.Role(viewer.RoleComment), 403, 200, 404, 403, false, false, true},
		{"Read", testenv.Role(viewer.RoleRead), 403, 200, 404, 403, false, false, false},
		{"Guest", nil, 403, 404, 404, 404, false, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := e.User(strings.ToLower(c.name)+"@example.com", org, c.role)
			if got := e.Do(u, "POST", "/v1/orgs/"+org+"/spaces", nil).Status; got != c.create {
				t.Errorf("create: %d, want %d", got, c.create)
			}
			get := e.Do(u, "GET", "/v1/spaces/"+shared, nil)
			if get.Status != c.getShared {
				t.Errorf("get shared: %d, want %d", get.Status, c.getShared)
			}
			if get.Status == 200 {
				perms := get.Map(t)["permissions"].(map[string]any)
				if perms["view"] != true || perms["admin"] != c.canAdmin || perms["edit"] != c.canEdit || perms["comment"] != c.canComment {
					t.Errorf("permissions %v", perms)
				}
			}
			if got := e.Do(u, "GET", "/v1/spaces/"+hidden, nil).Status; got != c.getHidden {
				t.Errorf("get hidden: %d, want %d", got, c.getHidden)
			}
			if got := e.Do(u, "PATCH", "/v1/spaces/"+shared, map[string]any{"title": "x"}).Status; got != c.patch {
				t.Errorf("patch: %d, want %d", got, c.patch)
			}
		})
	}
	t.Run("ReadListSkipsHidden", func(t *testing.T) {
		u := e.User("reader@example.com", org, testenv.Role(viewer.RoleRead))
		ids := spaceIDs(t, e, u, org)
		if !contains(ids, shared) || contains(ids, hidden) {
			t.Fatalf("list %v: want %s, not %s", ids, shared, hidden)
		}
	})
	t.Run("Outsider", func(t *testing.T) {
		testenv.CheckError(t, e.Do(outsider, "GET", "/v1/spaces/"+shared, nil), 404)
		testenv.CheckError(t, e.Do(outsider, "PATCH", "/v1/spaces/"+shared, map[string]any{"title": "x"}), 404)
		testenv.CheckError(t, e.Do(outsider, "DELETE", "/v1/spaces/"+shared, nil), 404)
		testenv.CheckError(t, e.Do(outsider, "GET", "/v1/orgs/"+org+"/spaces", nil), 404)
		testenv.CheckError(t, e.Do(outsider, "POST", "/v1/orgs/"+org+"/spaces", nil), 404)
		g := e.GraphQL(outsider, `query($id: ID!) { space(id: $id) { id } }`, map[string]any{"id": shared})
		if g.Code() != "NOT_FOUND" {
			t.Fatalf("graphql code %q", g.Code())
		}
	})
	t.Run("ErrUnauthenticated", func(t *testing.T) {
		testenv.CheckError(t, e.Do(testenv.Actor{}, "GET", "/v1/spaces/"+shared, nil), 401)
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestSpaceUpdate(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	id := createSpace(t, e, admin, org, map[string]any{"title": "Guide"})["id"].(string)
	path := "/v1/spaces/" + id

	t.Run("OK", func(t *testing.T) {
		s := e.Do(admin, "PATCH", path, map[string]any{"title": "Manual", "emoji": "📕", "visibility": "public",
			"editMode": "locked", "defaultLevel": "read"}).Map(t)
		if s["title"] != "Manual" || s["emoji"] != "📕" || s["visibility"] != "public" || s["editMode"] != "locked" || s["defaultLevel"] != "read" {
			t.Fatalf("space: %v", s)
		}
	})
	t.Run("OKLockedStillChangeable", func(t *testing.T) {
		s := e.Do(admin, "PATCH", path, map[string]any{"title": "Locked manual"}).Map(t)
		if s["title"] != "Locked manual" || s["editMode"] != "locked" {
			t.Fatalf("space: %v", s)
		}
	})
	t.Run("OKDefaultLevelNull", func(t *testing.T) {
		s := e.Do(admin, "PATCH", path, map[string]any{"defaultLevel": nil}).Map(t)
		if v, ok := s["defaultLevel"]; !ok || v != nil {
			t.Fatalf("defaultLevel %v (present %v)", v, ok)
		}
	})
	t.Run("OKGraphQL", func(t *testing.T) {
		var d struct{ UpdateSpace map[string]any }
		gqlOK(t, e.GraphQL(admin, `mutation($id: ID!) { updateSpace(id: $id, input: {visibility: SHARE_LINK, editMode: LIVE, defaultLevel: "inherit", title: "G"}) { `+spaceFields+` } }`,
			map[string]any{"id": id}), &d)
		if s := d.UpdateSpace; s["visibility"] != "SHARE_LINK" || s["editMode"] != "LIVE" || s["defaultLevel"] != "inherit" || s["title"] != "G" {
			t.Fatalf("space: %v", s)
		}
	})
	bounds := []struct {
		name, field string
		body        map[string]any
	}{
		{"ErrTitleTooLong", "title", map[string]any{"title": strings.Repeat("a", 51)}},
		{"ErrTitleEmpty", "title", map[string]any{"title": " "}},
		{"ErrTitleNull", "title", map[string]any{"title": nil}},
		{"ErrEmojiTooLong", "emoji", map[string]any{"emoji": strings.Repeat("a", 51)}},
		{"ErrVisibilityUnknown", "visibility", map[string]any{"visibility": "secret"}},
		{"ErrInCollectionWithoutParent", "visibility", map[string]any{"visibility": "in-collection"}},
		{"ErrEditModeUnknown", "editMode", map[string]any{"editMode": "frozen"}},
		{"ErrDefaultLevelUnknown", "defaultLevel", map[string]any{"defaultLevel": "owner"}},
	}
	for _, b := range bounds {
		t.Run(b.name, func(t *testing.T) {
			msg := testenv.CheckError(t, e.Do(admin, "PATCH", path, b.body), 400)
			if !strings.Contains(msg, b.field) {
				t.Fatalf("message %q does not name %s", msg, b.field)
			}
		})
	}
	t.Run("OKInCollectionWithParent", func(t *testing.T) {
		col := e.Do(admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Docs"}).Map(t)
		sid := createSpace(t, e, admin, org, map[string]any{"parent": col["id"]})["id"].(string)
		if s := e.Do(admin, "PATCH", "/v1/spaces/"+sid, map[string]any{"visibility": "in-collection"}).Map(t); s["visibility"] != "in-collection" {
			t.Fatalf("space: %v", s)
		}
	})
	t.Run("ErrGraphQLEnum", func(t *testing.T) {
		g := e.GraphQL(admin, `mutation($id: ID!) { updateSpace(id: $id, input: {visibility: SECRET}) { id } }`, map[string]any{"id": id})
		if g.Code() != "GRAPHQL_VALIDATION_FAILED" {
			t.Fatalf("graphql code %q", g.Code())
		}
	})
}

func TestSpaceDeleteRestoreSweep(t *testing.T) {
	clock := testenv.NewClock(time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC))
	e := testenv.New(t, func(o *server.Options) { o.Clock = clock.Now })
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	reader := e.User("rita@example.com", org, testenv.Role(viewer.RoleRead))
	start := clock.Now()
	ctx := context.Background()

	t.Run("Day6RestoreAndSweepKeeps", func(t *testing.T) {
		clock.Set(start)
		id := createSpace(t, e, admin, org, nil)["id"].(string)
		if resp := e.Do(admin, "DELETE", "/v1/spaces/"+id, nil); resp.Status != 205 {
			t.Fatalf("delete: %d %s", resp.Status, resp.Body)
		}
		testenv.CheckError(t, e.Do(admin, "GET", "/v1/spaces/"+id, nil), 404)
		testenv.CheckError(t, e.Do(admin, "PATCH", "/v1/spaces/"+id, map[string]any{"title": "x"}), 404)
		if contains(spaceIDs(t, e, admin, org), id) {
			t.Fatal("a deleted space is listed")
		}
		day6 := start.Add(6 * 24 * time.Hour)
		if n, err := sweep.Sweep(ctx, e.Store.Client, day6); err != nil || n != 0 {
			t.Fatalf("sweep on day 6: %d, %v", n, err)
		}
		clock.Set(day6)
		testenv.CheckError(t, e.Do(reader, "POST", "/v1/spaces/"+id+"/restore", nil), 404)
		s := e.Do(admin, "POST", "/v1/spaces/"+id+"/restore", nil).Map(t)
		if s["id"] != id || s["deletedAt"] != nil {
			t.Fatalf("restored: %v", s)
		}
		e.Do(admin, "GET", "/v1/spaces/"+id, nil)
		testenv.CheckError(t, e.Do(admin, "POST", "/v1/spaces/"+id+"/restore", nil), 400)
	})
	t.Run("Day8SweepRemoves", func(t *testing.T) {
		clock.Set(start)
		id := createSpace(t, e, admin, org, nil)["id"].(string)
		e.Do(admin, "DELETE", "/v1/spaces/"+id, nil)
		day8 := start.Add(8 * 24 * time.Hour)
		if n, err := sweep.Sweep(ctx, e.Store.Client, day8); err != nil || n != 1 {
			t.Fatalf("sweep on day 8: %d, %v", n, err)
		}
		clock.Set(day8)
		testenv.CheckError(t, e.Do(admin, "POST", "/v1/spaces/"+id+"/restore", nil), 404)
		sys := accounts.System(ctx)
		if n, _ := e.Store.Client.Revision.Query().Where(revision.SpaceID(id)).Count(sys); n != 0 {
			t.Fatalf("%d revisions left", n)
		}
	})
	t.Run("ConcurrentSweepersRemoveEachOnce", func(t *testing.T) {
		clock.Set(start)
		for range 3 {
			e.Do(admin, "DELETE", "/v1/spaces/"+createSpace(t, e, admin, org, nil)["id"].(string), nil)
		}
		day8 := start.Add(8 * 24 * time.Hour)
		counts := make([]int, 2)
		var wg sync.WaitGroup
		for i := range counts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := sweep.Sweep(ctx, e.Store.Client, day8)
				if err != nil {
					t.Errorf("sweep: %v", err)
				}
				counts[i] = n
			}()
		}
		wg.Wait()
		if counts[0]+counts[1] != 3 {
			t.Fatalf("sweepers removed %v, want 3 in all", counts)
		}
	})
	t.Run("Day8RestoreRefusedBeforeSweep", func(t *testing.T) {
		clock.Set(start)
		id := createSpace(t, e, admin, org, nil)["id"].(string)
		e.Do(admin, "DELETE", "/v1/spaces/"+id, nil)
		clock.Set(start.Add(8 * 24 * time.Hour))
		testenv.CheckError(t, e.Do(admin, "POST", "/v1/spaces/"+id+"/restore", nil), 404)
	})
	t.Run("ErrDeleteForbidden", func(t *testing.T) {
		clock.Set(start)
		id := createSpace(t, e, admin, org, nil)["id"].(string)
		testenv.CheckError(t, e.Do(reader, "DELETE", "/v1/spaces/"+id, nil), 403)
	})
	t.Run("OKGraphQL", func(t *testing.T) {
		clock.Set(start)
		id := createSpace(t, e, admin, org, nil)["id"].(string)
		var del struct{ DeleteSpace bool }
		gqlOK(t, e.GraphQL(admin, `mutation($id: ID!) { deleteSpace(id: $id) }`, map[string]any{"id": id}), &del)
		if g := e.GraphQL(admin, `query($id: ID!) { space(id: $id) { id } }`, map[string]any{"id": id}); g.Code() != "NOT_FOUND" {
			t.Fatalf("deleted space: code %q", g.Code())
		}
		var res struct{ RestoreSpace map[string]any }
		gqlOK(t, e.GraphQL(admin, `mutation($id: ID!) { restoreSpace(id: $id) { id deletedAt } }`, map[string]any{"id": id}), &res)
		if !del.DeleteSpace || res.RestoreSpace["id"] != id || res.RestoreSpace["deletedAt"] != nil {
			t.Fatalf("delete %v, restore %v", del, res)
		}
	})
}

func TestSpaceMove(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	a := createSpace(t, e, admin, org, map[string]any{"title": "A"})["id"].(string)
	b := createSpace(t, e, admin, org, map[string]any{"title": "B"})["id"].(string)
	c := createSpace(t, e, admin, org, map[string]any{"title": "C"})["id"].(string)
	assertOrder := func(t *testing.T, want ...string) {
		t.Helper()
		if got := spaceIDs(t, e, admin, org); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
	assertOrder(t, a, b, c)

	t.Run("OKLastBeforeFirst", func(t *testing.T) {
		e.Do(admin, "POST", "/v1/spaces/"+c+"/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": a}}})
		assertOrder(t, c, a, b)
	})
	t.Run("OKGraphQLAfter", func(t *testing.T) {
		var d struct{ MoveSpace map[string]any }
		gqlOK(t, e.GraphQL(admin, `mutation($id: ID!, $b: ID!) { moveSpace(id: $id, input: {position: {after: {space: $b}}}) { id } }`,
			map[string]any{"id": c, "b": b}), &d)
		assertOrder(t, a, b, c)
	})
	t.Run("OKIntoCollection", func(t *testing.T) {
		col := e.Do(admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Docs"}).Map(t)
		s := e.Do(admin, "POST", "/v1/spaces/"+b+"/move", map[string]any{"parent": col["id"]}).Map(t)
		if s["parent"] != col["id"] {
			t.Fatalf("space: %v", s)
		}
		s = e.Do(admin, "POST", "/v1/spaces/"+b+"/move", map[string]any{"parent": nil}).Map(t)
		if _, ok := s["parent"]; ok {
			t.Fatalf("space still in a collection: %v", s)
		}
	})
	t.Run("ErrUnknownParent", func(t *testing.T) {
		msg := testenv.CheckError(t, e.Do(admin, "POST", "/v1/spaces/"+a+"/move", map[string]any{"parent": "nope"}), 400)
		if !strings.Contains(msg, "parent") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrUnknownSibling", func(t *testing.T) {
		msg := testenv.CheckError(t, e.Do(admin, "POST", "/v1/spaces/"+a+"/move",
			map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": "nope"}}}), 400)
		if !strings.Contains(msg, "position.before") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrEmptyBody", func(t *testing.T) {
		testenv.CheckError(t, e.Do(admin, "POST", "/v1/spaces/"+a+"/move", nil), 400)
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		u := e.User("rita@example.com", org, testenv.Role(viewer.RoleRead))
		testenv.CheckError(t, e.Do(u, "POST", "/v1/spaces/"+a+"/move", map[string]any{"parent": nil}), 403)
	})
}

func TestSpaceTransfer(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	other := e.Do(admin, "POST", "/v1/orgs", map[string]any{"title": "Other"}).Map(t)["id"].(string)
	bob := e.User("bob@example.com", org, testenv.Role(viewer.RoleAdmin))
	if resp := e.Do(admin, "POST", "/v1/orgs/"+other+"/link-invites", map[string]any{"role": "read"}); resp.Status != 201 {
		t.Fatalf("invite: %d %s", resp.Status, resp.Body)
	} else if join := e.Do(bob, "POST", "/v1/orgs/"+other+"/invites/"+resp.Map(t)["id"].(string), nil); join.Status >= 300 {
		t.Fatalf("join: %d %s", join.Status, join.Body)
	}
	col := e.Do(admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Docs"}).Map(t)
	sys := accounts.System(context.Background())

	t.Run("OK", func(t *testing.T) {
		s := createSpace(t, e, admin, org, map[string]any{"title": "Moving", "parent": col["id"]})
		id := s["id"].(string)
		e.Store.Client.PermissionGrant.Create().SetOrganizationID(org).SetSpaceID(id).SetUserID(bob.UserID).
			SetRole(viewer.RoleEdit).SaveX(sys)
		got := e.Do(admin, "POST", "/v1/spaces/"+id+"/transfer", map[string]any{"organization": other}).Map(t)
		if got["organization"] != other || got["parent"] != nil || got["revision"] != s["revision"] {
			t.Fatalf("transferred: %v", got)
		}
		if n := e.Store.Client.PermissionGrant.Query().Where(permissiongrant.SpaceID(id)).CountX(sys); n != 0 {
			t.Fatalf("%d grants left", n)
		}
		if contains(spaceIDs(t, e, admin, org), id) || !contains(spaceIDs(t, e, admin, other), id) {
			t.Fatal("the space is listed in the wrong organization")
		}
		rev := e.Store.Client.Revision.GetX(sys, s["revision"].(string))
		if rev.OrganizationID != other {
			t.Fatalf("revision stays in %s", rev.OrganizationID)
		}
	})
	t.Run("OKGraphQL", func(t *testing.T) {
		id := createSpace(t, e, admin, org, nil)["id"].(string)
		var d struct{ TransferSpace map[string]any }
		gqlOK(t, e.GraphQL(admin, `mutation($id: ID!, $o: ID!) { transferSpace(id: $id, organization: $o) { organizationId } }`,
			map[string]any{"id": id, "o": other}), &d)
		if d.TransferSpace["organizationId"] != other {
			t.Fatalf("transferred: %v", d)
		}
	})
	t.Run("ErrNotAdminOfTarget", func(t *testing.T) {
		id := createSpace(t, e, admin, org, nil)["id"].(string)
		msg := testenv.CheckError(t, e.Do(bob, "POST", "/v1/spaces/"+id+"/transfer", map[string]any{"organization": other}), 403)
		if !strings.Contains(msg, "both") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrUnknownTarget", func(t *testing.T) {
		id := createSpace(t, e, admin, org, nil)["id"].(string)
		testenv.CheckError(t, e.Do(admin, "POST", "/v1/spaces/"+id+"/transfer", map[string]any{"organization": "nope"}), 404)
	})
	t.Run("ErrMissingOrganization", func(t *testing.T) {
		id := createSpace(t, e, admin, org, nil)["id"].(string)
		msg := testenv.CheckError(t, e.Do(admin, "POST", "/v1/spaces/"+id+"/transfer", nil), 400)
		if !strings.Contains(msg, "organization") {
			t.Fatalf("message %q", msg)
		}
	})
}

func TestSpaceDuplicate(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")

	t.Run("OK", func(t *testing.T) {
		src := createSpace(t, e, admin, org, map[string]any{"title": "Guide", "emoji": "📘"})
		resp := e.Do(admin, "POST", "/v1/spaces/"+src["id"].(string)+"/duplicate", nil)
		if resp.Status != 201 {
			t.Fatalf("duplicate: %d %s", resp.Status, resp.Body)
		}
		dup := resp.Map(t)
		if dup["id"] == src["id"] || dup["revision"] == src["revision"] || dup["title"] != "Guide (copy)" || dup["emoji"] != "📘" {
			t.Fatalf("duplicate: %v", dup)
		}
		if rootTreeOf(t, e, dup["revision"].(string)) != rootTreeOf(t, e, src["revision"].(string)) {
			t.Fatal("the copy has other content")
		}
		ids := spaceIDs(t, e, admin, org)
		if i := indexOf(ids, src["id"].(string)); i < 0 || i+1 >= len(ids) || ids[i+1] != dup["id"] {
			t.Fatalf("the copy is not next to its source: %v", ids)
		}
	})
	t.Run("OKLongTitle", func(t *testing.T) {
		src := createSpace(t, e, admin, org, map[string]any{"title": strings.Repeat("é", 50)})
		dup := e.Do(admin, "POST", "/v1/spaces/"+src["id"].(string)+"/duplicate", nil).Map(t)
		if title := dup["title"].(string); !strings.HasSuffix(title, " (copy)") || len([]rune(title)) != 50 {
			t.Fatalf("title %q", title)
		}
	})
	t.Run("OKGraphQL", func(t *testing.T) {
		src := createSpace(t, e, admin, org, map[string]any{"title": "Handbook"})
		var d struct{ DuplicateSpace map[string]any }
		gqlOK(t, e.GraphQL(admin, `mutation($id: ID!) { duplicateSpace(id: $id) { id title } }`, map[string]any{"id": src["id"]}), &d)
		if d.DuplicateSpace["title"] != "Handbook (copy)" {
			t.Fatalf("duplicate: %v", d)
		}
	})
	t.Run("ErrReaderCannotCreate", func(t *testing.T) {
		src := createSpace(t, e, admin, org, nil)
		u := e.User("rita@example.com", org, testenv.Role(viewer.RoleRead))
		testenv.CheckError(t, e.Do(u, "POST", "/v1/spaces/"+src["id"].(string)+"/duplicate", nil), 403)
	})
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func TestSpaceGraphQLList(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	for _, title := range []string{"One", "Two", "Three"} {
		createSpace(t, e, admin, org, map[string]any{"title": title})
	}
	var d struct {
		Organization struct {
			Spaces struct {
				TotalCount int
				PageInfo   struct {
					HasNextPage bool
					EndCursor   string
				}
				Edges []struct{ Node struct{ Title string } }
			}
		}
	}
	q := `query($o: ID!, $after: String) { organization(id: $o) { spaces(first: 2, after: $after) {
		totalCount pageInfo { hasNextPage endCursor } edges { node { title } } } } }`
	gqlOK(t, e.GraphQL(admin, q, map[string]any{"o": org}), &d)
	sp := d.Organization.Spaces
	if sp.TotalCount != 3 || len(sp.Edges) != 2 || !sp.PageInfo.HasNextPage || sp.Edges[0].Node.Title != "One" {
		t.Fatalf("first page: %+v", sp)
	}
	gqlOK(t, e.GraphQL(admin, q, map[string]any{"o": org, "after": sp.PageInfo.EndCursor}), &d)
	if sp := d.Organization.Spaces; len(sp.Edges) != 1 || sp.Edges[0].Node.Title != "Three" || sp.PageInfo.HasNextPage {
		t.Fatalf("second page: %+v", sp)
	}
	t.Run("RESTPages", func(t *testing.T) {
		resp := e.Do(admin, "GET", "/v1/orgs/"+org+"/spaces?limit=2", nil).Map(t)
		next, _ := resp["next"].(map[string]any)
		if _, counted := resp["count"]; counted || next == nil {
			t.Fatalf("first of two pages: %v", resp)
		}
		resp = e.Do(admin, "GET", "/v1/orgs/"+org+"/spaces?limit=2&page="+next["page"].(string), nil).Map(t)
		if _, counted := resp["count"]; counted || resp["next"] != nil || len(resp["items"].([]any)) != 1 {
			t.Fatalf("last page: %v", resp)
		}
	})
	// The count is given where the page shows it, and exact: the first page holds the whole list.
	t.Run("RESTWholeList", func(t *testing.T) {
		resp := e.Do(admin, "GET", "/v1/orgs/"+org+"/spaces?limit=3", nil).Map(t)
		if resp["count"] != float64(3) || resp["next"] != nil || len(resp["items"].([]any)) != 3 {
			t.Fatalf("whole list: %v", resp)
		}
	})
	t.Run("RESTCountAlone", func(t *testing.T) {
		resp := e.Do(admin, "GET", "/v1/orgs/"+org+"/spaces?limit=0", nil).Map(t)
		if resp["count"] != float64(3) || len(resp["items"].([]any)) != 0 {
			t.Fatalf("limit=0: %v", resp)
		}
	})
}

// TestSpaceReadsAskedColumns: GraphQL's space(id) reads, of the space's row, the columns of the
// fields asked (decision 575), and each field answers as it does when every column is read: each
// field asked alone gives the value a query asking for one that needs them all (permissions)
// gives. REST reads every column.
func TestSpaceReadsAskedColumns(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("admin@example.com", "Acme")
	coll := e.Do(admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Guides"})
	if coll.Status != 201 {
		t.Fatalf("create collection: %d %s", coll.Status, coll.Body)
	}
	var c struct{ ID string }
	coll.JSON(t, &c)
	id := createSpace(t, e, admin, org, map[string]any{"title": "Read", "parent": c.ID})["id"].(string)
	if resp := e.Do(admin, "PATCH", "/v1/spaces/"+id, map[string]any{"visibility": "public", "defaultLevel": "edit",
		"editMode": "locked"}); resp.Status != 200 {
		t.Fatalf("update space: %d %s", resp.Status, resp.Body)
	}
	read := func(selection string) map[string]any {
		t.Helper()
		var d struct{ Space map[string]any }
		gqlOK(t, e.GraphQL(admin, `query($s: ID!) { space(id: $s) { `+selection+` } }`, map[string]any{"s": id}), &d)
		return d.Space
	}
	fields := []string{"id", "title", "emoji", "visibility", "editMode", "createdAt", "updatedAt", "deletedAt",
		"organizationId", "parentId", "defaultLevel", "changeRequestCount", "openChangeRequestCount",
		"draftChangeRequestCount", "__typename"}
	every := read(strings.Join(fields, " ") + " permissions { admin }")
	if every["parentId"] != c.ID || every["defaultLevel"] != "edit" || every["editMode"] != "LOCKED" {
		t.Fatalf("every column: %v", every)
	}
	for _, field := range fields {
		if got := read(field)[field]; got != every[field] {
			t.Errorf("%s asked alone: %v, with every column %v", field, got, every[field])
		}
	}
	if got := read("... on Space { parentId }")["parentId"]; got != c.ID { // fragments count
		t.Errorf("parentId through a fragment: %v, want %v", got, c.ID)
	}
	spaceRead := func(sent []string) string {
		for _, q := range sent {
			if q = strings.NewReplacer("`", "", `"`, "").Replace(q); strings.Contains(q, "FROM spaces") {
				return q
			}
		}
		t.Fatalf("no read of spaces in %q", sent)
		return ""
	}
	narrow := spaceRead(e.StatementsSent(func() { read("id title") }))
	wide := spaceRead(e.StatementsSent(func() { e.Do(admin, "GET", "/v1/spaces/"+id, nil) }))
	for _, column := range []string{"created_at", "merge_rules", "share_key"} {
		if strings.Contains(narrow[:strings.Index(narrow, "FROM")], column) {
			t.Errorf("space(id) { id title } reads %s: %s", column, narrow)
		}
		if !strings.Contains(wide, column) {
			t.Errorf("REST reads no %s: %s", column, wide)
		}
	}
}
