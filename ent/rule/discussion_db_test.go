package rule_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/comment"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestDiscussionPolicies checks the Comment, CommentReply, Reaction and ChangeRequest policies
// below the resolvers: what a commenter, another commenter, a reader and an admin may write.
func TestDiscussionPolicies(t *testing.T) {
	var n atomic.Int64
	client := testenv.OpenStore(t, &n).Client
	sys := accounts.System(context.Background())
	org := client.Organization.Create().SetTitle("Acme").SaveX(sys)
	as := map[string]context.Context{}
	ids := map[string]string{}
	for name, role := range map[string]viewer.Role{"admin": viewer.RoleAdmin, "cole": viewer.RoleComment,
		"cleo": viewer.RoleComment, "rea": viewer.RoleRead} {
		u := client.User.Create().SetEmail(name + "@example.com").SetDisplayName(name).SaveX(sys)
		client.Member.Create().SetOrganizationID(org.ID).SetUserID(u.ID).SetRole(role).ExecX(sys)
		r := role
		ids[name] = u.ID
		as[name] = viewer.NewContext(ent.NewContext(context.Background(), client),
			viewer.NewUser(u.ID, u.Email, map[string]*viewer.Role{org.ID: &r}))
	}
	s := client.Space.Create().SetOrganizationID(org.ID).SetTitle("Docs").SetDefaultLevel("inherit").SaveX(sys)
	post := func(who string) (*ent.Comment, error) {
		return client.Comment.Create().SetOrganizationID(org.ID).SetSpaceID(s.ID).SetPostedBy(ids[who]).
			SetBodyMarkdown("hi").Save(as[who])
	}
	c, err := post("cole")
	if err != nil {
		t.Fatalf("a commenter could not post: %v", err)
	}
	tests := map[string]struct {
		who   string
		write func(ctx context.Context) error
		ok    bool
	}{
		"ReaderPosts": {"rea", func(context.Context) error { _, err := post("rea"); return err }, false},
		"PostsForSomeoneElse": {"cleo", func(ctx context.Context) error {
			return client.Comment.Create().SetOrganizationID(org.ID).SetSpaceID(s.ID).SetPostedBy(ids["cole"]).
				SetBodyMarkdown("as cole").Exec(ctx)
		}, false},
		"OtherCommenterEditsBody": {"cleo", func(ctx context.Context) error {
			return client.Comment.UpdateOneID(c.ID).SetBodyMarkdown("mine now").Exec(ctx)
		}, false},
		"AdminEditsBody": {"admin", func(ctx context.Context) error {
			return client.Comment.UpdateOneID(c.ID).SetBodyMarkdown("mine now").Exec(ctx)
		}, false},
		"ReaderResolves": {"rea", func(ctx context.Context) error {
			return client.Comment.UpdateOneID(c.ID).SetStatus(comment.StatusResolved).Exec(ctx)
		}, false},
		"OtherCommenterResolves": {"cleo", func(ctx context.Context) error {
			return client.Comment.UpdateOneID(c.ID).SetStatus(comment.StatusResolved).SetResolvedBy(ids["cleo"]).Exec(ctx)
		}, true},
		"OtherCommenterDeletes": {"cleo", func(ctx context.Context) error {
			return client.Comment.DeleteOneID(c.ID).Exec(ctx)
		}, false},
		"ReactsForSomeoneElse": {"cleo", func(ctx context.Context) error {
			return client.Reaction.Create().SetOrganizationID(org.ID).SetSpaceID(s.ID).SetTargetCommentID(c.ID).
				SetUserID(ids["cole"]).SetEmoji("👍").Exec(ctx)
		}, false},
		"AuthorEditsBody": {"cole", func(ctx context.Context) error {
			return client.Comment.UpdateOneID(c.ID).SetBodyMarkdown("edited").Exec(ctx)
		}, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if err := tc.write(as[tc.who]); (err == nil) != tc.ok {
				t.Fatalf("%s: err = %v, want allowed %v", tc.who, err, tc.ok)
			}
		})
	}
	t.Run("AuthorAndAdminDelete", func(t *testing.T) {
		own, _ := post("cleo")
		client.Comment.DeleteOneID(own.ID).ExecX(as["cleo"])
		client.Comment.DeleteOneID(c.ID).ExecX(as["admin"])
	})
	t.Run("CommenterCountsOnAChangeRequestOnly", func(t *testing.T) {
		root := client.ContentObject.Create().SetID("sha256:" + strings.Repeat("ab", 32)).SetKind("tree").
			SetData([]byte("{}")).SetSize(2).SaveX(sys)
		rev := client.Revision.Create().SetOrganizationID(org.ID).SetSpaceID(s.ID).SetType("initial").
			SetRootTree(root.ID).SaveX(sys)
		cr := client.ChangeRequest.Create().SetOrganizationID(org.ID).SetSpaceID(s.ID).SetNumber(1).
			SetCreatedBy(ids["admin"]).SetRevisionID(rev.ID).SetRevisionInitialID(rev.ID).SaveX(sys)
		client.ChangeRequest.UpdateOneID(cr.ID).AddCommentsCount(1).ExecX(as["cole"])
		if err := client.ChangeRequest.UpdateOneID(cr.ID).AddCommentsCount(1).SetSubject("Mine").Exec(as["cole"]); err == nil {
			t.Error("a commenter changed a change request's subject with its counter")
		}
		if err := client.ChangeRequest.UpdateOneID(cr.ID).AddCommentsCount(1).Exec(as["rea"]); err == nil {
			t.Error("a reader moved a change request's comment counter")
		}
	})
}
