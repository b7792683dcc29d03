package search

import (
	"context"
	"fmt"
	"strings"
)

// A section's id says where it is: its space's key (23 bits), the number of its page in the space
// (30 bits) and its place in the page (10 bits). So one space's sections are one range of ids,
// which FTS5 seeks to in its posting lists, and the sections of a page are grouped by shifting the
// id, without reading the sections' rows. Keys and page numbers are handed out once (the tables
// search_spaces and search_pages) and never reused for another space or page.
const (
	ordinalBits = 10
	pageBits    = 30
	spaceShift  = ordinalBits + pageBits

	// MaxPageSections is how many sections of a page are kept apart; the text of later ones joins
	// the last.
	MaxPageSections = 1 << ordinalBits
)

func sectionID(space, page int64, ordinal int) int64 {
	return space<<spaceShift | page<<ordinalBits | int64(ordinal)
}

// pageKey is the part of a section id that names its page (unique across spaces).
func pageKey(id int64) int64 { return id >> ordinalBits }

// spaceKeyOf is the part of a section id that names its space.
func spaceKeyOf(id int64) int64 { return id >> spaceShift }

// spaceKey returns the key of a space, handing one out the first time.
func (x *sqlIndex) spaceKey(ctx context.Context, db DB, spaceID string) (int64, error) {
	ins := x.d.rebind("INSERT INTO search_spaces (space_id) VALUES (?) ON CONFLICT (space_id) DO NOTHING")
	if _, err := db.ExecContext(ctx, ins, spaceID); err != nil {
		return 0, err
	}
	var key int64
	err := query(ctx, db, x.d.rebind("SELECT key FROM search_spaces WHERE space_id = ?"), []any{spaceID},
		func(scan func(...any) error) error { return scan(&key) })
	if err == nil && key >= 1<<(63-spaceShift) {
		err = fmt.Errorf("search: the index has handed out every space key")
	}
	return key, err
}

// spaceKeys returns the keys of the spaces that have been indexed, by key.
func (x *sqlIndex) spaceKeys(ctx context.Context, db DB, spaceIDs []string) (map[int64]string, error) {
	out := map[int64]string{}
	if len(spaceIDs) == 0 {
		return out, nil
	}
	stmt := x.d.rebind("SELECT key, space_id FROM search_spaces WHERE " + x.d.in("space_id"))
	err := query(ctx, db, stmt, []any{x.d.list(spaceIDs)}, func(scan func(...any) error) error {
		var key int64
		var id string
		err := scan(&key, &id)
		out[key] = id
		return err
	})
	return out, err
}

// pageNumbers returns the numbers of pages of a space, handing out new ones to pages that have
// none. The counter is advanced by one UPDATE … RETURNING, which locks the space's row, so two
// transactions never hand out the same number.
func (x *sqlIndex) pageNumbers(ctx context.Context, db DB, space int64, pageIDs []string) (map[string]int64, error) {
	numbers := map[string]int64{}
	if len(pageIDs) == 0 {
		return numbers, nil
	}
	stmt := x.d.rebind("SELECT page_id, number FROM search_pages WHERE space_key = ? AND " + x.d.in("page_id"))
	err := query(ctx, db, stmt, []any{space, x.d.list(pageIDs)}, func(scan func(...any) error) error {
		var id string
		var n int64
		err := scan(&id, &n)
		numbers[id] = n
		return err
	})
	if err != nil {
		return nil, err
	}
	var fresh []string
	for _, id := range pageIDs {
		if _, ok := numbers[id]; !ok {
			fresh = append(fresh, id)
		}
	}
	if len(fresh) == 0 {
		return numbers, nil
	}
	var next int64
	bump := x.d.rebind("UPDATE search_spaces SET next_page = next_page + ? WHERE key = ? RETURNING next_page")
	if err := query(ctx, db, bump, []any{len(fresh), space}, func(scan func(...any) error) error { return scan(&next) }); err != nil {
		return nil, err
	}
	if next > 1<<pageBits {
		return nil, fmt.Errorf("search: space %d has used up its page numbers", space)
	}
	first := next - int64(len(fresh))
	for i, id := range fresh {
		numbers[id] = first + int64(i)
	}
	return numbers, x.insertPages(ctx, db, space, fresh, first)
}

// insertPages records the numbers handed out to pages, consecutive from first.
func (x *sqlIndex) insertPages(ctx context.Context, db DB, space int64, pageIDs []string, first int64) error {
	for start := 0; start < len(pageIDs); start += pageBatch {
		batch := pageIDs[start:min(start+pageBatch, len(pageIDs))]
		rows := make([]string, len(batch))
		var args []any
		for i, id := range batch {
			rows[i] = "(?, ?, ?)"
			args = append(args, space, id, first+int64(start+i))
		}
		stmt := "INSERT INTO search_pages (space_key, page_id, number) VALUES " + strings.Join(rows, ", ")
		if _, err := db.ExecContext(ctx, x.d.rebind(stmt), args...); err != nil {
			return err
		}
	}
	return nil
}

// pageKeys returns the keys of the set's pages in the spaces of scope (as pageKey reads them
// from a section id), for those that have one: read once per set and scope, none for no set.
func (x *sqlIndex) pageKeys(ctx context.Context, db DB, s *scope, set *PageSet) (map[int64]bool, error) {
	if set == nil {
		return nil, nil
	}
	set.mu.Lock()
	defer set.mu.Unlock()
	scopeKey := fmt.Sprint(s.list)
	if set.keys != nil && set.scope == scopeKey {
		return set.keys, nil
	}
	keys := map[int64]bool{}
	stmt := x.d.rebind("SELECT space_key, number FROM search_pages WHERE " + x.d.in("space_key") + " AND " + x.d.in("page_id"))
	err := query(ctx, db, stmt, []any{x.d.list(s.list), x.d.list(set.ids)}, func(scan func(...any) error) error {
		var space, number int64
		err := scan(&space, &number)
		keys[space<<pageBits|number] = true
		return err
	})
	if err != nil {
		return nil, err
	}
	set.scope, set.keys = scopeKey, keys
	return keys, nil
}
