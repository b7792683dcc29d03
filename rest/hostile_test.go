package rest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/rest"
)

// hostileFixture is an organization with an admin, a reader and a team, and the paths of every
// REST write the hostile inputs are sent to.
type hostileFixture struct {
	e      *testenv.Env
	admin  testenv.Actor
	reader testenv.Actor
	org    string
	team   string
	writes []hostileWrite
}

// hostileWrite is one REST write: its method and path, and a body it accepts.
type hostileWrite struct {
	name, method, path string
	valid              string
}

func newHostileFixture(t *testing.T) *hostileFixture {
	t.Helper()
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	reader := e.User("rob@example.com", org, testenv.Role(viewer.RoleRead))
	r := e.Do(admin, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "Core", "members": []string{reader.UserID}})
	hostileStatus(t, r, http.StatusCreated)
	team, _ := r.Map(t)["id"].(string)
	orgPath, teamPath := "/v1/orgs/"+org, "/v1/orgs/"+org+"/teams/"+team
	return &hostileFixture{e: e, admin: admin, reader: reader, org: org, team: team, writes: []hostileWrite{
		{"CreateOrganization", "POST", "/v1/orgs", `{"title":"Other"}`},
		{"UpdateOrganization", "PATCH", orgPath, `{"title":"Acme"}`},
		{"CreateTeam", "PUT", orgPath + "/teams", `{"title":"Docs"}`},
		{"UpdateTeamMembers", "PUT", teamPath + "/members", `{"add":["` + admin.UserID + `"]}`},
		{"SetTeamMember", "PUT", teamPath + "/members/" + reader.UserID, `{"role":"member"}`},
		{"UpdateMember", "PATCH", orgPath + "/members/" + reader.UserID, `{"role":"read"}`},
	}}
}

func (f *hostileFixture) write(name string) hostileWrite {
	for _, w := range f.writes {
		if w.name == name {
			return w
		}
	}
	panic("no write " + name)
}

// state is everything a failed write could have changed, as the API shows it.
func (f *hostileFixture) state(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, p := range []string{"/v1/orgs", "/v1/orgs/" + f.org, "/v1/orgs/" + f.org + "/members",
		"/v1/orgs/" + f.org + "/teams", "/v1/orgs/" + f.org + "/teams/" + f.team + "/members"} {
		r := f.e.Do(f.admin, "GET", p, nil)
		hostileStatus(t, r, http.StatusOK)
		b.Write(r.Body)
		b.WriteByte('\n')
	}
	return b.String()
}

// refuse sends a raw body, expects the error body with status (and each word in its message),
// and checks that nothing changed.
func (f *hostileFixture) refuse(t *testing.T, method, path, contentType string, body []byte, status int, words ...string) {
	t.Helper()
	before := f.state(t)
	r := f.e.Raw(f.admin, method, path, contentType, bytes.NewReader(body))
	msg := testenv.CheckError(t, r, status)
	for _, w := range words {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not name %q", msg, w)
		}
	}
	hostileNoInternals(t, msg)
	if after := f.state(t); after != before {
		t.Errorf("a refused %s %s changed the state:\nbefore %s\nafter  %s", method, path, before, after)
	}
}

var hostileInternals = regexp.MustCompile(`\bent:|validator failed|(?i)\bsql|constraint|panic|goroutine`)

// hostileNoInternals asserts that an error message speaks of the API, not of the storage.
func hostileNoInternals(t *testing.T, msg string) {
	t.Helper()
	if m := hostileInternals.FindString(msg); m != "" {
		t.Errorf("message %q shows internals (%q)", msg, m)
	}
}

func hostileStatus(t *testing.T, r testenv.Response, want int) {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status %d, want %d: %s", r.Status, want, r.Body)
	}
}

func TestHostileMalformedJSON(t *testing.T) {
	f := newHostileFixture(t)
	bodies := map[string]string{
		"ErrTruncated":       `{"title":"Acm`,
		"ErrTrailingGarbage": `{"title":"Acme"} x`,
		"ErrTwoValues":       `{"title":"Acme"}{"title":"Acme"}`,
		"ErrArray":           `[{"title":"Acme"}]`,
		"ErrBareString":      `"Acme"`,
		"ErrNumber":          `42`,
		"ErrNull":            `null`,
		"ErrNotJSON":         `title=Acme`,
		"ErrSingleQuotes":    `{'title':'Acme'}`,
		"ErrTrailingComma":   `{"title":"Acme",}`,
	}
	for _, w := range f.writes {
		t.Run(w.name, func(t *testing.T) {
			for name, body := range bodies {
				t.Run(name, func(t *testing.T) {
					f.refuse(t, w.method, w.path, "application/json", []byte(body), http.StatusBadRequest, "request body")
				})
			}
		})
	}
}

func TestHostileWrongTypes(t *testing.T) {
	f := newHostileFixture(t)
	cases := []struct {
		write, field string
		bodies       []string
	}{
		{"CreateOrganization", "title", []string{`{"title":42}`, `{"title":true}`, `{"title":{}}`, `{"title":["Acme"]}`}},
		{"CreateOrganization", "emailDomains", []string{`{"title":"Other","emailDomains":"example.com"}`,
			`{"title":"Other","emailDomains":[42]}`, `{"title":"Other","emailDomains":{"a":"b"}}`}},
		{"UpdateOrganization", "title", []string{`{"title":42}`, `{"title":false}`, `{"title":[]}`}},
		{"UpdateOrganization", "emailDomains", []string{`{"emailDomains":"example.com"}`, `{"emailDomains":[null]}`}},
		{"UpdateOrganization", "hostname", []string{`{"hostname":42}`, `{"hostname":["docs"]}`}},
		{"UpdateOrganization", "defaultRole", []string{`{"defaultRole":1}`, `{"defaultRole":"overlord"}`, `{"defaultRole":"ADMIN "}`}},
		{"UpdateOrganization", "defaultContent", []string{`{"defaultContent":"site"}`, `{"defaultContent":{"site":42}}`}},
		{"UpdateOrganization", "logo", []string{`{"logo":42}`, `{"logo":{"url":"https://x.test/a.png"}}`}},
		{"UpdateOrganization", "sso", []string{`{"sso":"yes"}`, `{"sso":1}`}},
		{"UpdateOrganization", "ai", []string{`{"ai":"true"}`}},
		{"UpdateOrganization", "inviteLinks", []string{`{"inviteLinks":0}`}},
		{"CreateTeam", "title", []string{`{"title":42}`, `{"title":{"en":"Docs"}}`}},
		{"CreateTeam", "members", []string{`{"title":"Docs","members":"u1"}`, `{"title":"Docs","members":[42]}`}},
		{"UpdateTeamMembers", "add", []string{`{"add":"u1"}`, `{"add":[42]}`, `{"add":[{"id":"u1"}]}`}},
		{"UpdateTeamMembers", "remove", []string{`{"remove":"u1"}`, `{"remove":[true]}`}},
		{"UpdateTeamMembers", "memberships", []string{`{"memberships":"owner"}`, `{"memberships":["owner"]}`,
			`{"memberships":{"` + f.reader.UserID + `":"owner"}}`, `{"memberships":{"` + f.reader.UserID + `":{"role":1}}}`,
			`{"memberships":{"` + f.reader.UserID + `":{"role":"boss"}}}`}},
		{"SetTeamMember", "role", []string{`{"role":1}`, `{"role":"boss"}`, `{"role":["owner"]}`}},
		{"UpdateMember", "role", []string{`{"role":1}`, `{"role":"overlord"}`, `{"role":true}`, `{"role":"Admin"}`}},
	}
	for _, c := range cases {
		w := f.write(c.write)
		t.Run(c.write+"/Err"+c.field, func(t *testing.T) {
			for _, body := range c.bodies {
				f.refuse(t, w.method, w.path, "application/json", []byte(body), http.StatusBadRequest, c.field)
			}
		})
	}
}

func TestHostileNullWhereRequired(t *testing.T) {
	f := newHostileFixture(t)
	cases := []struct{ write, field, body string }{
		{"CreateOrganization", "title", `{"title":null}`},
		{"UpdateOrganization", "title", `{"title":null}`},
		{"UpdateOrganization", "emailDomains", `{"emailDomains":null}`},
		{"UpdateOrganization", "sso", `{"sso":null}`},
		{"UpdateOrganization", "ai", `{"ai":null}`},
		{"UpdateOrganization", "inviteLinks", `{"inviteLinks":null}`},
		{"CreateTeam", "title", `{"title":null}`},
		{"UpdateTeamMembers", "memberships", `{"memberships":{"` + f.reader.UserID + `":null}}`},
		{"UpdateTeamMembers", "memberships", `{"memberships":{"` + f.reader.UserID + `":{"role":null}}}`},
	}
	for _, c := range cases {
		w := f.write(c.write)
		t.Run(c.write+"/Err"+c.field, func(t *testing.T) {
			f.refuse(t, w.method, w.path, "application/json", []byte(c.body), http.StatusBadRequest, c.field)
		})
	}
}

func TestHostileNUL(t *testing.T) {
	f := newHostileFixture(t)
	t.Run("ErrBody", func(t *testing.T) {
		for _, w := range f.writes {
			f.refuse(t, w.method, w.path, "application/json", []byte(`{"title":"Ac\u0000me","role":"read"}`), http.StatusBadRequest, "NUL")
		}
	})
	t.Run("ErrRawNULByte", func(t *testing.T) {
		f.refuse(t, "POST", "/v1/orgs", "application/json", []byte("{\"title\":\"Ac\x00me\"}"), http.StatusBadRequest, "NUL")
	})
	t.Run("ErrPath", func(t *testing.T) {
		for _, w := range f.writes {
			f.refuse(t, w.method, w.path+"%00", "application/json", []byte(w.valid), http.StatusBadRequest, "NUL")
		}
		f.refuse(t, "PATCH", "/v1/orgs/"+f.org+"%00x", "application/json", []byte(`{"title":"Other"}`), http.StatusBadRequest, "NUL")
	})
	t.Run("ErrQuery", func(t *testing.T) {
		for _, p := range []string{"/members?search=a%00b", "/teams?title=%00", "/members?role=read%00"} {
			r := f.e.Raw(f.admin, "GET", "/v1/orgs/"+f.org+p, "", nil)
			testenv.CheckError(t, r, http.StatusBadRequest)
		}
		f.refuse(t, "PATCH", "/v1/orgs/"+f.org+"?x=%00", "application/json", []byte(`{"title":"Other"}`), http.StatusBadRequest, "NUL")
	})
}

func TestHostileInvalidUTF8InURL(t *testing.T) {
	f := newHostileFixture(t)
	org := "/v1/orgs/" + f.org
	for _, p := range []string{"/v1/orgs/%C0", "/v1/users/%FF", org + "/members/%C0", org + "/members/%C0/teams",
		org + "/teams/%C0", org + "/link-invites/%ED%A0%80", org + "/teams?owner=%C0", org + "/members?search=%C0",
		org + "/members?%C0=x", "/v1/email-domains/%C0.com/orgs"} {
		r := f.e.Raw(f.admin, "GET", p, "", nil)
		if msg := testenv.CheckError(t, r, http.StatusBadRequest); !strings.Contains(msg, "UTF-8") {
			t.Errorf("GET %s: message %q does not say UTF-8", p, msg)
		}
	}
	f.refuse(t, "PATCH", org+"/members/%C0", "application/json", []byte(`{"role":"edit"}`), http.StatusBadRequest, "UTF-8")
	f.refuse(t, "PUT", org+"/teams/"+f.team+"/members/%C0", "application/json", []byte(`{}`), http.StatusBadRequest, "UTF-8")
}

func TestHostileBodyTooLarge(t *testing.T) {
	f := newHostileFixture(t)
	huge := []byte(`{"title":"` + strings.Repeat("x", 1<<20) + `"}`)
	for _, w := range f.writes {
		t.Run(w.name+"/ErrTooLarge", func(t *testing.T) {
			f.refuse(t, w.method, w.path, "application/json", huge, http.StatusRequestEntityTooLarge, "bytes")
		})
	}
	t.Run("ErrTooLargeWithoutLength", func(t *testing.T) {
		// A chunked body has no Content-Length: the limit holds while reading.
		before := f.state(t)
		req, err := http.NewRequest("POST", f.e.Server.URL+"/v1/orgs", struct{ *bytes.Reader }{bytes.NewReader(huge)})
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+f.admin.Token)
		res, err := f.e.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body bytes.Buffer
		_, _ = body.ReadFrom(res.Body)
		testenv.CheckError(t, testenv.Response{Status: res.StatusCode, Body: body.Bytes()}, http.StatusRequestEntityTooLarge)
		if f.state(t) != before {
			t.Error("a refused body changed the state")
		}
	})
	t.Run("OKJustUnderTheLimit", func(t *testing.T) {
		// Unknown fields are ignored: a body of almost 1 MiB is read and accepted.
		pad := strings.Repeat("x", 1<<20-100)
		r := f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org, `{"title":"Acme","pad":"`+pad+`"}`)
		hostileStatus(t, r, http.StatusOK)
	})
}

func TestHostileUnicode(t *testing.T) {
	f := newHostileFixture(t)
	t.Run("OKTitles", func(t *testing.T) {
		for _, title := range []string{
			"🚀 Launch 👩‍👩‍👧‍👦",       // emoji, with a zero-width-joiner sequence
			"\u200fשלום עולם\u200f",  // right-to-left marks around Hebrew
			"e\u0301cole cafe\u0301", // combining acute accents
			"\u202eevil\u202c",       // right-to-left override
			"Ｗｉｄｅ 𝕏 ﬁ",               // full-width, mathematical and ligature characters
		} {
			r := f.e.Do(f.admin, "POST", "/v1/orgs", map[string]any{"title": title})
			hostileStatus(t, r, http.StatusCreated)
			id, _ := r.Map(t)["id"].(string)
			got := f.e.Do(f.admin, "GET", "/v1/orgs/"+id, nil).Map(t)["title"]
			if got != title {
				t.Errorf("title %q came back as %q", title, got)
			}
		}
	})
	t.Run("OKFourByteTitleAtBound", func(t *testing.T) {
		title := strings.Repeat("𝕏", 255) // 255 characters, 1020 bytes
		r := f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org, map[string]any{"title": title})
		hostileStatus(t, r, http.StatusOK)
		if got := r.Map(t)["title"]; got != title {
			t.Errorf("title came back as %q", got)
		}
		f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org, map[string]any{"title": "Acme"})
	})
	t.Run("ErrFourByteTitleOverBound", func(t *testing.T) {
		body, _ := json.Marshal(map[string]any{"title": strings.Repeat("𝕏", 256)})
		f.refuse(t, "PATCH", "/v1/orgs/"+f.org, "application/json", body, http.StatusBadRequest, "title", "255")
		f.refuse(t, "POST", "/v1/orgs", "application/json", body, http.StatusBadRequest, "title", "255")
	})
	t.Run("OKTeamTitleAtBound", func(t *testing.T) {
		r := f.e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/teams", map[string]any{"title": strings.Repeat("👩‍💻", 16)}) // 64 code points
		hostileStatus(t, r, http.StatusCreated)
	})
	t.Run("ErrTeamTitleOverBound", func(t *testing.T) {
		body, _ := json.Marshal(map[string]any{"title": strings.Repeat("𝕏", 65)})
		f.refuse(t, "PUT", "/v1/orgs/"+f.org+"/teams", "application/json", body, http.StatusBadRequest, "title", "64")
	})
	t.Run("ErrHostnameOverBoundInCharacters", func(t *testing.T) {
		body, _ := json.Marshal(map[string]any{"hostname": strings.Repeat("é", 33)})
		f.refuse(t, "PATCH", "/v1/orgs/"+f.org, "application/json", body, http.StatusBadRequest, "hostname", "32")
	})
	t.Run("OKBoundsCountCharactersNotBytes", func(t *testing.T) {
		// 32 two-byte characters (64 bytes) are within hostname's 3..32, a logo URL of 2048
		// characters with two-byte ones within its 2048: refused or not, never by a byte count.
		for _, body := range []map[string]any{
			{"hostname": strings.Repeat("é", 32)},
			{"logo": "https://example.com/" + strings.Repeat("é", 2048-len("https://example.com/"))},
		} {
			r := f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org, body)
			if r.Status != http.StatusOK {
				hostileNoInternals(t, testenv.CheckError(t, r, http.StatusBadRequest))
			}
		}
		f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org, map[string]any{"hostname": nil, "logo": nil})
	})
	t.Run("OKInvalidUTF8", func(t *testing.T) {
		// Invalid bytes are refused or read as U+FFFD, never a 500 nor stored as they came.
		for _, raw := range [][]byte{[]byte("{\"title\":\"Ac\xffme\"}"), []byte("{\"title\":\"\xc3\x28 x\"}"),
			[]byte("{\"title\":\"\xed\xa0\x80 surrogate\"}"), []byte("{\"title\":\"x\xf4\x90\x80\x80\"}")} {
			r := f.e.Raw(f.admin, "POST", "/v1/orgs", "application/json", bytes.NewReader(raw))
			switch r.Status {
			case http.StatusBadRequest:
				testenv.CheckError(t, r, http.StatusBadRequest)
			case http.StatusCreated:
				title, _ := r.Map(t)["title"].(string)
				if !strings.ContainsRune(title, '\uFFFD') {
					t.Errorf("%q stored as %q", raw, title)
				}
			default:
				t.Errorf("%q: %d %s", raw, r.Status, r.Body)
			}
		}
	})
	t.Run("ErrInvalidUTF8InKey", func(t *testing.T) {
		r := f.e.Raw(f.admin, "PATCH", "/v1/orgs/"+f.org, "application/json", strings.NewReader("{\"ti\xfftle\":\"X\"}"))
		if r.Status >= 500 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
}

func TestHostileLongQueryStrings(t *testing.T) {
	f := newHostileFixture(t)
	long := strings.Repeat("a", 10000)
	cases := []struct{ path, field string }{
		{"/members?search=" + long, "search"},
		{"/members?search=" + strings.Repeat("é", 257), "search"},
		{"/teams?title=" + long, "title"},
		{"/members/" + f.reader.UserID + "/teams?title=" + long, "title"},
		{"/members?role=" + long, "role"},
		{"/members?sort=" + long, "sort"},
		{"/members?limit=" + long, "limit"},
		{"/members?page=" + long, "page"},
	}
	for _, c := range cases {
		t.Run("Err"+c.field, func(t *testing.T) {
			r := f.e.Raw(f.admin, "GET", "/v1/orgs/"+f.org+c.path, "", nil)
			msg := testenv.CheckError(t, r, http.StatusBadRequest)
			if !strings.Contains(msg, c.field) {
				t.Errorf("message %q does not name %s", msg, c.field)
			}
			if len(msg) > 1000 {
				t.Errorf("message echoes the whole input: %d bytes", len(msg))
			}
		})
	}
	t.Run("OKSearchAtBound", func(t *testing.T) {
		r := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/members?search="+strings.Repeat("é", 256), nil)
		hostileStatus(t, r, http.StatusOK)
	})
	t.Run("ErrHugeURL", func(t *testing.T) {
		// Over the server's header limit: refused before any handler, never a 500.
		r := f.e.Raw(f.admin, "GET", "/v1/orgs/"+f.org+"/members?search="+strings.Repeat("a", 2<<20), "", nil)
		if r.Status < 400 || r.Status >= 500 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
}

func TestHostileContentType(t *testing.T) {
	f := newHostileFixture(t)
	t.Run("OKAnyContentType", func(t *testing.T) {
		// The body is read as JSON whatever the client says it is (curl sends form encoding).
		for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "application/json; charset=utf-8"} {
			r := f.e.Raw(f.admin, "PATCH", "/v1/orgs/"+f.org, ct, strings.NewReader(`{"title":"Acme"}`))
			hostileStatus(t, r, http.StatusOK)
		}
	})
	t.Run("ErrFormBody", func(t *testing.T) {
		f.refuse(t, "PATCH", "/v1/orgs/"+f.org, "application/x-www-form-urlencoded", []byte("title=Other"),
			http.StatusBadRequest, "request body")
	})
}

// TestHostileTextNamesTheField: a string of a body that is not text — invalid UTF-8, an escaped
// NUL — is refused naming its field, in REST bodies, GraphQL variables and GraphQL literals
// (whose own escapes, "\u0000" and "\u{0}", make a NUL the JSON around them does not show).
func TestHostileTextNamesTheField(t *testing.T) {
	f := newHostileFixture(t)
	org := "/v1/orgs/" + f.org
	t.Run("ErrRESTInvalidUTF8", func(t *testing.T) {
		f.refuse(t, "PATCH", org, "application/json", []byte("{\"title\":\"Ac\xffme\"}"), http.StatusBadRequest,
			"title: must be valid UTF-8 (an invalid byte at 2)")
	})
	t.Run("ErrRESTNestedNUL", func(t *testing.T) {
		f.refuse(t, "PATCH", org, "application/json", []byte(`{"emailDomains":["a.com","b\u0000.com"]}`), http.StatusBadRequest,
			"emailDomains[1]: must not contain NUL characters")
	})
	gql := func(t *testing.T, body, want string) {
		t.Helper()
		before := f.state(t)
		r := f.e.Raw(f.admin, "POST", "/graphql", "application/json", strings.NewReader(body))
		if !strings.Contains(string(r.Body), want) || !strings.Contains(string(r.Body), `"code":"BAD_REQUEST"`) && r.Status != http.StatusBadRequest {
			t.Fatalf("%d %s: want %q", r.Status, r.Body, want)
		}
		if f.state(t) != before {
			t.Fatal("a refused mutation changed the state")
		}
	}
	mutation := `mutation($id: ID!, $in: UpdateOrganizationInput!) { updateOrganization(id: $id, input: $in) { title } }`
	t.Run("ErrGraphQLVariable", func(t *testing.T) {
		gql(t, `{"query":"`+mutation+`","variables":{"id":"`+f.org+`","in":{"title":"Ac\u0000me"}}}`,
			"variables.in.title: must not contain NUL characters")
	})
	for name, literal := range map[string]string{"ErrGraphQLLiteral": `\\u0000`, "ErrGraphQLBracedLiteral": `\\u{0}`} {
		t.Run(name, func(t *testing.T) {
			gql(t, `{"query":"mutation { updateOrganization(id: \"`+f.org+`\", input: {title: \"Ac`+literal+`me\"}) { title } }"}`,
				"updateOrganization.input.title: must not contain NUL characters (one at byte 2)")
		})
	}
}

// TestHostileRawRequests: what net/http refuses before any handler runs — headers over the limit,
// a request without Host — answers the API's error body, over a real connection, also after an
// earlier request on the same connection.
func TestHostileRawRequests(t *testing.T) {
	f := newHostileFixture(t)
	bearer := "Authorization: Bearer " + f.admin.Token + "\r\n"
	ok := "GET /v1/orgs/" + f.org + " HTTP/1.1\r\nHost: bindery\r\n" + bearer + "\r\n"
	cases := []struct {
		name     string
		requests []string // sent on one connection; the last one's answer is checked
		status   int
		words    string
	}{
		{"OKUnderTheLimit", []string{"GET /v1/orgs/" + f.org + " HTTP/1.1\r\nHost: bindery\r\nX-Pad: " + strings.Repeat("a", 60<<10) + "\r\n" + bearer + "\r\n"}, http.StatusOK, ""},
		{"ErrHeadersTooLarge", []string{"GET /v1/orgs HTTP/1.1\r\nHost: bindery\r\nX-Pad: " + strings.Repeat("a", 100<<10) + "\r\n\r\n"}, http.StatusRequestHeaderFieldsTooLarge, "request headers: must be at most 65536 bytes"},
		{"ErrHeadersTooLargeAfterARequest", []string{ok, "GET /v1/orgs HTTP/1.1\r\nHost: bindery\r\nX-Pad: " + strings.Repeat("a", 100<<10) + "\r\n\r\n"}, http.StatusRequestHeaderFieldsTooLarge, "request headers"},
		{"ErrNoHost", []string{"GET /v1/orgs HTTP/1.1\r\n\r\n"}, http.StatusBadRequest, "missing required Host header"},
		{"ErrMalformedHeader", []string{"GET /v1/orgs HTTP/1.1\r\nHost: bindery\r\nno colon here\r\n\r\n"}, http.StatusBadRequest, "malformed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", f.e.Server.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			br := bufio.NewReader(conn)
			var res *http.Response
			for _, req := range c.requests {
				go conn.Write([]byte(req)) // the server may answer before it read everything
				if res, err = http.ReadResponse(br, nil); err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				res.Body = io.NopCloser(bytes.NewReader(body))
			}
			r := testenv.Response{Status: res.StatusCode}
			r.Body, _ = io.ReadAll(res.Body)
			if c.status == http.StatusOK {
				hostileStatus(t, r, http.StatusOK)
				return
			}
			if msg := testenv.CheckError(t, r, c.status); !strings.Contains(msg, c.words) {
				t.Fatalf("message %q does not say %q", msg, c.words)
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Fatalf("Content-Type %q", ct)
			}
		})
	}
}

// TestHostileRequestsLeaveNoSecretsInTheLog: bodies, tokens and cookies of refused requests never
// reach a log line (every level captured), and a body that does not decode is logged at info
// level, saying what was wrong.
func TestHostileRequestsLeaveNoSecretsInTheLog(t *testing.T) {
	f := newHostileFixture(t)
	logged := testenv.CaptureLog(t)
	const secret = "s3cr3tPayl0adX"
	org := "/v1/orgs/" + f.org
	raw := func(a testenv.Actor, method, path, body string, header ...string) testenv.Response {
		t.Helper()
		req, err := http.NewRequest(method, f.e.Server.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if a.Token != "" {
			req.Header.Set("Authorization", "Bearer "+a.Token)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := f.e.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return testenv.Response{Status: res.StatusCode, Body: b}
	}
	for _, c := range []struct {
		name   string
		send   func() testenv.Response
		status int
	}{
		{"MalformedJSON", func() testenv.Response { return raw(f.admin, "PATCH", org, `{"title":"`+secret) }, 400},
		{"WrongType", func() testenv.Response { return raw(f.admin, "PATCH", org, `{"title":5,"x":"`+secret+`"}`) }, 400},
		{"NUL", func() testenv.Response { return raw(f.admin, "PATCH", org, `{"title":"`+secret+`\u0000"}`) }, 400},
		{"NotUTF8", func() testenv.Response { return raw(f.admin, "PATCH", org, "{\"title\":\""+secret+"\xff\"}") }, 400},
		{"TooLarge", func() testenv.Response {
			return raw(f.admin, "PATCH", org, `{"title":"`+secret+strings.Repeat("x", 2<<20)+`"}`)
		}, 413},
		{"GraphQLMalformed", func() testenv.Response { return raw(f.admin, "POST", "/graphql", `{"query":"{ viewer { id } }`+secret) }, 400},
		{"GraphQLWrongType", func() testenv.Response {
			return raw(f.admin, "POST", "/graphql", `{"query":["`+secret+`"]}`)
		}, 400},
		{"WrongToken", func() testenv.Response {
			return raw(testenv.Actor{Token: "bdy_" + secret}, "GET", org+"?jwt_token="+secret, "")
		}, 401},
		{"WrongCookie", func() testenv.Response {
			return raw(testenv.Actor{}, "GET", org, "", "Cookie", rest.SessionCookie+"="+secret)
		}, 401},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.send()
			testenv.CheckError(t, r, c.status)
			if strings.Contains(string(r.Body), secret) {
				t.Errorf("the answer copies the request: %s", r.Body)
			}
		})
	}
	out := logged.String()
	for _, leak := range []string{secret, f.admin.Token} {
		if strings.Contains(out, leak) {
			t.Errorf("the log holds %q:\n%s", leak, out)
		}
	}
	if n := strings.Count(out, `level=INFO msg="request body refused"`); n != 7 {
		t.Errorf("%d refused bodies logged at info level, want 7:\n%s", n, out)
	}
}
