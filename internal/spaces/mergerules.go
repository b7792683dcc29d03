package spaces

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/mergerules"
)

// checkMergeRules checks merge rules to store on a space or collection of an organization
// (mergerules.Check), and that the users they name are its members. Returns the configuration to
// store encoded, nil to inherit; INVALID naming the rule or the user.
func (svc *Service) checkMergeRules(ctx context.Context, orgID string, in mergerules.Config) (json.RawMessage, error) {
	c, users, err := mergerules.Check(in)
	if err != nil {
		return nil, err
	}
	found, err := svc.Client.Member.Query().Where(member.OrganizationID(orgID), member.UserIDIn(users...), member.Disabled(false)).
		Select(member.FieldUserID).Strings(privacy.DecisionContext(ctx, privacy.Allow)) // membership, not what members show
	if err != nil {
		return nil, err
	}
	for _, u := range users {
		if !slices.Contains(found, u) {
			return nil, apperr.Invalidf("mergeRules.rules: user %s is not a member of the organization", u)
		}
	}
	return mergerules.Encode(c)
}
