// Package nodes finds which kind of stored object each of a few ids names, for the Relay `node`
// and `nodes` fields of GraphQL: ids are the random ids REST also uses (internal/id), so they do
// not say their kind; the kinds' tables do (decision 410).
package nodes

import (
	"context"
	stdsql "database/sql"
	"strconv"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
)

// Kind is a kind of object Find looks ids up in: its table and the columns, at most two, that
// its ordinary read takes beside the id (its organization, its space, …).
type Kind struct {
	Table string
	Keys  []string
}

// Ref is where Find found an id: the index of its kind in the kinds given and the values of the
// kind's keys, in order ("" for a NULL).
type Ref struct {
	Kind int
	Keys [2]string
}

// Find returns where each of ids is stored; an id no table holds is absent from the answer. It
// reads as the system, in one statement (a UNION ALL of one SELECT a kind, each by primary key),
// so the answer must only route an id to the ordinary read of its kind, which decides whether
// the viewer sees the object: it is never shown as it is. The caller bounds len(ids): the
// statement has len(kinds) × len(ids) parameters.
func Find(ctx context.Context, client *ent.Client, kinds []Kind, ids []string) (map[string]Ref, error) {
	found := map[string]Ref{}
	if len(ids) == 0 || len(kinds) == 0 {
		return found, nil
	}
	var rows []struct {
		K  int               `sql:"k"`
		ID string            `sql:"id"`
		A  stdsql.NullString `sql:"a"`
		B  stdsql.NullString `sql:"b"`
	}
	// A query of users carries the statement: ent hands its dialect to a modifier only.
	err := client.User.Query().Modify(func(s *sql.Selector) {
		u := union(sql.Dialect(s.Dialect()), kinds, ids)
		s.From(u.As("n")).Select("k", "id", "a", "b")
	}).Scan(privacy.DecisionContext(ctx, privacy.Allow), &rows)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if _, dup := found[r.ID]; !dup {
			found[r.ID] = Ref{Kind: r.K, Keys: [2]string{r.A.String, r.B.String}}
		}
	}
	return found, nil
}

// union is the SELECT of every kind's rows with one of ids: (k, id, a, b), where k is the kind's
// index and a, b its keys (NULL past the kind's own).
func union(d *sql.DialectBuilder, kinds []Kind, ids []string) *sql.Selector {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	var all *sql.Selector
	for i, k := range kinds {
		t := sql.Table(k.Table)
		s := d.Select().From(t)
		s.AppendSelectExprAs(sql.Expr(strconv.Itoa(i)), "k").AppendSelectAs(t.C("id"), "id")
		for j, as := range []string{"a", "b"} {
			if j < len(k.Keys) {
				s.AppendSelectAs(t.C(k.Keys[j]), as)
			} else {
				s.AppendSelectExprAs(sql.Expr("NULL"), as)
			}
		}
		s.Where(sql.In(t.C("id"), args...))
		if all == nil {
			all = s
		} else {
			all.UnionAll(s)
		}
	}
	return all
}
