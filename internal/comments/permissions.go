package comments

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
)

// Permissions are the viewer's permissions on a comment or a reply.
type Permissions struct {
	View, Edit, Reply, Delete bool
}

// permissions are the viewer's permissions on a comment or a reply of the space posted by
// postedBy: whoever reads the space views it; the comment role replies (and reacts, resolves);
// its author with the comment role edits and deletes it, and admins of the space delete it too.
func permissions(ctx context.Context, s *ent.Space, postedBy string) (Permissions, error) {
	role, err := rule.SpaceRole(ctx, s)
	if err != nil {
		return Permissions{}, err
	}
	commenter := role.AtLeast(viewer.RoleComment)
	author := commenter && postedBy == viewer.FromContext(ctx).UserID
	return Permissions{
		View: role.AtLeast(viewer.RoleRead), Reply: commenter, Edit: author,
		Delete: author || role.AtLeast(viewer.RoleAdmin),
	}, nil
}

// requireDelete answers FORBIDDEN unless the viewer may delete a comment or a reply of the space
// posted by postedBy: they wrote it (with the comment role), or they administer the space.
func requireDelete(ctx context.Context, s *ent.Space, postedBy string) error {
	perms, err := permissions(ctx, s, postedBy)
	if err == nil && !perms.Delete {
		return apperr.Forbiddenf("only its author, or an admin of the space, may delete a comment or a reply")
	}
	return err
}

// SpaceOf is the space of a comment: the one it was read in, else read now.
func (svc *Service) SpaceOf(ctx context.Context, c *ent.Comment) (*ent.Space, error) {
	if c.Edges.Space != nil {
		return c.Edges.Space, nil
	}
	return svc.Space(ctx, c.SpaceID)
}

// CommentOf is the comment of a reply: the one it was read with, else read now.
func (svc *Service) CommentOf(ctx context.Context, reply *ent.CommentReply) (*ent.Comment, error) {
	if reply.Edges.Comment != nil {
		return reply.Edges.Comment, nil
	}
	c, err := svc.Client.Comment.Get(ctx, reply.CommentID)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("comment not found")
	}
	return c, err
}

// CommentPermissions are the viewer's permissions on a comment.
func (svc *Service) CommentPermissions(ctx context.Context, c *ent.Comment) (Permissions, error) {
	s, err := svc.SpaceOf(ctx, c)
	if err != nil {
		return Permissions{}, err
	}
	return permissions(ctx, s, c.PostedBy)
}

// ReplyPermissions are the viewer's permissions on a reply.
func (svc *Service) ReplyPermissions(ctx context.Context, reply *ent.CommentReply) (Permissions, error) {
	c, err := svc.CommentOf(ctx, reply)
	if err != nil {
		return Permissions{}, err
	}
	s, err := svc.SpaceOf(ctx, c)
	if err != nil {
		return Permissions{}, err
	}
	return permissions(ctx, s, reply.PostedBy)
}
