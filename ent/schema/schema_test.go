package schema_test

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/mattn/go-sqlite3"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/enttest"
	"github.com/binderyhq/bindery/ent/revision"
	_ "github.com/binderyhq/bindery/ent/runtime"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestSchema migrates the whole data model on SQLite and, when BINDERY_TEST_DB names a
// PostgreSQL database, on PostgreSQL too, then writes one row of most entities and checks the
// constraints the schema promises (uniqueness, one subject and one target, cascades) and the
// deny-by-default policies.
func TestSchema(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) {
		dsn := "file:" + id.New() + "?mode=memory&cache=shared&_fk=1"
		client := enttest.Open(t, dialect.SQLite, dsn)
		defer client.Close()
		exercise(t, client)
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		if os.Getenv("BINDERY_TEST_DB") == "" {
			t.Skip("BINDERY_TEST_DB is not set")
		}
		client := openPostgres(t)
		defer client.Close()
		exercise(t, client)
	})
}

// openPostgres returns a migrated client on a fresh PostgreSQL schema (dropped when the test ends).
func openPostgres(t *testing.T) *ent.Client {
	t.Helper()
	db, err := sql.Open("pgx", testenv.PostgresDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	return enttest.NewClient(t, enttest.WithOptions(ent.Driver(entsql.OpenDB(dialect.Postgres, db))))
}

func exercise(t *testing.T, client *ent.Client) {
	sys := viewer.NewContext(context.Background(), viewer.System())
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	org := client.Organization.Create().SetTitle("Acme").SaveX(sys)
	other := client.Organization.Create().SetTitle("Other").SaveX(sys)
	alice := client.User.Create().SetDisplayName("Alice").SetEmail("alice@example.com").SaveX(sys)
	team := client.Team.Create().SetTitle("Writers").SetOrganizationID(org.ID).SaveX(sys)

	coll := client.Collection.Create().SetTitle("Guides").SetOrganizationID(org.ID).SetPosition("a0").
		SetDefaultLevel("inherit").SaveX(sys)
	sub := client.Collection.Create().SetTitle("Sub").SetOrganizationID(org.ID).SetParentID(coll.ID).SetDefaultLevel("inherit").SaveX(sys)
	// Members get the organization role on the space through its collections (inherit all the way).
	sp := client.Space.Create().SetTitle("Handbook").SetOrganizationID(org.ID).SetParentID(sub.ID).
		SetDefaultLevel("inherit").SaveX(sys)

	tree := client.ContentObject.Create().SetID("sha256:" + strings.Repeat("ab", 32)).
		SetKind("tree").SetData([]byte("{}")).SetSize(2).SaveX(sys)
	rev := client.Revision.Create().SetOrganizationID(org.ID).SetSpaceID(sp.ID).SetType(revision.TypeInitial).
		SetRootTree(tree.ID).SetCreatedBy(alice.ID).SaveX(sys)
	sp = sp.Update().SetRevisionID(rev.ID).SaveX(sys)
	client.FileBlob.Create().SetID("sha256:" + strings.Repeat("cd", 32)).SetSize(10).SaveX(sys)

	cr := client.ChangeRequest.Create().SetOrganizationID(org.ID).SetSpaceID(sp.ID).SetNumber(1).
		SetCreatedBy(alice.ID).SetRevisionID(rev.ID).SetRevisionInitialID(rev.ID).SaveX(sys)
	crRev := client.Revision.Create().SetOrganizationID(org.ID).SetSpaceID(sp.ID).SetType(revision.TypeEdits).
		SetParents([]string{rev.ID}).SetRootTree(tree.ID).SetChangeRequestID(cr.ID).SaveX(sys)
	cr.Update().SetRevisionID(crRev.ID).ExecX(sys)
	if err := client.ChangeRequest.Create().SetOrganizationID(org.ID).SetSpaceID(sp.ID).SetNumber(1).
		SetCreatedBy(alice.ID).SetRevisionID(rev.ID).SetRevisionInitialID(rev.ID).Exec(sys); !ent.IsConstraintError(err) {
		t.Errorf("a second change request numbered 1 in the space: got %v, want a constraint error", err)
	}

	com := client.Comment.Create().SetOrganizationID(org.ID).SetSpaceID(sp.ID).SetChangeRequestID(cr.ID).
		SetRevisionID(crRev.ID).SetPostedBy(alice.ID).SetBodyMarkdown("Nice").SaveX(sys)
	reply := client.CommentReply.Create().SetOrganizationID(org.ID).SetCommentID(com.ID).SetSpaceID(sp.ID).
		SetPostedBy(alice.ID).SetBodyMarkdown("Thanks").SaveX(sys)
	client.Reaction.Create().SetOrganizationID(org.ID).SetTargetCommentID(com.ID).SetSpaceID(sp.ID).
		SetUserID(alice.ID).SetEmoji("👍").ExecX(sys)
	client.Reaction.Create().SetOrganizationID(org.ID).SetTargetReplyID(reply.ID).SetSpaceID(sp.ID).
		SetUserID(alice.ID).SetEmoji("👍").ExecX(sys)
	if err := client.Reaction.Create().SetOrganizationID(org.ID).SetTargetCommentID(com.ID).SetSpaceID(sp.ID).
		SetUserID(alice.ID).SetEmoji("👍").Exec(sys); !ent.IsConstraintError(err) {
		t.Errorf("the same reaction twice: got %v, want a constraint error", err)
	}
	if err := client.Reaction.Create().SetOrganizationID(org.ID).SetTargetCommentID(com.ID).
		SetTargetReplyID(reply.ID).SetSpaceID(sp.ID).SetUserID(alice.ID).SetEmoji("🎉").Exec(sys); !ent.IsConstraintError(err) {
		t.Errorf("a reaction with two targets: got %v, want a constraint error", err)
	}

	client.PermissionGrant.Create().SetOrganizationID(org.ID).SetSpaceID(sp.ID).SetUserID(alice.ID).
		SetRole(viewer.RoleEdit).ExecX(sys)
	client.PermissionGrant.Create().SetOrganizationID(org.ID).SetCollectionID(coll.ID).SetTeamID(team.ID).
		SetRole(viewer.RoleRead).ExecX(sys)
	if err := client.PermissionGrant.Create().SetOrganizationID(org.ID).SetSpaceID(sp.ID).SetUserID(alice.ID).
		SetRole(viewer.RoleRead).Exec(sys); !ent.IsConstraintError(err) {
		t.Errorf("a second grant to the same user on the same space: got %v, want a constraint error", err)
	}
	for name, c := range map[string]*ent.PermissionGrantCreate{
		"no subject": client.PermissionGrant.Create().SetOrganizationID(org.ID).SetSpaceID(sp.ID),
		"two subjects": client.PermissionGrant.Create().SetOrganizationID(org.ID).SetSpaceID(sp.ID).
			SetUserID(alice.ID).SetTeamID(team.ID),
		"two targets": client.PermissionGrant.Create().SetOrganizationID(org.ID).SetSpaceID(sp.ID).
			SetCollectionID(coll.ID).SetUserID(alice.ID),
	} {
		if err := c.SetRole(viewer.RoleRead).Exec(sys); !ent.IsConstraintError(err) {
			t.Errorf("a grant with %s: got %v, want a constraint error", name, err)
		}
	}

	field := client.CustomField.Create().SetOrganizationID(org.ID).SetName("team-owner").SetType("select").
		SetOptions([]string{"a", "b"}).SaveX(sys)
	client.CustomFieldValue.Create().SetOrganizationID(org.ID).SetSpaceID(sp.ID).SetCustomFieldID(field.ID).
		SetValue([]byte(`"a"`)).ExecX(sys)
	if err := client.CustomField.Create().SetOrganizationID(org.ID).SetName("Bad Name").SetType("text").Exec(sys); err == nil {
		t.Error("a custom field named against its pattern was stored")
	}

	site := client.Site.Create().SetOrganizationID(org.ID).SetTitle("Docs").
		SetAdaptiveSchema(map[string]any{"type": "object"}).SaveX(sys)
	group := client.SiteSectionGroup.Create().SetOrganizationID(org.ID).SetSiteID(site.ID).SetTitle("G").SaveX(sys)
	section := client.SiteSection.Create().SetOrganizationID(org.ID).SetSiteID(site.ID).SetTitle("Guides").
		SetPath("guides").SetSectionGroupID(group.ID).SaveX(sys)
	handbook := client.SiteSpace.Create().SetOrganizationID(org.ID).SetSiteID(site.ID).SetSpaceID(sp.ID).
		SetSectionID(section.ID).SetPath("handbook").SetIsDefault(true).SaveX(sys)
	site.Update().SetDefaultSectionID(section.ID).ExecX(sys)
	client.SiteRedirect.Create().SetOrganizationID(org.ID).SetSiteID(site.ID).SetSource("/old").
		SetDestinationKind("site-space").SetDestinationSiteSpaceID(handbook.ID).ExecX(sys)
	if err := client.SiteRedirect.Create().SetOrganizationID(org.ID).SetSiteID(site.ID).SetSource("/old").
		SetDestinationKind("external").SetDestinationURL("https://example.com").Exec(sys); !ent.IsConstraintError(err) {
		t.Errorf("a second live redirect from the same source: got %v, want a constraint error", err)
	}
	client.MovedPage.Create().SetOrganizationID(org.ID).SetSpaceID(sp.ID).SetPath("guides/old").SetPageID("p1").ExecX(sys)

	client.SAMLProvider.Create().SetOrganizationID(org.ID).SetLabel("Okta").SetDefaultTeamID(team.ID).
		SetDefaultRole(viewer.RoleRead).ExecX(sys)
	spec := client.OpenAPISpec.Create().SetOrganizationID(org.ID).SetSlug("petstore").
		SetSourceURL("https://example.com/openapi.json").SaveX(sys)
	ver := client.OpenAPISpecVersion.Create().SetOrganizationID(org.ID).SetSpecID(spec.ID).
		SetURL("https://example.com/openapi.json").SetRaw([]byte(`{"openapi":"3.1.0"}`)).SetFormat("json").
		SetFilesystem([]byte(`{"openapi.json":{"openapi":"3.1.0"}}`)).SetDigest("d").SaveX(sys)
	spec.Update().SetLastVersionID(ver.ID).SetProcessingState("complete").ExecX(sys)
	if err := client.OpenAPISpec.Create().SetOrganizationID(org.ID).SetSlug("petstore").Exec(sys); !ent.IsConstraintError(err) {
		t.Errorf("a second spec with the same slug: got %v, want a constraint error", err)
	}
	client.TranslationSettings.Create().SetOrganizationID(org.ID).SetTitle("FR").SetLanguages([]string{"fr"}).ExecX(sys)

	t.Run("Policies", func(t *testing.T) {
		read := viewer.RoleRead
		withClient := ent.NewContext(context.Background(), client) // content rules read through it
		reader := viewer.NewContext(withClient,
			viewer.NewUser(alice.ID, alice.Email, map[string]*viewer.Role{org.ID: &read}))
		stranger := viewer.NewContext(withClient,
			viewer.NewUser(id.New(), "bob@example.com", map[string]*viewer.Role{other.ID: &read}))

		if n := client.Space.Query().CountX(reader); n != 1 {
			t.Errorf("a reader sees %d spaces, want 1", n)
		}
		if n := client.Space.Query().CountX(stranger); n != 0 {
			t.Errorf("a member of another organization sees %d spaces, want 0", n)
		}
		if err := client.Space.UpdateOneID(sp.ID).SetTitle("Mine").Exec(reader); err == nil {
			t.Error("a reader renamed a space")
		}
		if err := client.Site.Create().SetOrganizationID(org.ID).SetTitle("Nope").Exec(reader); err == nil {
			t.Error("a reader created a site")
		}
		if _, err := client.ContentObject.Get(stranger, tree.ID); err != nil {
			t.Errorf("a signed-in user cannot read a content object by its hash: %v", err)
		}
		if _, err := client.ContentObject.Get(context.Background(), tree.ID); err == nil {
			t.Error("a content object was read without a viewer")
		}
		if err := client.ContentObject.Create().SetID("sha256:" + strings.Repeat("ef", 32)).SetKind("page_body").
			SetData([]byte("# Hi")).SetSize(4).Exec(reader); err != nil {
			t.Errorf("a signed-in user cannot store a content object: %v", err)
		}
		if err := client.ContentObject.DeleteOneID(tree.ID).Exec(reader); err == nil {
			t.Error("a signed-in user deleted a content object")
		}
	})

	t.Run("Cascades", func(t *testing.T) {
		// Permanent removal of a space takes its revisions, change requests, comments, replies,
		// reactions, grants, custom field values, moved pages and site spaces with it, and the
		// redirects to those site spaces.
		must(client.Space.DeleteOneID(sp.ID).Exec(sys))
		for name, n := range map[string]int{
			"revisions":         client.Revision.Query().CountX(sys),
			"change requests":   client.ChangeRequest.Query().CountX(sys),
			"comments":          client.Comment.Query().CountX(sys),
			"replies":           client.CommentReply.Query().CountX(sys),
			"reactions":         client.Reaction.Query().CountX(sys),
			"values":            client.CustomFieldValue.Query().CountX(sys),
			"site spaces":       client.SiteSpace.Query().CountX(sys),
			"redirects to them": client.SiteRedirect.Query().CountX(sys),
			"moved pages":       client.MovedPage.Query().CountX(sys),
		} {
			if n != 0 {
				t.Errorf("%d %s outlived their space", n, name)
			}
		}
		if n := client.PermissionGrant.Query().CountX(sys); n != 1 {
			t.Errorf("%d grants remain, want the collection's 1", n)
		}
		if n := client.ContentObject.Query().CountX(sys); n != 2 {
			t.Errorf("%d content objects remain, want 2 (objects are collected apart)", n)
		}
		// Deleting a spec takes its versions.
		must(client.OpenAPISpec.DeleteOneID(spec.ID).Exec(sys))
		if n := client.OpenAPISpecVersion.Query().CountX(sys); n != 0 {
			t.Errorf("%d spec versions outlived their spec", n)
		}
		// A collection's children move to the top level when it goes.
		client.PermissionGrant.Delete().ExecX(sys)
		must(client.Collection.DeleteOneID(coll.ID).Exec(sys))
		if s := client.Collection.GetX(sys, sub.ID); s.ParentID != nil {
			t.Errorf("sub-collection still has parent %s", *s.ParentID)
		}
	})

	// The query builders the later issues rely on compile and run.
	_ = client.Space.Query().Where(space.OrganizationID(org.ID), space.DeletedAtIsNil()).
		Order(ent.Asc(space.FieldPosition), ent.Asc(space.FieldID)).AllX(sys)
	_ = client.ChangeRequest.Query().Where(changerequest.StatusEQ(changerequest.StatusOpen)).AllX(sys)
}
