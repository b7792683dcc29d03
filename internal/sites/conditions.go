package sites

import (
	"errors"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/adaptive"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
)

// conditionMax is the most characters of a site space's or section's condition (spec/03 Limits).
const conditionMax = 1024

// CheckCondition checks a condition written on site s (a site space's, a section's): 1 to
// conditionMax characters, compiled and type-checked against the site's visitor schema (none
// set: no claims). Returns INVALID "condition: column N: …" naming where it fails.
func CheckCondition(s *ent.Site, condition string) error {
	if err := check.Text("condition", condition, 1, conditionMax); err != nil {
		return err
	}
	var schema *adaptive.Schema
	if len(s.AdaptiveSchema) > 0 {
		var err error
		if schema, err = adaptive.ParseSchema(s.AdaptiveSchema); err != nil {
			return err // the stored schema was checked when it was written
		}
	}
	err := adaptive.CheckCondition(condition, schema)
	var bad *adaptive.Error
	if errors.As(err, &bad) {
		return apperr.Invalidf("%s", bad.Error())
	}
	return err
}
