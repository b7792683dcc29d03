package orgs

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/mergerules"
)

// CheckMergeRules checks merge rules to store on an organization or on one of its spaces or
// collections (mergerules.Check), and that the users they name are its members. Returns the
// configuration to store encoded, nil to inherit; INVALID naming the rule or the user.
func CheckMergeRules(ctx context.Context, client *ent.Client, orgID string, in mergerules.Config) (json.RawMessage, error) {
	c, users, err := mergerules.Check(in)
	if err != nil {
		return nil, err
	}
	found, err := client.Member.Query().Where(member.OrganizationID(orgID), member.UserIDIn(users...), member.Disabled(false)).
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
