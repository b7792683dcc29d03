package page

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/internal/apperr"
)

func intp(n int) *int       { return &n }
func strp(s string) *string { return &s }
func b64(s string) string   { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// wantInvalid asserts that err is an INVALID apperr whose message contains each word.
func wantInvalid(t *testing.T, err error, words ...string) {
	t.Helper()
	e := apperr.As(err)
	if e == nil || e.Kind != apperr.Invalid {
		t.Fatalf("err = %v, want an INVALID apperr", err)
	}
	for _, w := range words {
		if !strings.Contains(e.Message, w) {
			t.Errorf("message %q does not contain %q", e.Message, w)
		}
	}
}

func TestNewArgsLimit(t *testing.T) {
	for _, c := range []struct {
		name  string
		limit *int
		want  int
	}{
		{"OKDefault", nil, DefaultLimit},
		{"OKZero", intp(0), 0},
		{"OKOne", intp(1), 1},
		{"OKMax", intp(MaxLimit), MaxLimit},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, err := NewArgs(c.limit, nil)
			if err != nil || a.Limit != c.want || a.After != nil {
				t.Fatalf("NewArgs = %+v, %v; want limit %d", a, err, c.want)
			}
		})
	}
	if DefaultLimit != 100 || MaxLimit != 1000 {
		t.Errorf("bounds = %d, %d; spec/03 says 100 and 1000", DefaultLimit, MaxLimit)
	}
	for _, n := range []int{-1, MaxLimit + 1, -1 << 40, 1 << 40} {
		t.Run("ErrLimitOutOfRange", func(t *testing.T) {
			_, err := NewArgs(intp(n), nil)
			wantInvalid(t, err, "limit", "0", "1000")
		})
	}
}

func TestNewArgsAfter(t *testing.T) {
	t.Run("OKEmptyIsFirstPage", func(t *testing.T) {
		a, err := NewArgs(nil, strp(""))
		if err != nil || a.After != nil {
			t.Fatalf("NewArgs = %+v, %v", a, err)
		}
	})
	t.Run("OKCursor", func(t *testing.T) {
		c := Cursor{Key: "b", ID: "id1"}
		a, err := NewArgs(intp(5), strp(c.Encode()))
		if err != nil || a.Limit != 5 || a.After == nil || *a.After != c {
			t.Fatalf("NewArgs = %+v, %v", a, err)
		}
	})
	t.Run("ErrGarbage", func(t *testing.T) {
		_, err := NewArgs(nil, strp("not a cursor"))
		wantInvalid(t, err, "page")
	})
	t.Run("ErrLimitBeforeCursor", func(t *testing.T) {
		_, err := NewArgs(intp(-1), strp("not a cursor"))
		wantInvalid(t, err, "limit")
	})
}

func TestCursorRoundTrip(t *testing.T) {
	when := time.Date(2026, 11, 21, 5, 36, 15, 123456789, time.UTC)
	for _, c := range []struct {
		name string
		in   Cursor
		want Cursor // after a round trip: keys come back as JSON values
	}{
		{"OKString", Cursor{Key: "Écoles 🚀", ID: "abc"}, Cursor{Key: "Écoles 🚀", ID: "abc"}},
		{"OKEmptyString", Cursor{Key: "", ID: "abc"}, Cursor{Key: "", ID: "abc"}},
		{"OKNoKey", Cursor{ID: "abc"}, Cursor{ID: "abc"}},
		{"OKNumber", Cursor{Key: 42, ID: "abc"}, Cursor{Key: float64(42), ID: "abc"}},
		{"OKTime", Cursor{Key: when, ID: "abc"}, Cursor{Key: when.Format(time.RFC3339Nano), ID: "abc"}},
		{"OKTimeElsewhere", Cursor{Key: when.In(time.FixedZone("", -9000)), ID: "abc"},
			Cursor{Key: "2026-11-21T03:06:15.123456789-02:30", ID: "abc"}},
		{"OKOddID", Cursor{Key: "k", ID: "a\"b\\c\u2028é"}, Cursor{Key: "k", ID: "a\"b\\c\u2028é"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.in.Encode()
			// The same bytes as json.Marshal: cursors handed out before stay the same.
			if want, _ := json.Marshal(c.in); s != base64.RawURLEncoding.EncodeToString(want) {
				t.Errorf("cursor %q is not the base64 of %s", s, want)
			}
			if strings.ContainsAny(s, "+/=") {
				t.Errorf("cursor %q is not URL-safe", s)
			}
			got, err := Decode(s)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, c.want) {
				t.Errorf("Decode(Encode(%+v)) = %+v, want %+v", c.in, *got, c.want)
			}
		})
	}
}

func TestCursorTime(t *testing.T) {
	when := time.Date(2026, 1, 2, 3, 4, 5, 6, time.FixedZone("x", 3600))
	t.Run("OK", func(t *testing.T) {
		c, err := Decode(Cursor{Key: when, ID: "i"}.Encode())
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Time()
		if err != nil || !got.Equal(when) {
			t.Fatalf("Time() = %v, %v; want %v", got, err, when)
		}
	})
	for name, key := range map[string]any{"ErrString": "yesterday", "ErrNumber": 3, "ErrNone": nil, "ErrDateOnly": "2026-01-02"} {
		t.Run(name, func(t *testing.T) {
			c, err := Decode(Cursor{Key: key, ID: "i"}.Encode())
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Time()
			wantInvalid(t, err, "page")
		})
	}
}

func TestCursorString(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		c, _ := Decode(Cursor{Key: "Zed", ID: "i"}.Encode())
		if s, err := c.String(); err != nil || s != "Zed" {
			t.Fatalf("String() = %q, %v", s, err)
		}
	})
	for name, key := range map[string]any{"ErrNumber": 3, "ErrNone": nil, "ErrObject": map[string]any{"a": "b"}} {
		t.Run(name, func(t *testing.T) {
			c, _ := Decode(Cursor{Key: key, ID: "i"}.Encode())
			_, err := c.String()
			wantInvalid(t, err, "page")
		})
	}
}

func TestDecodeGarbage(t *testing.T) {
	for name, s := range map[string]string{
		"ErrEmpty":         "",
		"ErrNotBase64":     "!!!",
		"ErrPadded":        base64.URLEncoding.EncodeToString([]byte(`{"i":"abc"}`)),
		"ErrStdAlphabet":   base64.StdEncoding.EncodeToString([]byte(`{"k":"??>","i":"a"}`)),
		"ErrNotJSON":       b64("hello"),
		"ErrJSONArray":     b64(`["a","b"]`),
		"ErrJSONString":    b64(`"abc"`),
		"ErrJSONNull":      b64(`null`),
		"ErrNoID":          b64(`{"k":"a"}`),
		"ErrEmptyID":       b64(`{"k":"a","i":""}`),
		"ErrIDNotString":   b64(`{"i":5}`),
		"ErrTruncatedJSON": b64(`{"i":"a"`),
		"ErrOffset":        "100",
		"ErrHugeNumber":    b64(`{"k":1e400,"i":"a"}`),
		"ErrNULInID":       b64(`{"k":"a","i":"x\u0000"}`),
		"ErrNULInKey":      b64(`{"k":"\u0000","i":"x"}`),
	} {
		t.Run(name, func(t *testing.T) {
			c, err := Decode(s)
			if c != nil {
				t.Errorf("Decode(%q) = %+v", s, c)
			}
			wantInvalid(t, err, "page")
		})
	}
	t.Run("ErrLongTokenTruncatedInMessage", func(t *testing.T) {
		_, err := Decode(strings.Repeat("z", 10000))
		wantInvalid(t, err, "page", "…")
		if n := len(apperr.As(err).Message); n > 200 {
			t.Errorf("message is %d bytes long", n)
		}
	})
}

func TestTrim(t *testing.T) {
	rows := []string{"a", "b", "c"}
	cursorOf := func(s string) Cursor { return Cursor{Key: s, ID: "id-" + s} }
	t.Run("OKMoreRows", func(t *testing.T) {
		p := Trim(rows, 2, 7, cursorOf)
		if !reflect.DeepEqual(p.Items, []string{"a", "b"}) || p.Count != 7 || p.Next == nil || *p.Next != cursorOf("b") {
			t.Fatalf("Trim = %+v", p)
		}
	})
	t.Run("OKLastPage", func(t *testing.T) {
		p := Trim(rows, 3, 3, cursorOf)
		if len(p.Items) != 3 || p.Next != nil {
			t.Fatalf("Trim = %+v", p)
		}
	})
	t.Run("OKZeroLimit", func(t *testing.T) {
		p := Trim(rows[:1], 0, 9, cursorOf)
		if len(p.Items) != 0 || p.Next != nil || p.Count != 9 {
			t.Fatalf("Trim = %+v", p)
		}
	})
	t.Run("OKEmpty", func(t *testing.T) {
		p := Trim([]string(nil), 10, 0, cursorOf)
		if len(p.Items) != 0 || p.Next != nil {
			t.Fatalf("Trim = %+v", p)
		}
	})
}

func TestOrderSQL(t *testing.T) {
	for _, d := range []string{dialect.SQLite, dialect.Postgres} {
		t.Run("OKApplyAndAfter"+d, func(t *testing.T) {
			s := sql.Dialect(d).Select("*").From(sql.Table("members"))
			o := Order{Column: "joined_at", Desc: true}
			o.After(s, "k", "id1")
			o.Apply(s)
			q, args := s.Query()
			for _, w := range []string{"joined_at", "< ", "ORDER BY", "DESC"} {
				if !strings.Contains(q, w) {
					t.Errorf("%s: %q lacks %q", d, q, w)
				}
			}
			if !reflect.DeepEqual(args, []any{"k", "k", "id1"}) {
				t.Errorf("args = %v", args)
			}
		})
		t.Run("OKAfterNilKey"+d, func(t *testing.T) {
			s := sql.Dialect(d).Select("*").From(sql.Table("members"))
			Order{Column: "last_seen_at"}.After(s, nil, "id1")
			q, args := s.Query()
			if strings.Contains(q, "last_seen_at") || !reflect.DeepEqual(args, []any{"id1"}) {
				t.Errorf("%q %v: a nil key compares by id alone", q, args)
			}
		})
		t.Run("OKLimitPerCompositeParent"+d, func(t *testing.T) {
			s := sql.Dialect(d).Select("id", "organization_id", "user_id", "created_at").From(sql.Table("team_members"))
			Order{Column: "created_at"}.LimitPerParent(6, "organization_id", "user_id")(s)
			q, args := s.Query()
			for _, w := range []string{`PARTITION BY "organization_id", "user_id" ORDER BY "created_at" ASC, "id" ASC`,
				`"team_members"."organization_id", "team_members"."user_id", "team_members"."created_at" ASC`, "row_number"} {
				if !strings.Contains(q, w) {
					t.Errorf("%s: %q lacks %q", d, q, w)
				}
			}
			if !reflect.DeepEqual(args, []any{6}) {
				t.Errorf("args = %v", args)
			}
		})
	}
}

// FuzzDecodeCursor: Decode never panics, refuses with INVALID, and what it accepts re-encodes
// to a token that decodes to the same cursor. It decodes the fuzzed text as it is and the fuzzed
// bytes as the JSON inside a token, so mutations reach the JSON reader too.
func FuzzDecodeCursor(f *testing.F) {
	for _, c := range []Cursor{{ID: "a"}, {Key: "title", ID: "b"}, {Key: 3.5, ID: "c"},
		{Key: time.Date(2026, 1, 1, 0, 0, 0, 1, time.UTC), ID: "d"}, {Key: []any{"x", 1.0}, ID: "e"}} {
		raw, _ := base64.RawURLEncoding.DecodeString(c.Encode())
		f.Add(c.Encode(), raw)
	}
	for _, s := range []string{"", "!", "=", "eyJpIjoiYSJ9", "eyJpIjoiYSJ9\n", `{"I":"a"}`, `{"i":"a","i":"b"}`,
		"{\"k\":\"\xff\",\"i\":\"a\"}", `{"k":{"a":[null,true]},"i":"a"}`, `{"k":-0,"i":"\u0000"}`, `{"k":1e308,"i":"\ud800"}`} {
		f.Add(s, []byte(s))
	}
	f.Fuzz(func(t *testing.T, token string, inside []byte) {
		checkDecode(t, token)
		checkDecode(t, base64.RawURLEncoding.EncodeToString(inside))
	})
}

func checkDecode(t *testing.T, s string) {
	t.Helper()
	c, err := Decode(s)
	if err != nil {
		if c != nil {
			t.Fatalf("Decode(%q) returned a cursor and %v", s, err)
		}
		if e := apperr.As(err); e == nil || e.Kind != apperr.Invalid {
			t.Fatalf("Decode(%q): %v is not INVALID", s, err)
		}
		return
	}
	if c.ID == "" {
		t.Fatalf("Decode(%q) accepted a cursor without an id", s)
	}
	if key, _ := c.Key.(string); strings.ContainsRune(c.ID+key, 0) {
		t.Fatalf("Decode(%q) accepted NUL characters, which PostgreSQL cannot compare: %+v", s, c)
	}
	again, err := Decode(c.Encode())
	if err != nil {
		t.Fatalf("Decode(%q) = %+v, whose encoding %q does not decode: %v", s, c, c.Encode(), err)
	}
	if !reflect.DeepEqual(again, c) {
		t.Fatalf("Decode(%q) = %+v, re-encoded and decoded %+v", s, c, again)
	}
	// The accessors refuse keys of another type; they never panic.
	_, _ = c.Time()
	_, _ = c.String()
}
