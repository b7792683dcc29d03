package rest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/auditevent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/sweep"
	"github.com/binderyhq/bindery/internal/testkit/ssotest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/rest"
)

type auditItem struct {
	ID         string
	Action     string
	OccurredAt time.Time
	Actor      struct{ Type, ID, Label string }
	Source     string
	Target     struct{ Type, ID, Label string }
	Payload    map[string]any
}

type auditList struct {
	Items []auditItem
	Next  *struct{ Page string }
	Count int
}

// auditEvents reads a page of the organization's audit log as the actor (every answer is
// validated against the reference's AuditEvent schemas by Do).
func auditEvents(t *testing.T, e *testenv.Env, a testenv.Actor, org, query string) auditList {
	t.Helper()
	var l auditList
	r := e.Do(a, "GET", "/v1/orgs/"+org+"/audit-events"+query, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("audit events%s: %d %s", query, r.Status, r.Body)
	}
	r.JSON(t, &l)
	return l
}

// auditCount counts the organization's audit events of an action, read by the system.
func auditCount(t *testing.T, e *testenv.Env, org, action string) int {
	t.Helper()
	n, err := e.Store.Client.AuditEvent.Query().Where(auditevent.OrganizationID(org), auditevent.Action(action)).
		Count(accounts.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// auditWant checks that an action succeeded and returns its answer's object (nil for none).
func auditWant(t *testing.T, r testenv.Response) map[string]any {
	t.Helper()
	if r.Status >= 300 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	if len(r.Body) == 0 {
		return nil
	}
	return r.Map(t)
}

// TestAuditLogRecordsEachAction makes each administrative action through the API and finds its
// audit event, with the admin as actor and no secret in it; refused actions record none.
func TestAuditLogRecordsEachAction(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("admin@example.com", "Acme")
	ed := e.User("ed@example.com", org, testenv.Role(viewer.RoleEdit))
	o := "/v1/orgs/" + org

	auditWant(t, e.Do(admin, "PATCH", o+"/members/"+ed.UserID, map[string]any{"role": "review"}))
	team := auditWant(t, e.Do(admin, "PUT", o+"/teams", map[string]any{"title": "Writers", "members": []string{ed.UserID}}))["id"].(string)
	space := auditWant(t, e.Do(admin, "POST", o+"/spaces", map[string]any{"title": "Guide"}))["id"].(string)
	auditWant(t, e.Do(admin, "POST", "/v1/spaces/"+space+"/permissions", map[string]any{"role": "edit", "users": []string{ed.UserID}}))
	auditWant(t, e.Do(admin, "PATCH", "/v1/spaces/"+space+"/permissions/users/"+ed.UserID, map[string]any{"role": "read"}))
	auditWant(t, e.Do(admin, "DELETE", "/v1/spaces/"+space+"/permissions/users/"+ed.UserID, nil))
	auditWant(t, e.Do(admin, "PATCH", "/v1/spaces/"+space, map[string]any{"visibility": "public"}))
	auditWant(t, e.Do(admin, "POST", "/v1/spaces/"+space+"/duplicate", nil))                    // a public space made: audited
	auditWant(t, e.Do(admin, "PATCH", "/v1/spaces/"+space, map[string]any{"title": "Guide 2"})) // not audited
	auditWant(t, e.Do(admin, "PATCH", o, map[string]any{"mergeRules": map[string]any{"type": "none"}}))
	site := auditWant(t, e.Do(admin, "POST", o+"/sites", map[string]any{"title": "Docs"}))["id"].(string)
	link := auditWant(t, e.Do(admin, "POST", o+"/sites/"+site+"/share-links", map[string]any{"name": "Board"}))
	auditWant(t, e.Do(admin, "DELETE", o+"/sites/"+site+"/share-links/"+link["id"].(string), nil))
	hook := auditWant(t, e.Do(admin, "POST", o+"/webhooks", map[string]any{"url": "https://hooks.example.com/in"}))
	auditWant(t, e.Do(admin, "POST", o+"/webhooks/"+hook["id"].(string)+"/rotate-secret", nil))
	auditWant(t, e.Do(admin, "DELETE", o+"/webhooks/"+hook["id"].(string), nil))
	token := auditWant(t, e.Do(admin, "POST", "/v1/user/tokens", map[string]any{"label": "CI"}))
	auditWant(t, e.Do(admin, "DELETE", "/v1/user/tokens/"+token["id"].(string), nil))
	scimToken := auditWant(t, e.Do(admin, "POST", o+"/scim-tokens", nil))
	auditWant(t, e.Do(admin, "DELETE", o+"/scim-tokens/"+scimToken["id"].(string), nil))
	auditWant(t, e.Do(admin, "DELETE", o+"/teams/"+team, nil))
	auditWant(t, e.Do(admin, "DELETE", o+"/members/"+ed.UserID, nil))

	// Refused: nothing recorded.
	e.Do(admin, "POST", o+"/webhooks", map[string]any{"url": "not a url"})
	e.Do(admin, "PATCH", o+"/members/"+admin.UserID, map[string]any{"role": "read"}) // the last admin
	e.Do(admin, "POST", "/v1/spaces/"+space+"/permissions", map[string]any{"role": "edit", "users": []string{"nobody"}})

	all := auditEvents(t, e, admin, org, "?limit=100")
	got := map[string]int{}
	for _, it := range all.Items {
		got[it.Action]++
		if it.Actor.Type != "user" || it.Actor.ID != admin.UserID {
			t.Errorf("%s: actor %+v, want the admin", it.Action, it.Actor)
		}
		for k := range it.Payload {
			if slices.Contains([]string{"secret", "key", "token", "sealed_secret", "key_hash"}, k) {
				t.Errorf("%s: payload holds %q", it.Action, k)
			}
		}
	}
	wantCounts := map[string]int{
		audit.MemberRoleChanged: 1, audit.MemberRemoved: 1, audit.TeamCreated: 1, audit.TeamDeleted: 1,
		audit.GrantCreated: 1, audit.GrantUpdated: 1, audit.GrantRemoved: 1, audit.SpaceSettingsChanged: 2,
		audit.OrganizationSettingsChanged: 1, audit.ShareLinkCreated: 1, audit.ShareLinkDeleted: 1,
		audit.WebhookCreated: 1, audit.WebhookSecretRotated: 1, audit.WebhookDeleted: 1,
		audit.APITokenCreated: 1, audit.APITokenRevoked: 1, audit.SCIMTokenCreated: 1, audit.SCIMTokenRevoked: 1,
	}
	for action, n := range wantCounts {
		if got[action] != n {
			t.Errorf("%s: %d audit events, want %d (all: %v)", action, got[action], n, got)
		}
	}
	if len(all.Items) != all.Count || all.Count != len(all.Items) {
		t.Errorf("count %d, items %d", all.Count, len(all.Items))
	}
	for i := 1; i < len(all.Items); i++ {
		if all.Items[i].OccurredAt.After(all.Items[i-1].OccurredAt) {
			t.Fatalf("not newest first at %d", i)
		}
	}
	if n := auditCount(t, e, org, audit.WebhookCreated); n != 1 {
		t.Errorf("webhook.created rows: %d after a refused create, want 1", n)
	}
}

// TestAuditLogReads pages and filters the log, reads one event and the actions, and refuses
// non-admins (403) and other organizations (404), on REST and GraphQL.
func TestAuditLogReads(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("admin@example.com", "Acme")
	ed := e.User("ed@example.com", org, testenv.Role(viewer.RoleEdit))
	outsider, other := e.Bootstrap("out@example.com", "Other")
	o := "/v1/orgs/" + org
	var teams []string
	for _, title := range []string{"A", "B", "C", "D", "E"} {
		teams = append(teams, auditWant(t, e.Do(admin, "PUT", o+"/teams", map[string]any{"title": title}))["id"].(string))
	}
	auditWant(t, e.Do(admin, "PATCH", o+"/members/"+ed.UserID, map[string]any{"role": "review"}))

	// Paging: 2 by 2, newest first, every event once.
	var seen []string
	page := auditEvents(t, e, admin, org, "?limit=2")
	for {
		for _, it := range page.Items {
			seen = append(seen, it.ID)
		}
		if page.Next == nil {
			break
		}
		page = auditEvents(t, e, admin, org, "?limit=2&page="+url.QueryEscape(page.Next.Page))
	}
	if len(seen) != 6 || len(slices.Compact(slices.Sorted(slices.Values(seen)))) != 6 {
		t.Fatalf("paged: %v, want 6 distinct events", seen)
	}

	byAction := auditEvents(t, e, admin, org, "?action=team.created")
	if len(byAction.Items) != 5 || byAction.Items[0].Target.ID != teams[4] || byAction.Items[0].Target.Label != "E" {
		t.Fatalf("action filter: %+v", byAction.Items)
	}
	if l := auditEvents(t, e, admin, org, "?target="+ed.UserID); len(l.Items) != 1 || l.Items[0].Action != audit.MemberRoleChanged ||
		l.Items[0].Payload["to"] != "review" {
		t.Fatalf("target filter: %+v", l.Items)
	}
	if l := auditEvents(t, e, admin, org, "?actor="+ed.UserID); len(l.Items) != 0 {
		t.Fatalf("actor filter (ed did nothing): %+v", l.Items)
	}
	if l := auditEvents(t, e, admin, org, "?actor="+admin.UserID); len(l.Items) != 6 {
		t.Fatalf("actor filter: %d items", len(l.Items))
	}
	last := byAction.Items[0].OccurredAt
	from := url.QueryEscape(last.Format(time.RFC3339Nano))
	if l := auditEvents(t, e, admin, org, "?from="+from); len(l.Items) != 2 { // team E, then the role change
		t.Fatalf("from filter: %+v", l.Items)
	}
	if l := auditEvents(t, e, admin, org, "?to="+url.QueryEscape(last.Add(-time.Microsecond).Format(time.RFC3339Nano))); len(l.Items) != 4 {
		t.Fatalf("to filter: %d items", len(l.Items))
	}
	for _, bad := range []string{"?limit=101", "?from=yesterday", "?action=nope", "?from=" + from + "&to=2000-01-01T00:00:00Z"} {
		testenv.CheckError(t, e.Do(admin, "GET", o+"/audit-events"+bad, nil), http.StatusBadRequest)
	}

	one := byAction.Items[0]
	var got auditItem
	e.Do(admin, "GET", o+"/audit-events/"+one.ID, nil).JSON(t, &got)
	if got.ID != one.ID || got.Action != one.Action {
		t.Fatalf("get: %+v", got)
	}
	testenv.CheckError(t, e.Do(admin, "GET", o+"/audit-events/nope", nil), http.StatusNotFound)
	testenv.CheckError(t, e.Do(outsider, "GET", "/v1/orgs/"+other+"/audit-events/"+one.ID, nil), http.StatusNotFound)

	var actions struct{ Items []struct{ ID, Label string } }
	e.Do(admin, "GET", o+"/audit-event-actions", nil).JSON(t, &actions)
	if len(actions.Items) != len(audit.Actions) {
		t.Fatalf("actions: %d, want %d", len(actions.Items), len(audit.Actions))
	}

	for _, path := range []string{"/audit-events", "/audit-events/" + one.ID, "/audit-event-actions"} {
		testenv.CheckError(t, e.Do(ed, "GET", o+path, nil), http.StatusForbidden)
		testenv.CheckError(t, e.Do(outsider, "GET", o+path, nil), http.StatusNotFound)
	}
	if l := auditEvents(t, e, outsider, other, ""); len(l.Items) != 0 {
		t.Fatalf("another organization's log: %+v", l.Items)
	}

	g := e.GraphQL(admin, `query($o: ID!) { organization(id: $o) { auditEvents(first: 2, action: "team.created") {
		totalCount edges { node { id action actor { type id } source target { type id label } occurredAt payload } } } } }`,
		map[string]any{"o": org})
	var d struct {
		Organization struct {
			AuditEvents struct {
				TotalCount int
				Edges      []struct{ Node auditItem }
			}
		}
	}
	if err := json.Unmarshal(g.Data, &d); err != nil || len(g.Errors) > 0 {
		t.Fatalf("GraphQL: %v %v", err, g.Errors)
	}
	if ev := d.Organization.AuditEvents; ev.TotalCount != 5 || len(ev.Edges) != 2 || ev.Edges[0].Node.ID != one.ID {
		t.Fatalf("GraphQL: %+v", ev)
	}
	g = e.GraphQL(ed, `query($o: ID!) { organization(id: $o) { auditEvents { totalCount } } }`, map[string]any{"o": org})
	if g.Code() != "FORBIDDEN" {
		t.Fatalf("GraphQL as an editor: %s", g.Code())
	}
}

// TestAuditRollsBackWithItsAction records an entry in a write that then fails: neither is kept.
func TestAuditRollsBackWithItsAction(t *testing.T) {
	e := testenv.New(t)
	_, org := e.Bootstrap("admin@example.com", "Acme")
	ctx := accounts.System(context.Background())
	failed := errors.New("the action failed")
	err := audit.Write(ctx, e.Store.Client, func(tx *ent.Tx) (audit.Entry, error) {
		if _, err := tx.Team.Create().SetOrganizationID(org).SetTitle("Gone").Save(ctx); err != nil {
			return audit.Entry{}, err
		}
		if err := audit.Record(ctx, tx.Client(), audit.Entry{Organization: org, Action: audit.TeamCreated, TargetType: "team", TargetID: "x"}); err != nil {
			return audit.Entry{}, err
		}
		return audit.Entry{}, failed
	})
	if !errors.Is(err, failed) {
		t.Fatal(err)
	}
	if n := auditCount(t, e, org, audit.TeamCreated); n != 0 {
		t.Fatalf("%d audit events kept from a rolled-back action", n)
	}
}

// TestAuditRetention purges the events older than the retention given, and none with 0.
func TestAuditRetention(t *testing.T) {
	clk := testenv.NewClock(time.Now())
	e := testenv.New(t)
	admin, org := e.Bootstrap("admin@example.com", "Acme")
	auditWant(t, e.Do(admin, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "A"}))
	clk.Add(40 * 24 * time.Hour)
	if _, err := sweep.Handler(e.Store.Client, clk.Now, sweep.Retentions{})(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if n := auditCount(t, e, org, audit.TeamCreated); n != 1 {
		t.Fatalf("retention 0 kept %d, want 1", n)
	}
	if _, err := sweep.Handler(e.Store.Client, clk.Now, sweep.Retentions{Audit: 30 * 24 * time.Hour})(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if n := auditCount(t, e, org, audit.TeamCreated); n != 0 {
		t.Fatalf("retention 30 days kept %d after 40 days, want 0", n)
	}
}

// TestAuditLogSourcesAndActors finds each action's entry point and its actor: a bearer token is
// the API, a browser session on GraphQL the UI, each by the user labelled with their display
// name; a SCIM provider's request is an integration, by the SCIM token (actor type integration,
// its id, labelled with its issuer), which the log filters by (decisions 521, 547). Every answer
// is validated against the reference's AuditEvent schemas.
func TestAuditLogSourcesAndActors(t *testing.T) {
	s := newSCIMSetup(t)
	e, org := s.e, s.org
	auditWant(t, e.Do(s.admin, "PATCH", "/v1/orgs/"+org+"/members/"+s.editor.UserID, map[string]any{"role": "review"}))

	secret, err := accounts.CreateSession(context.Background(), e.Store.Client.Session,
		accounts.NewSession{UserID: s.admin.UserID, OrganizationID: org, ProviderID: "test", ExpiresAt: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest("POST", e.Server.URL+"/graphql", strings.NewReader(
		`{"query":"mutation($o: ID!) { createTeam(organizationId: $o, input: {title: \"Writers\"}) { id } }","variables":{"o":"`+org+`"}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", e.Server.URL)
	req.AddCookie(&http.Cookie{Name: rest.SessionCookie, Value: secret})
	if r := e.Send(req); r.Status != http.StatusOK || strings.Contains(string(r.Body), `"errors"`) {
		t.Fatalf("createTeam with a session: %d %s", r.Status, r.Body)
	}
	s.idp.want(http.StatusCreated, "POST", "/Users", `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],
		"userName":"sam@example.com","name":{"givenName":"Sam","familyName":"Lee"},"emails":[{"value":"sam@example.com","primary":true}]}`)

	user := func(label string) actor { return actor{"user", s.admin.UserID, label} }
	want := map[string]struct {
		source string
		actor  actor
	}{
		audit.MemberRoleChanged: {"api", user("ada")}, audit.TeamCreated: {"ui", user("ada")},
		audit.MemberAdded: {"integration", actor{"integration", s.tokenID, "SCIM token issued by ada"}},
	}
	for _, it := range auditEvents(t, e, s.admin, org, "").Items {
		w, ok := want[it.Action]
		if !ok {
			continue
		}
		delete(want, it.Action)
		if it.Source != w.source || actor(it.Actor) != w.actor {
			t.Errorf("%s: source %q actor %+v, want %s by %+v", it.Action, it.Source, it.Actor, w.source, w.actor)
		}
	}
	if len(want) > 0 {
		t.Errorf("not recorded: %v", want)
	}
	if l := auditEvents(t, e, s.admin, org, "?actor="+s.tokenID); len(l.Items) != 1 || l.Items[0].Action != audit.MemberAdded {
		t.Errorf("the SCIM token's actions: %+v", l.Items)
	}
}

type actor struct{ Type, ID, Label string }

// TestAuditLogOfJobs: an action the server's background work takes is recorded by the system
// with source workflow: the delivery job turning off a webhook whose deliveries have failed for
// three days (decision 548).
func TestAuditLogOfJobs(t *testing.T) {
	rc := newReceiver(t, "127.0.0.2")
	rc.answer(http.StatusInternalServerError)
	e := testenv.New(t, allowFetch(t, "127.0.0.2"))
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	hook := e.Do(admin, "POST", "/v1/orgs/"+org+"/webhooks", map[string]any{"url": rc.url}).Map(t)["id"].(string)
	failing := time.Now().Add(-4 * 24 * time.Hour) // its deliveries have failed for four days
	if err := e.Store.Client.Webhook.UpdateOneID(hook).SetFailingSince(failing).Exec(accounts.System(context.Background())); err != nil {
		t.Fatal(err)
	}
	auditWant(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Guides"}))
	deliverEvents(t, e)

	got := e.Do(admin, "GET", "/v1/orgs/"+org+"/webhooks/"+hook, nil).Map(t)
	reason, _ := got["disabledReason"].(string)
	if got["active"] != false || !strings.Contains(reason, "failed for three days") {
		t.Fatalf("the webhook after a failed delivery: %v", got)
	}
	l := auditEvents(t, e, admin, org, "?action="+audit.WebhookUpdated)
	if len(l.Items) != 1 {
		t.Fatalf("webhook.updated entries: %+v", l.Items)
	}
	it := l.Items[0]
	if it.Source != "workflow" || actor(it.Actor) != (actor{"system", "system", "Bindery"}) || it.Target.Type != "webhook" ||
		it.Target.ID != hook || it.Payload["active"] != false || it.Payload["disabledReason"] != reason {
		t.Fatalf("the job's entry: %+v", it)
	}
}

// TestAuditLogRecordsSettingsAndPublishing makes the administrative actions
// TestAuditLogRecordsEachAction does not: a team renamed, a collection's merge rules, a site's
// hostname (set and cleared) and visibility, the organization's default role and a space's
// default level (decision 558), a site published and unpublished, a share link changed, a SAML
// provider set up, and a merge that bypassed the merge rules; each is in the log once, by the
// admin, naming its target, and a change that governs nothing (a site's title) is not.
func TestAuditLogRecordsSettingsAndPublishing(t *testing.T) {
	f := newReviewFixture(t)
	e, admin, org := f.e, f.admin, f.org
	o := "/v1/orgs/" + org

	team := auditWant(t, e.Do(admin, "PUT", o+"/teams", map[string]any{"title": "Writers"}))["id"].(string)
	auditWant(t, e.Do(admin, "PATCH", o+"/teams/"+team, map[string]any{"title": "Editors"}))
	col := auditWant(t, e.Do(admin, "POST", o+"/collections", map[string]any{"title": "Guides"}))["id"].(string)
	auditWant(t, e.Do(admin, "PATCH", "/v1/collections/"+col, map[string]any{"mergeRules": map[string]any{"type": "none"}}))
	site := auditWant(t, e.Do(admin, "POST", o+"/sites", map[string]any{"title": "Docs", "spaces": []string{f.space}}))["id"].(string)
	st := o + "/sites/" + site
	auditWant(t, e.Do(admin, "PATCH", st, map[string]any{"hostname": "docs.acme.test"}))
	auditWant(t, e.Do(admin, "PATCH", st, map[string]any{"visibility": "unlisted"}))
	auditWant(t, e.Do(admin, "PATCH", st, map[string]any{"title": "Docs 2"})) // not audited
	auditWant(t, e.Do(admin, "PATCH", st, map[string]any{"hostname": nil}))   // a cleared hostname is a change of it
	auditWant(t, e.Do(admin, "PATCH", o, map[string]any{"defaultRole": "read"}))
	other := auditWant(t, e.Do(admin, "POST", o+"/spaces", map[string]any{"title": "Notes"}))["id"].(string)
	auditWant(t, e.Do(admin, "PATCH", "/v1/spaces/"+other, map[string]any{"defaultLevel": "comment"}))
	auditWant(t, e.Do(admin, "POST", st+"/publish", nil))
	auditWant(t, e.Do(admin, "POST", st+"/unpublish", nil))
	link := auditWant(t, e.Do(admin, "POST", st+"/share-links", map[string]any{"name": "Board"}))["id"].(string)
	auditWant(t, e.Do(admin, "PATCH", st+"/share-links/"+link, map[string]any{"active": false}))
	cert := ssotest.NewKeyPair(t, time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	saml := auditWant(t, e.Do(admin, "POST", o+"/saml", map[string]any{"label": "Okta", "entityID": "https://idp.example.com/entity",
		"ssoURL": "https://idp.example.com/sso", "certificate": cert.CertPEM}))["id"].(string)
	crWant(t, f.setRules(t, rules(rl("require_change_request_subject"), rl("allow_bypass", admin.UserID))), http.StatusOK)
	cr := f.openCR(t, "")
	crWantError(t, f.merge(t, f.rev1, cr), http.StatusConflict, "require_change_request_subject") // refused: not recorded
	crWant(t, f.merge(t, admin, cr), http.StatusOK)

	type want struct {
		targetType, target, field string // field: one the payload's fields must hold ("" for none)
	}
	wants := map[string]want{
		audit.TeamUpdated:                 {"team", team, ""},
		audit.CollectionSettingsChanged:   {"collection", col, "merge_rules"},
		audit.SitePublished:               {"site", site, ""},
		audit.SiteUnpublished:             {"site", site, ""},
		audit.ShareLinkUpdated:            {"share-link", link, ""},
		audit.SSOConfigurationChanged:     {"saml-provider", saml, ""},
		audit.MergeRulesBypassed:          {"change-request", cr, ""},
		audit.OrganizationSettingsChanged: {"organization", org, "default_role"},
	}
	all := auditEvents(t, e, admin, org, "?limit=100").Items
	seen := map[string]int{}
	var siteFields, spaceFields [][]any
	for _, it := range all {
		seen[it.Action]++
		if it.Actor.Type != "user" || it.Actor.ID != admin.UserID {
			t.Errorf("%s: actor %+v, want the admin", it.Action, it.Actor)
		}
		if it.Action == audit.SpaceSettingsChanged { // merge rules (setRules), then the default level
			fields, _ := it.Payload["fields"].([]any)
			spaceFields = append(spaceFields, fields)
			continue
		}
		if it.Action == audit.SiteSettingsChanged {
			fields, _ := it.Payload["fields"].([]any)
			siteFields = append(siteFields, fields)
			continue
		}
		w, ok := wants[it.Action]
		if !ok {
			continue
		}
		if it.Target.Type != w.targetType || it.Target.ID != w.target {
			t.Errorf("%s: target %+v, want %s %s", it.Action, it.Target, w.targetType, w.target)
		}
		if fields, _ := it.Payload["fields"].([]any); w.field != "" && !slices.Contains(fields, any(w.field)) {
			t.Errorf("%s: payload %v names no %s", it.Action, it.Payload, w.field)
		}
		if it.Action == audit.MergeRulesBypassed {
			if rs, _ := it.Payload["rules"].([]any); !slices.Contains(rs, any("require_change_request_subject")) || it.Payload["by"] != admin.UserID {
				t.Errorf("the bypass's payload: %v", it.Payload)
			}
		}
	}
	for action := range wants {
		if seen[action] != 1 {
			t.Errorf("%s: %d audit events, want 1 (all: %v)", action, seen[action], seen)
		}
	}
	// Newest first: the hostname cleared, the visibility, the hostname set; not the title.
	if len(siteFields) != 3 || !slices.Contains(siteFields[0], any("hostname")) || !slices.Contains(siteFields[1], any("visibility")) ||
		!slices.Contains(siteFields[2], any("hostname")) {
		t.Errorf("site.settings_changed fields: %v", siteFields)
	}
	if len(spaceFields) != 2 || !slices.Contains(spaceFields[0], any("merge_rules")) || !slices.Contains(spaceFields[1], any("default_level")) {
		t.Errorf("space.settings_changed fields: %v", spaceFields)
	}
}

// TestAuditLogRecordsEditMode records a change of a space's edit mode, on both surfaces, once per
// update, and nothing for an update that is refused.
func TestAuditLogRecordsEditMode(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("admin@example.com", "Acme")
	sp := createSpace(t, e, admin, org, map[string]any{"title": "Docs"})["id"].(string)
	editModes := func(t *testing.T) []auditItem {
		t.Helper()
		return auditEvents(t, e, admin, org, "?action="+audit.SpaceSettingsChanged+"&target="+sp).Items
	}

	t.Run("OK", func(t *testing.T) {
		auditWant(t, e.Do(admin, "PATCH", "/v1/spaces/"+sp, map[string]any{"editMode": "locked", "title": "Docs, locked"}))
		items := editModes(t)
		if len(items) != 1 {
			t.Fatalf("%d space.settings_changed events, want 1", len(items))
		}
		it := items[0]
		if fields, _ := it.Payload["fields"].([]any); !slices.Contains(fields, any("edit_mode")) || it.Actor.ID != admin.UserID ||
			it.Target.Type != "space" {
			t.Errorf("event %+v", it)
		}
		g := e.GraphQL(admin, `mutation($s: ID!) { updateSpace(id: $s, input: {editMode: LIVE}) { editMode } }`, map[string]any{"s": sp})
		if len(g.Errors) > 0 {
			t.Fatal(g.Errors)
		}
		if n := len(editModes(t)); n != 2 {
			t.Errorf("%d space.settings_changed events after GraphQL's change, want 2", n)
		}
	})
	t.Run("ErrRefusedUpdateRecordsNothing", func(t *testing.T) {
		before := auditCount(t, e, org, audit.SpaceSettingsChanged)
		crWantError(t, e.Do(admin, "PATCH", "/v1/spaces/"+sp, map[string]any{"editMode": "locked", "visibility": "in-collection"}),
			http.StatusBadRequest, "visibility")
		if n := auditCount(t, e, org, audit.SpaceSettingsChanged); n != before {
			t.Errorf("a refused update recorded %d events", n-before)
		}
		if got := e.Do(admin, "GET", "/v1/spaces/"+sp, nil).Map(t)["editMode"]; got != "live" {
			t.Errorf("editMode after a refused update = %v", got)
		}
	})
}
