package rule

import (
	"context"
	"errors"
	"sync"

	"entgo.io/ent/dialect/sql"
)

// ParentScope is a read of the children of several parents, each parent's rows narrowed to
// "column = ref", ref an SQL expression naming the parent the statement is reading rows for
// (page.TopPerParent). A narrowing of the bound query whose condition reads no column of the
// row but that one is true of a parent's rows all alike: under the scope it is stated on ref
// and left to the statement, which checks it once per parent instead of once per row
// (decision 361). A change request page checked its space's access on each of its 550 rows.
//
// It applies to the one query whose selector Bind saw, never to another query run under the
// same context. Conditions no statement took fail the read (Left).
type ParentScope struct {
	column, ref string

	mu       sync.Mutex
	selector *sql.Selector
	conds    []*sql.Predicate
	taken    bool
}

type parentScopeKey struct{}

// NewParentScope is the scope of a read whose rows' column equals ref for each parent.
func NewParentScope(column, ref string) *ParentScope {
	return &ParentScope{column: column, ref: ref}
}

// Context is ctx carrying the scope to the rules evaluated under it.
func (p *ParentScope) Context(ctx context.Context) context.Context {
	return context.WithValue(ctx, parentScopeKey{}, p)
}

func parentScopeOf(ctx context.Context) *ParentScope {
	p, _ := ctx.Value(parentScopeKey{}).(*ParentScope)
	return p
}

// Bind is a predicate of the scoped query: it names the query's selector, the only one whose
// conditions the scope takes. It must come before the query's privacy filters, so a predicate
// added to the query before it runs does.
func (p *ParentScope) Bind(s *sql.Selector) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.selector == nil {
		p.selector = s
	}
}

// hoist takes the condition build makes, over the row's columns, when it reads only the scope's
// column and s is the bound selector: stated on the parent, it waits for Take. It reports
// whether it took it; if not, the caller narrows s itself.
func (p *ParentScope) hoist(s *sql.Selector, build func(columns) cond) bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.taken || p.selector != s {
		return false
	}
	onParent := true
	c := build(func(name string) string {
		if name != p.column {
			onParent = false
			return s.C(name)
		}
		return p.ref
	})
	var scratch sql.Builder // some conditions name columns only as they are written
	scratch.SetDialect(s.Dialect())
	c(&scratch)
	if !onParent {
		return false
	}
	p.conds = append(p.conds, c.predicate())
	return true
}

// Take returns the conditions each parent must meet for its rows to be read, and closes the
// scope: a rule evaluated after it narrows its rows itself.
func (p *ParentScope) Take() []*sql.Predicate {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.taken = true
	return p.conds
}

// ErrConditionsLeft fails a scoped read whose statement did not take the conditions its rules
// left to it: its rows were read unchecked.
var ErrConditionsLeft = errors.New("rule: a per-parent read left its access conditions unchecked")

// Left returns ErrConditionsLeft when conditions were hoisted and never taken.
func (p *ParentScope) Left() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.conds) > 0 && !p.taken {
		return ErrConditionsLeft
	}
	return nil
}
