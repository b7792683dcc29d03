package changerequests

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequestreview"
	"github.com/binderyhq/bindery/ent/changerequestreviewer"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/mergerules"
)

// maxNesting bounds the collections walked up from a space for its merge rules.
const maxNesting = 64

// MergeRules is the merge rules in force on a space: its own, else those of the nearest
// collection above it with its own, else the organization's. The collections and the
// organization are read whatever the viewer may see of them: they decide what the space's merges
// need.
func MergeRules(ctx context.Context, client *ent.Client, s *ent.Space) (mergerules.Config, error) {
	own, err := mergerules.Stored(s.MergeRules)
	chain := []mergerules.Config{own}
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	for parent := s.ParentID; err == nil && parent != nil && own.Type == mergerules.TypeInherit && len(chain) < maxNesting; {
		var c *ent.Collection
		c, err = client.Collection.Query().Where(collection.ID(*parent)).
			Select(collection.FieldParentID, collection.FieldMergeRules).Only(sys)
		if err != nil {
			break
		}
		own, err = mergerules.Stored(c.MergeRules)
		chain, parent = append(chain, own), c.ParentID
	}
	if err == nil && own.Type == mergerules.TypeInherit {
		var o *ent.Organization
		if o, err = client.Organization.Query().Where(organization.ID(s.OrganizationID)).Select(organization.FieldMergeRules).Only(sys); err == nil {
			own, err = OrganizationRules(o)
			chain = append(chain, own)
		}
	}
	return mergerules.Resolve(chain...), err
}

// OrganizationRules is the merge rules of an organization: none unless it has rules.
func OrganizationRules(o *ent.Organization) (mergerules.Config, error) {
	c, err := mergerules.Stored(o.MergeRules)
	if c.Type == mergerules.TypeInherit {
		return mergerules.None(), err
	}
	return c, err
}

// CheckMerge decides, in the transaction of a merge (space and change request locked), whether
// the viewer may merge cr into s under the merge rules in force. Returns CONFLICT naming the
// rules the change request does not meet, FORBIDDEN naming require_author_to_merge when the
// viewer is not its author (both a *mergerules.RefusedError); a merger allow_bypass names merges
// anyway when they asked for the merge themselves (a person's request, source ui or api), and
// the bypass is recorded as an event (change_request.merge_rules_bypassed, audited) in the same
// transaction. A merge nobody asked for in person (a Git Sync import's, source integration)
// never bypasses: it waits for review as anyone's would.
func CheckMerge(ctx context.Context, tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) error {
	rules, err := MergeRules(ctx, tx.Client(), s)
	if err != nil || rules.Type != mergerules.TypeRules {
		return err
	}
	st, err := mergeState(ctx, tx, s, cr)
	if err != nil {
		return err
	}
	breaches, bypass := mergerules.Decide(rules, st)
	switch {
	case len(breaches) == 0:
		return nil
	case bypass && byPerson(ctx):
		return recordChangeRequest(ctx, tx, events.ChangeRequestMergeRulesBypassed, cr,
			map[string]any{"number": cr.Number, "rules": mergerules.Names(breaches), "by": st.Merger})
	}
	return mergerules.Refusal(cr.Number, breaches)
}

// byPerson reports whether the viewer of ctx asked for its action in person (a browser or a
// token), not through an integration or a job.
func byPerson(ctx context.Context) bool {
	src := viewer.SourceOf(ctx)
	return src == viewer.SourceUI || src == viewer.SourceAPI
}

// mergeState is what the merge rules decide a merge of cr by the viewer on: its current reviews
// (one per reviewer: a newer one supersedes the older) and its pending review requests.
func mergeState(ctx context.Context, tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) (mergerules.State, error) {
	st := mergerules.State{Author: cr.CreatedBy, Merger: viewer.FromContext(ctx).UserID, Subject: cr.Subject,
		Outdated: behind(cr, s)}
	current, err := tx.ChangeRequestReview.Query().Where(changerequestreview.ChangeRequestID(cr.ID), outdatedIs(cr, false)).
		Select(changerequestreview.FieldReviewerID, changerequestreview.FieldStatus).All(ctx)
	if err != nil {
		return st, err
	}
	for _, r := range current {
		st.Reviews = append(st.Reviews, mergerules.Review{User: r.ReviewerID, Approved: r.Status == changerequestreview.StatusApproved})
	}
	st.Pending, err = tx.ChangeRequestReviewer.Query().Where(changerequestreviewer.ChangeRequestID(cr.ID)).Count(ctx)
	return st, err
}
