package sites

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/internal/adaptive"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// pagesNamedMax is how many pages a refused visitor schema names (then how many more there are).
const pagesNamedMax = 10

// pageConditionsAllow checks the conditions of the pages of the spaces a site shows (their
// current content) against a new visitor schema: a condition that compiles against the site's
// current schema and not against the new one would hide its page from every reader, so the
// schema is refused (decision 319). Conditions that did not compile before are left alone: the
// change hides nothing more. Each distinct condition is compiled once against each schema.
// Returns CONFLICT naming the pages (the first pagesNamedMax) and why.
func (svc *Service) pageConditionsAllow(ctx context.Context, tx *ent.Tx, s *ent.Site, schema *adaptive.Schema) error {
	spaceIDs, err := tx.SiteSpace.Query().Where(sitespace.SiteID(s.ID)).Select(sitespace.FieldSpaceID).Strings(ctx)
	if err != nil {
		return err
	}
	// The site's manager may not read every space the site shows; its readers do, and the
	// answer names only pages of the site.
	read := privacy.DecisionContext(ctx, privacy.Allow)
	spaces, err := svc.Client.Space.Query().Where(space.IDIn(check.Distinct(spaceIDs)...), space.DeletedAtIsNil()).
		Order(ent.Asc(space.FieldID)).All(read)
	if err != nil {
		return err
	}
	trees, err := svc.ActiveTrees(read, spaces)
	if err != nil {
		return err
	}
	broken := conditionBreaks(Schema(s), schema)
	var named []string
	count := 0
	for _, sp := range spaces {
		t := trees[sp.ID]
		if t == nil {
			continue
		}
		t.Walk(func(p *tree.Page, path string) {
			if p.Condition == "" {
				return
			}
			if bad := broken(p.Condition); bad != nil {
				count++
				if len(named) < pagesNamedMax {
					named = append(named, fmt.Sprintf("page %s (%s in space %s) %s", p.ID, path, sp.ID, bad))
				}
			}
		})
	}
	if count == 0 {
		return nil
	}
	more := ""
	if count > len(named) {
		more = fmt.Sprintf(" and %d more", count-len(named))
	}
	return apperr.Conflictf("jsonSchema: %d page(s) have a condition this schema does not allow, which would hide them from every reader: %s%s: change or remove them first",
		count, strings.Join(named, "; "), more)
}

// conditionBreaks returns a function telling, once per distinct condition, why a condition that
// compiles against old does not against new: nil when it does, or did not before either.
func conditionBreaks(old, new *adaptive.Schema) func(condition string) *adaptive.Error {
	seen := map[string]*adaptive.Error{}
	return func(condition string) *adaptive.Error {
		if bad, ok := seen[condition]; ok {
			return bad
		}
		var bad *adaptive.Error
		if adaptive.CheckCondition(condition, old) == nil {
			errors.As(adaptive.CheckCondition(condition, new), &bad)
		}
		seen[condition] = bad
		return bad
	}
}
