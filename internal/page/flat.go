package page

import (
	"context"

	"entgo.io/ent/dialect/sql"
)

// Query is the part of an ent query (T its entity, Q the query type, S its select type) that a
// flat page reads.
type Query[T, Q, S any] interface {
	Clone() Q
	Count(ctx context.Context) (int, error)
	Limit(n int) Q
	Modify(modifiers ...func(*sql.Selector)) S
	All(ctx context.Context) ([]T, error)
}

// Flat reads one page of a list that is not nested under parents: the total count of q when
// a.Count asks for it, then the rows after the cursor in the order, one more than a page to know whether another follows.
// timeKeyed says the sort column is a timestamp (else text). Nested lists use LimitPerParent.
func Flat[T any, Q Query[T, Q, S], S any](ctx context.Context, q Q, o Order, a Args, timeKeyed bool,
	cursorOf func(T) Cursor) (Page[T], error) {
	var count int
	if a.Count {
		var err error
		if count, err = q.Clone().Count(ctx); err != nil {
			return Page[T]{}, err
		}
	}
	if a.After != nil {
		key, err := a.After.Value(timeKeyed)
		if err != nil {
			return Page[T]{}, err
		}
		q.Modify(func(s *sql.Selector) { o.After(s, key, a.After.ID) })
	}
	q.Modify(o.Apply)
	rows, err := q.Limit(a.Limit + 1).All(ctx)
	if err != nil {
		return Page[T]{}, err
	}
	return Trim(rows, a.Limit, count, cursorOf), nil
}

// Value returns the cursor's sort key as the Go type of the sort column: a time when timeKeyed,
// else text. Returns INVALID when the key is of the other kind (a token of another list).
func (c *Cursor) Value(timeKeyed bool) (any, error) {
	if timeKeyed {
		return c.Time()
	}
	return c.String()
}
