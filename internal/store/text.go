package store

import (
	"context"
	"encoding/json"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/text"
)

// storableText is a hook on every mutation: each string it sets (and each string of a JSON field)
// passes text.Check, naming the field, so no path — a resolver, a single sign-on assertion, a
// background job, the command line — writes text one database would keep and the other refuse.
// The surfaces check their input earlier, naming the field as their callers spell it; this is the
// floor beneath them.
func storableText(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		for _, name := range m.Fields() {
			v, _ := m.Field(name)
			if err := checkValue(name, v); err != nil {
				return nil, err
			}
		}
		return next.Mutate(ctx, m)
	})
}

// checkValue checks the text of one field's value: a string, strings, or JSON.
func checkValue(name string, v ent.Value) error {
	switch v := v.(type) {
	case string:
		return text.Check(name, v)
	case []string:
		for _, s := range v {
			if err := text.Check(name, s); err != nil {
				return err
			}
		}
	case json.RawMessage:
		return text.CheckField(name, v)
	case map[string]any:
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		return text.CheckField(name, b)
	}
	return nil
}
