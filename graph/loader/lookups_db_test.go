package loader_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// request returns the context of one request of v, as the server's middleware makes it.
func request(e *testenv.Env, v *viewer.Viewer) context.Context {
	client := e.Store.Client
	return loader.NewContext(ent.NewContext(viewer.NewContext(context.Background(), v), client), client)
}

func adminOf(a testenv.Actor, org string) *viewer.Viewer {
	admin := viewer.RoleAdmin
	return viewer.NewUser(a.UserID, a.Email, map[string]*viewer.Role{org: &admin})
}

// newSpace creates a space through the API and returns its row.
func newSpace(t *testing.T, e *testenv.Env, a testenv.Actor, org, title string) *ent.Space {
	t.Helper()
	id := e.Do(a, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": title}).Map(t)["id"].(string)
	return e.Store.Client.Space.GetX(accounts.System(context.Background()), id)
}

// spacesWithChangeRequests creates three spaces, One, Two and Three, of three change requests
// each, made by the creators in turn.
func spacesWithChangeRequests(t *testing.T, e *testenv.Env, a testenv.Actor, org string, creators ...string) []*ent.Space {
	t.Helper()
	var spaces []*ent.Space
	for _, title := range []string{"One", "Two", "Three"} {
		s := newSpace(t, e, a, org, title)
		e.ChangeRequests(s.ID, creators, 3)
		spaces = append(spaces, s)
	}
	return spaces
}

// readChangeRequestPages reads a page of each space's change requests, the spaces a level of a
// request of v, and returns the pages with the statements they sent.
func readChangeRequestPages(e *testenv.Env, v *viewer.Viewer, spaces []*ent.Space, args func(*ent.Space) page.Args) (
	ctx context.Context, pages []loader.Page[*ent.ChangeRequest], sent []string, err error) {
	ctx = request(e, v)
	loader.Level(ctx, spaces)
	var errs []error
	sent = e.StatementsSent(func() {
		pages, errs = each(spaces, func(s *ent.Space) (loader.Page[*ent.ChangeRequest], error) {
			return loader.For(ctx, e.Store.Client).ChangeRequestPage(ctx, s, loader.ChangeRequestFilter{}, args(s))
		})
	})
	return ctx, pages, sent, errors.Join(errs...)
}

// ref is an item naming an object by id (a work naming its author, a space its organization).
type ref struct{ id string }

func refID(r *ref) string { return r.id }

// each looks up every item concurrently, as sibling resolvers do, and returns the answers in the
// items' order.
func each[T, V any](items []T, look func(T) (V, error)) ([]V, []error) {
	vs, errs := make([]V, len(items)), make([]error, len(items))
	var wg sync.WaitGroup
	for i, it := range items {
		wg.Go(func() { vs[i], errs[i] = look(it) })
	}
	wg.Wait()
	return vs, errs
}

// usersOf looks up the users the refs name, in one request.
func usersOf(ctx context.Context, e *testenv.Env, refs []*ref) ([]*ent.User, []error) {
	return each(refs, func(r *ref) (*ent.User, error) { return loader.Get(ctx, e.Store.Client, loader.Users, r, refID) })
}

// checkUsers fails unless each ref was answered its user when visible, nil otherwise.
func checkUsers(t *testing.T, who string, refs []*ref, users []*ent.User, errs []error, visible map[string]bool) {
	t.Helper()
	for i, r := range refs {
		switch {
		case errs[i] != nil:
			t.Errorf("%s, user %s: %v", who, r.id, errs[i])
		case visible[r.id] && (users[i] == nil || users[i].ID != r.id):
			t.Errorf("%s, user %s: answered %v, want that user", who, r.id, users[i])
		case !visible[r.id] && users[i] != nil:
			t.Errorf("%s was answered user %s, whom they may not see", who, r.id)
		}
	}
}

func TestTheUsersOfALevelAreReadInOneStatementAndThoseHiddenAreNil(t *testing.T) {
	e := testenv.New(t)
	ada, org := e.Bootstrap("ada@example.com", "Ada's")
	bob, _ := e.Bootstrap("bob@example.com", "Bob's")
	cy := e.User("cy@example.com", org, testenv.Role(viewer.RoleRead))
	refs := []*ref{{ada.UserID}, {bob.UserID}, {cy.UserID}, {ada.UserID}, {cy.UserID}}
	ctx := request(e, adminOf(ada, org))
	loader.Level(ctx, refs)
	var users []*ent.User
	var errs []error
	if sent := e.StatementsSent(func() { users, errs = usersOf(ctx, e, refs) }); len(sent) != 1 {
		t.Errorf("%d statements, want 1: %q", len(sent), sent)
	}
	checkUsers(t, "Ada", refs, users, errs, map[string]bool{ada.UserID: true, cy.UserID: true})
}

// TestRequestsOfTwoViewersAreEachAnsweredWhatTheirViewerMaySee hands the same items to two
// requests at once: neither request's privacy decisions reach the other.
func TestRequestsOfTwoViewersAreEachAnsweredWhatTheirViewerMaySee(t *testing.T) {
	e := testenv.New(t)
	ada, adaOrg := e.Bootstrap("ada@example.com", "Ada's")
	bob, bobOrg := e.Bootstrap("bob@example.com", "Bob's")
	cy := e.User("cy@example.com", adaOrg, testenv.Role(viewer.RoleRead))
	shared := []*ref{{ada.UserID}, {bob.UserID}, {cy.UserID}}
	viewers := map[string]struct {
		v       *viewer.Viewer
		visible map[string]bool
	}{
		"Ada": {adminOf(ada, adaOrg), map[string]bool{ada.UserID: true, cy.UserID: true}},
		"Bob": {adminOf(bob, bobOrg), map[string]bool{bob.UserID: true}},
	}
	var wg sync.WaitGroup
	for who, c := range viewers {
		wg.Go(func() {
			ctx := request(e, c.v)
			loader.Level(ctx, shared)
			users, errs := usersOf(ctx, e, shared)
			checkUsers(t, who, shared, users, errs, c.visible)
		})
	}
	wg.Wait()
}

// TestEachLevelOfNestedPagesIsOneStatement reads the change requests of three spaces, then their
// creators: one statement for the pages of every space, one for the creators of every change
// request read, which the pages recorded as one level.
func TestEachLevelOfNestedPagesIsOneStatement(t *testing.T) {
	e := testenv.New(t)
	ada, org := e.Bootstrap("ada@example.com", "Ada's")
	cy := e.User("cy@example.com", org, testenv.Role(viewer.RoleRead))
	spaces := spacesWithChangeRequests(t, e, ada, org, ada.UserID, cy.UserID)
	ctx, pages, sent, err := readChangeRequestPages(e, adminOf(ada, org), spaces,
		func(*ent.Space) page.Args { return page.Args{Limit: 10} })
	if err != nil || len(sent) != 1 {
		t.Fatalf("pages: %v in %d statements, want 1", err, len(sent))
	}
	var crs []*ent.ChangeRequest
	for i, p := range pages {
		if len(p.Items) != 3 {
			t.Errorf("space %s: %d change requests, want 3", spaces[i].Title, len(p.Items))
		}
		crs = append(crs, p.Items...)
	}
	var creators []*ent.User
	var errs []error
	sent = e.StatementsSent(func() {
		creators, errs = each(crs, func(cr *ent.ChangeRequest) (*ent.User, error) {
			return loader.Get(ctx, e.Store.Client, loader.Users, cr, func(cr *ent.ChangeRequest) string { return cr.CreatedBy })
		})
	})
	if err := errors.Join(errs...); err != nil || len(sent) != 1 {
		t.Fatalf("creators: %v in %d statements, want 1", err, len(sent))
	}
	for i, u := range creators {
		if u == nil || u.ID != crs[i].CreatedBy {
			t.Errorf("change request %s: creator %v, want %s", crs[i].ID, u, crs[i].CreatedBy)
		}
	}
}

// TestPagesAskedAlikeShareAStatementAndCountOnlyWhenAsked: the pages of a level with the same
// size share one statement, a page of another size has its own, and a count is one more.
func TestPagesAskedAlikeShareAStatementAndCountOnlyWhenAsked(t *testing.T) {
	e := testenv.New(t)
	ada, org := e.Bootstrap("ada@example.com", "Ada's")
	spaces := spacesWithChangeRequests(t, e, ada, org, ada.UserID)
	for _, c := range []struct {
		name       string
		args       func(*ent.Space) page.Args
		statements int
	}{
		{"same size", func(*ent.Space) page.Args { return page.Args{Limit: 2} }, 1},
		{"same size, counted", func(*ent.Space) page.Args { return page.Args{Limit: 2, Count: true} }, 2},
		{"two sizes", func(s *ent.Space) page.Args { return page.Args{Limit: 1 + min(len(s.Title)-3, 1)} }, 2},
	} {
		_, pages, sent, err := readChangeRequestPages(e, adminOf(ada, org), spaces, c.args)
		if err != nil || len(sent) != c.statements {
			t.Errorf("%s: %v in %d statements, want %d: %q", c.name, err, len(sent), c.statements, sent)
		}
		for i, p := range pages {
			a := c.args(spaces[i])
			if len(p.Items) != a.Limit || (p.Next == nil) || (a.Count && p.Count != 3) {
				t.Errorf("%s, space %s: %d items, next %v, count %d", c.name, spaces[i].Title, len(p.Items), p.Next, p.Count)
			}
		}
	}
}

// TestACancelledRequestAnswersEveryItemItsError: the items waiting for a statement cut short are
// answered its error, not a nil value a resolver would take for "not found".
func TestACancelledRequestAnswersEveryItemItsError(t *testing.T) {
	e := testenv.New(t)
	ada, org := e.Bootstrap("ada@example.com", "Ada's")
	cy := e.User("cy@example.com", org, testenv.Role(viewer.RoleRead))
	refs := []*ref{{ada.UserID}, {cy.UserID}, {ada.UserID}}
	ctx, cancel := context.WithCancel(request(e, adminOf(ada, org)))
	defer cancel()
	loader.Level(ctx, refs)
	held := e.HoldStatement(func(q string) bool { return strings.Contains(q, "users") })
	answered := make(chan []error)
	go func() {
		users, errs := usersOf(ctx, e, refs)
		for i, u := range users {
			if u != nil {
				errs[i] = errors.Join(errs[i], errors.New("answered a user"))
			}
		}
		answered <- errs
	}()
	<-held
	cancel()
	for i, err := range <-answered {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("item %d: %v, want context.Canceled", i, err)
		}
	}
}

// TestOrganizationsAreReadOncePerRequest: an organization asked from two levels is read once in
// a request (users, kept with their level, are read for each level), and again in the next
// request.
func TestOrganizationsAreReadOncePerRequest(t *testing.T) {
	e := testenv.New(t)
	ada, org := e.Bootstrap("ada@example.com", "Ada's")
	lookUp := func(ctx context.Context, b *loader.Batch[string, *ent.Organization], levels ...[]*ref) {
		for _, level := range levels {
			loader.Level(ctx, level)
			orgs, errs := each(level, func(r *ref) (*ent.Organization, error) { return loader.Get(ctx, e.Store.Client, b, r, refID) })
			for i, o := range orgs {
				if errs[i] != nil || o == nil || o.ID != org {
					t.Fatalf("organization %s: %v, %v", org, o, errs[i])
				}
			}
		}
	}
	twoLevels := func() [][]*ref { return [][]*ref{{{org}, {org}}, {{org}, {org}}} }
	ctx := request(e, adminOf(ada, org))
	if n := e.Statements(func() { lookUp(ctx, loader.Organizations, twoLevels()...) }); n != 1 {
		t.Errorf("%d statements for one organization asked from two levels, want 1", n)
	}
	if n := e.Statements(func() { lookUp(request(e, adminOf(ada, org)), loader.Organizations, twoLevels()...) }); n != 1 {
		t.Errorf("%d statements in the next request, want 1", n)
	}
	users := e.Statements(func() {
		for _, level := range [][]*ref{{{ada.UserID}, {ada.UserID}}, {{ada.UserID}, {ada.UserID}}} {
			loader.Level(ctx, level)
			usersOf(ctx, e, level)
		}
	})
	if users != 2 {
		t.Errorf("%d statements for a user asked from two levels, want 2 (one a level)", users)
	}
}
