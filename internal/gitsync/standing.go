package gitsync

import (
	"cmp"
	"context"
	"fmt"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/gitsync"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/txn"
)

// A sync moves content only as far as the user who linked the space may still move it
// (decision 585): into the main content what they may merge (an import merges as them), out to
// the repository what they may read (their link's token and repository receive it).

// needs is the role the linker must hold on the space for a sync in direction.
func needs(direction gitsync.OperationDirection) viewer.Role {
	if direction == gitsync.OperationDirectionImport {
		return viewer.RoleReview // the role that merges a change request
	}
	return viewer.RoleRead
}

// heldBack says why the link's sync in direction may not run as its linker now, "" when it
// may: the linker is no enabled member of the space's organization, or their role on the space,
// computed as theirs is (membership, grants to them and their teams, visibility), is below what
// the direction needs. A link no user made (the system's) is not held.
func (svc *Service) heldBack(ctx context.Context, g *ent.GitSync, s *ent.Space, direction gitsync.OperationDirection) (string, error) {
	by := linker(g)
	if by == "" {
		return "", nil
	}
	m, err := svc.Client.Member.Query().Where(member.OrganizationID(s.OrganizationID), member.UserID(by)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return "", err
	}
	subject := viewer.NewUser(by, "", nil) // no member: the space's visibility alone counts
	if m != nil && !m.Disabled {
		subject = viewer.NewUser(by, "", map[string]*viewer.Role{s.OrganizationID: m.Role})
	}
	role, err := rule.RoleOn(ent.NewContext(viewer.NewContext(ctx, subject), svc.Client), s.OrganizationID, s.ID, true)
	if err != nil || role.AtLeast(needs(direction)) {
		return "", err
	}
	why := fmt.Sprintf("their role on the space is %s, below the %s role", cmp.Or(string(role), "none"), needs(direction))
	switch {
	case m == nil:
		why = "they are no longer a member of the organization"
	case m.Disabled:
		why = "their membership of the organization is disabled"
	}
	return fmt.Sprintf("the %s waits: the user who linked the space (%s) can no longer %s (%s); "+
		"an admin of the space links it again (importGitRepository or exportToGitRepository naming the branch), "+
		"or the user's access comes back, and the next sync runs", direction, by, doing(direction), why), nil
}

// doing is what the linker's role allows in direction.
func doing(direction gitsync.OperationDirection) string {
	if direction == gitsync.OperationDirectionImport {
		return "merge into it"
	}
	return "read it"
}

// recordHeld records, holding the job's lease, that a sync in direction waits for its
// linker's access (why): the link's operation a failure saying so, and the audit entry
// git_sync.held when the link was not held for that already (a poll repeats the sync, not the
// entry). Nothing of the content or the repository changes: the head stays unimported, and the
// sync after the access comes back runs as any other.
func (svc *Service) recordHeld(ctx context.Context, j *jobs.Job, g *ent.GitSync, direction gitsync.OperationDirection, head, why string) error {
	why = clip(why, 1200)
	again := g.OperationState != nil && *g.OperationState == gitsync.OperationStateFailure &&
		g.OperationError != nil && *g.OperationError == why && g.OperationDirection != nil && *g.OperationDirection == direction
	return txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if err := j.Hold(ctx, tx); err != nil {
			return err
		}
		now := svc.Now(ctx)
		err := tx.GitSync.UpdateOne(g).SetOperationDirection(direction).SetOperationState(gitsync.OperationStateFailure).
			SetOperationStartedAt(now).SetOperationEndedAt(now).SetOperationError(why).Exec(ctx)
		if err != nil || again {
			return err
		}
		more := map[string]any{"direction": direction.String(), "linkedBy": linker(g), "reason": why, "head": head}
		return audit.Record(ctx, tx.Client(), syncEntry(audit.GitSyncHeld, g, "", "", more))
	})
}
