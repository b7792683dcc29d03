package rest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// logLines returns the lines logged into buf.
func logLines(buf *testenv.LockedBuffer) []string {
	return strings.Split(strings.TrimSpace(buf.String()), "\n")
}

// untilAccessLine returns the lines logged into buf once the access line of a request is among
// them: the server finishes a request after its client gave up on it, and the access line is its
// last.
func untilAccessLine(t *testing.T, buf *testenv.LockedBuffer) []string {
	t.Helper()
	for range 500 {
		if lines := logLines(buf); strings.Contains(lines[len(lines)-1], "msg=request ") {
			return lines
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no access line after 10 s; logged:\n%s", buf)
	return nil
}

// giveUpMidRequest sends a request as a and cancels it once held is closed: the client goes away
// while the server is inside the request.
func giveUpMidRequest(t *testing.T, e *testenv.Env, a testenv.Actor, method, path, body string, held <-chan struct{}) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-held:
			cancel()
		case <-ctx.Done():
		}
	}()
	req, err := http.NewRequestWithContext(ctx, method, e.Server.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+a.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err := e.Server.Client().Do(req)
	if err == nil {
		res.Body.Close()
		t.Fatalf("the request was answered (%d) before its client went away", res.StatusCode)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}

// readsTable returns a statement matcher for the statements that name table.
func readsTable(table string) func(string) bool {
	return func(query string) bool { return strings.Contains(query, table) }
}

// wantOnlyAccessLine fails unless lines are one access line with status.
func wantOnlyAccessLine(t *testing.T, lines []string, status string) {
	t.Helper()
	if len(lines) != 1 || !strings.Contains(lines[0], " status="+status+" ") {
		t.Fatalf("want only the access line with status %s, logged:\n%s", status, strings.Join(lines, "\n"))
	}
}

func TestClientGoneLogsOnlyTheAccessLine(t *testing.T) {
	t.Run("GraphQL", func(t *testing.T) {
		e := testenv.New(t, batchingOptions)
		u := gqlJoinOrgs(t, e, 3)
		// The organizations and their members are read; their users, counts and teams are not:
		// every one of those fields fails once the statement goes on.
		held := e.HoldStatement(readsTable("team_members"))
		logs := testenv.CaptureLog(t)
		query, _ := json.Marshal(map[string]string{"query": graphQLTree})
		giveUpMidRequest(t, e, u, http.MethodPost, "/graphql", string(query), held)
		wantOnlyAccessLine(t, untilAccessLine(t, logs), "499")
	})
	t.Run("REST", func(t *testing.T) {
		e := testenv.New(t)
		admin, org := e.Bootstrap("ada@example.com", "Acme")
		held := e.HoldStatement(readsTable("teams"))
		logs := testenv.CaptureLog(t)
		giveUpMidRequest(t, e, admin, http.MethodGet, "/v1/orgs/"+org+"/teams", "", held)
		wantOnlyAccessLine(t, untilAccessLine(t, logs), "499")
	})
}

func TestDeadlineAnswersTimeout(t *testing.T) {
	shortDeadline := func(o *server.Options) { o.RequestTimeout = time.Second }
	// wantDeadlineLines fails unless lines are the deadline's warning and the access line.
	wantDeadlineLines := func(t *testing.T, lines []string, status string) {
		t.Helper()
		if len(lines) != 2 || !strings.Contains(lines[0], "level=WARN msg=\"request deadline exceeded\"") {
			t.Fatalf("want the deadline's warning, then the access line; logged:\n%s", strings.Join(lines, "\n"))
		}
		wantOnlyAccessLine(t, lines[1:], status)
	}
	t.Run("REST/503", func(t *testing.T) {
		e := testenv.New(t, shortDeadline)
		admin, org := e.Bootstrap("ada@example.com", "Acme")
		e.HoldStatement(readsTable("teams"))
		logs := testenv.CaptureLog(t)
		r := e.Raw(admin, http.MethodGet, "/v1/orgs/"+org+"/teams", "", nil)
		if msg := testenv.CheckError(t, r, http.StatusServiceUnavailable); msg != "The request took too long." {
			t.Errorf("message %q", msg)
		}
		wantDeadlineLines(t, untilAccessLine(t, logs), "503")
	})
	t.Run("GraphQL/TIMEOUT", func(t *testing.T) {
		e := testenv.New(t, shortDeadline)
		admin, _ := e.Bootstrap("ada@example.com", "Acme")
		e.HoldStatement(readsTable("teams"))
		logs := testenv.CaptureLog(t)
		g := e.GraphQL(admin, `{ organizations(first: 5) { edges { node { id teams(first: 5) { totalCount } } } } }`, nil)
		if g.Status != http.StatusOK || g.Code() != "TIMEOUT" {
			t.Fatalf("want a TIMEOUT error, got %d %+v", g.Status, g.Errors)
		}
		wantDeadlineLines(t, untilAccessLine(t, logs), "200")
	})
}
