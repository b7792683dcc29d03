package rule

import (
	"errors"
	"strings"
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// TestParentScopeHoists checks which conditions a per-parent read leaves to its statement: only
// its own selector's, only those reading nothing of the row but the parent column (also when a
// column is named only as the condition is written), and only until the statement took them.
// Conditions hoisted and never taken fail the read.
func TestParentScopeHoists(t *testing.T) {
	onSpace := func(col columns) cond {
		return raw("EXISTS (SELECT 1 FROM spaces rs WHERE rs.id = " + col("space_id") + ")")
	}
	lazyOther := func(col columns) cond {
		return and(onSpace(col), func(b *sql.Builder) { b.WriteString(col("created_by") + " = 'u'") })
	}
	newScope := func() (*ParentScope, *sql.Selector) {
		p := NewParentScope("space_id", `"p"."column1"`)
		s := sql.Dialect(dialect.SQLite).Select("id").From(sql.Table("change_requests"))
		p.Bind(s)
		return p, s
	}

	p, s := newScope()
	if p.hoist(sql.Dialect(dialect.SQLite).Select("id").From(sql.Table("change_requests")), onSpace) {
		t.Error("hoisted the condition of another query's selector")
	}
	if p.hoist(s, lazyOther) {
		t.Error("hoisted a condition reading another column of the row")
	}
	if !p.hoist(s, onSpace) {
		t.Fatal("did not hoist a condition on the parent column alone")
	}
	if err := p.Left(); !errors.Is(err, ErrConditionsLeft) {
		t.Errorf("conditions never taken: Left = %v, want ErrConditionsLeft", err)
	}
	conds := p.Take()
	if len(conds) != 1 {
		t.Fatalf("took %d conditions, want 1", len(conds))
	}
	if q, _ := sql.Dialect(dialect.SQLite).Select("1").Where(conds[0]).Query(); !strings.Contains(q, `rs.id = "p"."column1"`) {
		t.Errorf("the hoisted condition is not stated on the parent: %s", q)
	}
	if p.Left() != nil || p.hoist(s, onSpace) {
		t.Error("the scope took a condition after its statement took them")
	}
	var none *ParentScope
	if none.hoist(s, onSpace) {
		t.Error("no scope hoisted a condition")
	}
}
