package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// msFixture: spaces Alpha (default level inherit), Bravo (no default level: explicit grants only)
// and Charlie (public, no default level); the reader holds a comment grant on Bravo.
type msFixture struct {
	e                            *testenv.Env
	admin, editor, reader, guest testenv.Actor
	outsider                     testenv.Actor
	org                          string
	alpha, bravo, charlie        string
}

func newMSFixture(t *testing.T) *msFixture {
	t.Helper()
	e := testenv.New(t)
	f := &msFixture{e: e}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	f.editor = e.User("ed@example.com", f.org, testenv.Role(viewer.RoleEdit))
	f.reader = e.User("rd@example.com", f.org, testenv.Role(viewer.RoleRead))
	f.guest = e.User("gu@example.com", f.org, nil)
	f.outsider, _ = e.Bootstrap("zed@zeta.io", "Zeta")
	f.alpha = createSpace(t, e, f.admin, f.org, map[string]any{"title": "Alpha"})["id"].(string)
	f.bravo = createSpace(t, e, f.admin, f.org, map[string]any{"title": "Bravo"})["id"].(string)
	f.charlie = createSpace(t, e, f.admin, f.org, map[string]any{"title": "Charlie"})["id"].(string)
	for id, body := range map[string]map[string]any{
		f.bravo:   {"defaultLevel": nil},
		f.charlie: {"defaultLevel": nil, "visibility": "public"},
	} {
		if r := e.Do(f.admin, "PATCH", "/v1/spaces/"+id, body); r.Status != http.StatusOK {
			t.Fatalf("update space: %d %s", r.Status, r.Body)
		}
	}
	ctx := accounts.System(context.Background())
	err := e.Store.Client.PermissionGrant.Create().SetOrganizationID(f.org).SetUserID(f.reader.UserID).
		SetSpaceID(f.bravo).SetRole(viewer.RoleComment).Exec(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *msFixture) path(userID, query string) string {
	return "/v1/orgs/" + f.org + "/members/" + userID + "/spaces" + query
}

// list returns "title:permission" items of one page, and the next page token.
func (f *msFixture) list(t *testing.T, a testenv.Actor, userID, query string) ([]string, string, int) {
	t.Helper()
	r := f.e.Do(a, "GET", f.path(userID, query), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", f.path(userID, query), r.Status, r.Body)
	}
	var l struct {
		Items []struct {
			Permission string
			Space      struct{ Title string }
		}
		Next  *struct{ Page string }
		Count int
	}
	r.JSON(t, &l)
	var out []string
	for _, it := range l.Items {
		out = append(out, it.Space.Title+":"+it.Permission)
	}
	next := ""
	if l.Next != nil {
		next = l.Next.Page
	}
	return out, next, l.Count
}

func TestMemberSpaces(t *testing.T) {
	f := newMSFixture(t)
	cases := []struct {
		name   string
		member testenv.Actor
		want   string
	}{
		{"Admin", f.admin, "Alpha:admin Bravo:admin Charlie:admin"},
		{"Editor", f.editor, "Alpha:edit Charlie:read"},
		{"ReaderWithGrant", f.reader, "Alpha:read Bravo:comment Charlie:read"},
		{"Guest", f.guest, "Charlie:read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _, count := f.list(t, f.admin, c.member.UserID, "?order=asc")
			if strings.Join(got, " ") != c.want || count != len(got) {
				t.Fatalf("got %v (count %d), want %s", got, count, c.want)
			}
		})
	}
	t.Run("DefaultOrderDesc", func(t *testing.T) {
		got, _, _ := f.list(t, f.admin, f.reader.UserID, "")
		if strings.Join(got, " ") != "Charlie:read Bravo:comment Alpha:read" {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("Pages", func(t *testing.T) {
		var all []string
		next := ""
		for i := 0; i < 4; i++ {
			q := "?order=asc&limit=1"
			if next != "" {
				q += "&page=" + next
			}
			items, n, count := f.list(t, f.admin, f.reader.UserID, q)
			if count != 3 {
				t.Fatalf("count %d", count)
			}
			all = append(all, items...)
			if next = n; next == "" {
				break
			}
		}
		if strings.Join(all, " ") != "Alpha:read Bravo:comment Charlie:read" {
			t.Fatalf("pages %v", all)
		}
	})
	t.Run("DisabledMemberSeesWhatAnyoneSees", func(t *testing.T) {
		ctx := accounts.System(context.Background())
		disable := func(on bool) {
			err := f.e.Store.Client.Member.Update().Where(member.OrganizationID(f.org), member.UserID(f.reader.UserID)).
				SetDisabled(on).Exec(ctx)
			if err != nil {
				t.Fatal(err)
			}
		}
		disable(true)
		defer disable(false)
		got, _, _ := f.list(t, f.admin, f.reader.UserID, "?order=asc")
		if strings.Join(got, " ") != "Charlie:read" { // no organization role, no grant: the public space
			t.Fatalf("got %v", got)
		}
	})
	t.Run("DeletedSpaceLeaves", func(t *testing.T) {
		if r := f.e.Do(f.admin, "DELETE", "/v1/spaces/"+f.alpha, nil); r.Status >= 300 {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		got, _, _ := f.list(t, f.admin, f.editor.UserID, "?order=asc")
		if strings.Join(got, " ") != "Charlie:read" {
			t.Fatalf("got %v", got)
		}
	})
}

func TestMemberSpacesAccess(t *testing.T) {
	f := newMSFixture(t)
	t.Run("OKSelf", func(t *testing.T) {
		got, _, _ := f.list(t, f.reader, f.reader.UserID, "?order=asc")
		if strings.Join(got, " ") != "Alpha:read Bravo:comment Charlie:read" {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("OKGuestSelf", func(t *testing.T) {
		got, _, _ := f.list(t, f.guest, f.guest.UserID, "")
		if strings.Join(got, " ") != "Charlie:read" {
			t.Fatalf("got %v", got)
		}
	})
	cases := []struct {
		name   string
		actor  testenv.Actor
		userID string
		status int
	}{
		{"ErrOtherMember", f.editor, f.reader.UserID, http.StatusForbidden},
		{"ErrReaderListsAdmin", f.reader, f.admin.UserID, http.StatusForbidden},
		{"ErrOutsider", f.outsider, f.reader.UserID, http.StatusNotFound},
		{"ErrNoSuchMember", f.admin, f.outsider.UserID, http.StatusNotFound},
		{"ErrAnonymous", testenv.Actor{}, f.reader.UserID, http.StatusUnauthorized},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			testenv.CheckError(t, f.e.Do(c.actor, "GET", f.path(c.userID, ""), nil), c.status)
		})
	}
	t.Run("ErrBadOrder", func(t *testing.T) {
		msg := testenv.CheckError(t, f.e.Do(f.admin, "GET", f.path(f.reader.UserID, "?order=up"), nil), http.StatusBadRequest)
		if !strings.Contains(msg, "order") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("ErrLimit", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.admin, "GET", f.path(f.reader.UserID, "?limit=1001"), nil), http.StatusBadRequest)
	})
}

func TestMemberSpacesGraphQL(t *testing.T) {
	f := newMSFixture(t)
	const q = `query($org: ID!, $user: ID!) { organization(id: $org) { member(userId: $user) {
	  spaces(first: 10, order: ASC) { totalCount edges { node { role space { title } } } } } } }`
	t.Run("OK", func(t *testing.T) {
		var d struct {
			Organization struct {
				Member struct {
					Spaces struct {
						TotalCount int
						Edges      []struct {
							Node struct {
								Role  string
								Space struct{ Title string }
							}
						}
					}
				}
			}
		}
		gqlOK(t, f.e.GraphQL(f.admin, q, map[string]any{"org": f.org, "user": f.reader.UserID}), &d)
		var got []string
		for _, e := range d.Organization.Member.Spaces.Edges {
			got = append(got, e.Node.Space.Title+":"+e.Node.Role)
		}
		if strings.Join(got, " ") != "Alpha:READ Bravo:COMMENT Charlie:READ" || d.Organization.Member.Spaces.TotalCount != 3 {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		g := f.e.GraphQL(f.editor, q, map[string]any{"org": f.org, "user": f.reader.UserID})
		if g.Code() != "FORBIDDEN" {
			t.Fatalf("code %s errors %v", g.Code(), g.Errors)
		}
	})
}
