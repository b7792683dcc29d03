package webhooks

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
)

// TestSignature signs the Standard Webhooks specification's published example.
func TestSignature(t *testing.T) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", secretPrefix))
	if err != nil {
		t.Fatal(err)
	}
	got := Signature([][]byte{key}, "msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature %s, want %s", got, want)
	}
	if two := Signature([][]byte{key, key}, "m", time.Unix(1, 0), nil); len(strings.Fields(two)) != 2 {
		t.Fatalf("two keys sign twice: %s", two)
	}
}

func TestWants(t *testing.T) {
	made := time.Unix(1000, 0)
	event := func(typ, space, site string, at int64) *ent.Event {
		return &ent.Event{Type: typ, SpaceID: space, SiteID: site, CreatedAt: time.Unix(at, 0)}
	}
	all := &ent.Webhook{CreatedAt: made}
	narrow := &ent.Webhook{CreatedAt: made, Events: []string{"space.updated"}, Spaces: []string{"s1"}, Sites: []string{"w1"}}
	for _, c := range []struct {
		name string
		w    *ent.Webhook
		e    *ent.Event
		want bool
	}{
		{"AllTakesAny", all, event("member.removed", "", "", 1000), true},
		{"NotBeforeItWasMade", all, event("space.created", "s1", "", 999), false},
		{"TypeAndSpace", narrow, event("space.updated", "s1", "", 1001), true},
		{"OtherType", narrow, event("space.created", "s1", "", 1001), false},
		{"OtherSpace", narrow, event("space.updated", "s2", "", 1001), false},
		{"OtherSite", narrow, event("space.updated", "", "w2", 1001), false},
		{"OrganizationWide", narrow, event("space.updated", "", "", 1001), true},
	} {
		if got := wants(c.w, c.e); got != c.want {
			t.Errorf("%s: wants %t, want %t", c.name, got, c.want)
		}
	}
}

func TestJitter(t *testing.T) {
	for range 100 {
		if d := jitter(10 * time.Second); d < 10*time.Second || d > 11*time.Second {
			t.Fatalf("jitter of 10 s: %v", d)
		}
	}
}
