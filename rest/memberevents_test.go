package rest_test

import (
	"context"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/event"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// recordedEvents returns the events of a type about an object, oldest first.
func recordedEvents(t *testing.T, e *testenv.Env, typ, objectID string) []*ent.Event {
	t.Helper()
	evs, err := e.Store.Client.Event.Query().Where(event.Type(typ), event.ObjectID(objectID)).
		Order(event.ByCreatedAt()).All(accounts.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestSSOJoinRecordsMemberAdded signs a new person in through a SAML provider: the membership
// made for them on the way (just in time) records member.added, with them as its actor; signing
// in again records nothing more.
func TestSSOJoinRecordsMemberAdded(t *testing.T) {
	f := newSSOFixture(t)
	start := f.provider["service"].(map[string]any)["startURL"].(string)
	f.idp.SignIn("bea@example.com", "Bea Hart")
	for range 2 {
		f.browser(t).signIn(start, "", f.e.Server.URL+"/")
	}
	var members struct{ Items []struct{ ID string } }
	f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/members?limit=10", nil).JSON(t, &members)
	var bea string
	for _, m := range members.Items {
		if m.ID != f.admin.UserID {
			bea = m.ID
		}
	}
	evs := recordedEvents(t, f.e, "member.added", bea)
	if len(evs) != 1 {
		t.Fatalf("member.added events of the new member: %d, want 1", len(evs))
	}
	ev := evs[0]
	if ev.OrganizationID != f.org || ev.ObjectKind != "member" || ev.ActorID != bea ||
		ev.Details["role"] != "edit" || ev.Details["provider"] != f.providerID {
		t.Fatalf("member.added: %+v", ev)
	}
}
