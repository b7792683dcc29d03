package insights

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"sync"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/serverkey"
	"github.com/binderyhq/bindery/ent/siteinsightvisitor"
	keys "github.com/binderyhq/bindery/internal/serverkey"
)

// saltPurpose prefixes the server keys that salt the visitor hashes, one per UTC day: kept in the
// database so every process of one database counts a reader once, removed by Purge once the day
// has passed, after which a day's hashes cannot be matched to an address again.
const saltPurpose = "insights-visitors-"

// salts reads the day's salt once per day per process.
type salts struct {
	client *ent.Client
	mu     sync.Mutex
	day    int
	salt   []byte
}

// of returns the salt of day.
func (s *salts) of(ctx context.Context, day int) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.salt != nil && s.day == day {
		return s.salt, nil
	}
	var k keys.Keys // a fresh cache: yesterday's salt is not kept in memory either
	salt, err := k.Get(ctx, s.client, saltPurpose+strconv.Itoa(day))
	if err != nil {
		return nil, err
	}
	s.day, s.salt = day, salt
	return salt, nil
}

// visitorHash is the day's hash of a reader of a site: the same all day for the same address and
// user agent, another the next day.
func visitorHash(salt []byte, siteID string, r Reader) string {
	h := sha256.New()
	for _, part := range [][]byte{salt, []byte(siteID), []byte(r.Address), []byte(r.UserAgent)} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// oldSalts selects the salts of days before yesterday (a process may still hash yesterday's
// events around midnight).
func oldSalts(today int) predicate.ServerKey {
	return serverkey.And(serverkey.PurposeHasPrefix(saltPurpose),
		serverkey.PurposeNotIn(saltPurpose+strconv.Itoa(today), saltPurpose+strconv.Itoa(today-1)))
}

// visitorKey is a visitor of a site on a day, by the type of what they did.
type visitorKey struct {
	site    string
	day     int
	typ     string
	visitor string
}

// visitorsOf are the visitors of events by day and type, and of anyType, each once, in order.
func visitorsOf(events []Event) []visitorKey {
	var keys []visitorKey
	for _, e := range events {
		if e.visitor != "" {
			k := visitorKey{site: e.SiteID, day: Day(e.Time), typ: e.Type, visitor: e.visitor}
			keys = append(keys, k)
			k.typ = anyType
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b visitorKey) int {
		return cmp.Or(cmp.Compare(a.site, b.site), cmp.Compare(a.day, b.day), cmp.Compare(a.typ, b.typ), cmp.Compare(a.visitor, b.visitor))
	})
	return slices.Compact(keys)
}

// addVisitors inserts the rows of the visitors not there yet, MaxBatch per statement, in order,
// and returns the daily visitor counts they add: one per row inserted. A row an earlier flush or
// another process inserted is not inserted again (the database decides, under the unique
// index), so a reader is counted once a day and type whichever processes recorded them.
func addVisitors(ctx context.Context, tx *ent.Tx, dialectName string, visitors []visitorKey) ([]rollupCount, error) {
	var counts []rollupCount
	for len(visitors) > 0 {
		first := visitors[0]
		n := 1 // the visitors of first's site, day and type, at most MaxBatch
		for n < len(visitors) && n < MaxBatch && visitors[n].site == first.site && visitors[n].day == first.day && visitors[n].typ == first.typ {
			n++
		}
		ins := sql.Dialect(dialectName).Insert(siteinsightvisitor.Table).Columns(siteinsightvisitor.FieldSiteID,
			siteinsightvisitor.FieldDay, siteinsightvisitor.FieldType, siteinsightvisitor.FieldVisitor)
		for _, v := range visitors[:n] {
			ins.Values(v.site, v.day, v.typ, v.visitor)
		}
		query, args := ins.OnConflict(sql.ConflictColumns(siteinsightvisitor.FieldSiteID, siteinsightvisitor.FieldDay,
			siteinsightvisitor.FieldType, siteinsightvisitor.FieldVisitor), sql.DoNothing()).Query()
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return nil, err
		}
		added, err := res.RowsAffected()
		if err != nil {
			return nil, err
		}
		if added > 0 {
			counts = append(counts, rollupCount{key: rollupKey{site: first.site, day: first.day, typ: first.typ,
				dimension: dimVisitors, results: noResults}, n: int(added)})
		}
		visitors = visitors[n:]
	}
	return counts, nil
}
