package insights

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"sync"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/serverkey"
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
