package rest_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/gitsync"

	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// signer sets the headers a git host sends with a push event signed with secret.
type signer func(h http.Header, body []byte, secret string)

func hmacHex(body []byte, secret string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// The hosts as they sign: GitHub's X-Hub-Signature-256, Gitea's (and Forgejo's) own header
// beside it, GitLab's secret token.
var hosts = map[string]signer{
	"GitHub": func(h http.Header, body []byte, secret string) {
		h.Set("X-GitHub-Event", "push")
		h.Set("X-Hub-Signature-256", "sha256="+hmacHex(body, secret))
	},
	"Gitea": func(h http.Header, body []byte, secret string) {
		h.Set("X-Gitea-Event", "push")
		h.Set("X-Gitea-Signature", hmacHex(body, secret))
		h.Set("X-Hub-Signature-256", "sha256="+hmacHex(body, secret))
	},
	"Forgejo": func(h http.Header, body []byte, secret string) {
		h.Set("X-Forgejo-Event", "push")
		h.Set("X-Forgejo-Signature", hmacHex(body, secret))
	},
	"GitLab": func(h http.Header, _ []byte, secret string) {
		h.Set("X-Gitlab-Event", "Push Hook")
		h.Set("X-Gitlab-Token", secret)
	},
}

// webhook posts a push event of the branch's head to the space's webhook, signed by sign.
func webhook(t *testing.T, e *testenv.Env, spaceID string, body []byte, sign func(http.Header, []byte)) testenv.Response {
	t.Helper()
	req, err := http.NewRequest("POST", e.Server.URL+"/v1/spaces/"+spaceID+"/git/webhook", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if sign != nil {
		sign(req.Header, body)
	}
	return e.Send(req)
}

func pushBody(ref, after string) []byte {
	b, _ := json.Marshal(map[string]any{"ref": ref, "before": strings.Repeat("1", 40), "after": after,
		"repository": map[string]any{"full_name": "acme/docs"}, "commits": []any{}})
	return b
}

// rotateSecret makes the webhook secret of the space's link as a.
func rotateSecret(t *testing.T, e *testenv.Env, a testenv.Actor, spaceID string) (url, secret string) {
	t.Helper()
	var hook struct{ URL, Secret string }
	r := e.Do(a, "POST", "/v1/spaces/"+spaceID+"/git/webhook-secret", nil)
	crWant(t, r, http.StatusOK)
	r.JSON(t, &hook)
	return hook.URL, hook.Secret
}

// importedHead is the commit the main content's revision went with.
func (f *gitFixture) importedHead(t *testing.T) any {
	t.Helper()
	_, git := f.revision(t)
	return git["oid"]
}

// TestGitSyncPushWebhook: a push to the linked branch, posted as each host signs it, queues the
// link's sync, which imports it; another branch, another event and Bindery's own commit queue
// nothing; a signature missing or wrong, another link's secret, a former secret, a body too big
// and a space without a link are refused with the error shape, and queue nothing.
func TestGitSyncPushWebhook(t *testing.T) {
	f := newGitFixture(t)
	main := "refs/heads/main"

	crWantError(t, f.e.Do(f.reader, "POST", f.spacePath("/git/webhook-secret"), nil), http.StatusForbidden)
	crWantError(t, f.e.Do(f.outsider, "POST", f.spacePath("/git/webhook-secret"), nil), http.StatusNotFound)
	head := gitrepo.Files(t, f.url)
	_, linked := f.revision(t)
	own := linked["oid"].(string)
	crWantError(t, webhook(t, f.e, f.space, pushBody(main, own), func(h http.Header, b []byte) { hosts["GitHub"](h, b, "guess") }),
		http.StatusUnauthorized, "no webhook secret")

	url, secret := rotateSecret(t, f.e, f.admin, f.space)
	if !strings.HasSuffix(url, "/v1/spaces/"+f.space+"/git/webhook") || len(secret) < 40 {
		t.Fatalf("webhook %q secret %q", url, secret)
	}
	g := f.e.GraphQL(f.admin, `query($id: ID!) { space(id: $id) { gitSync { hasWebhookSecret } } }`, map[string]any{"id": f.space})
	if !strings.Contains(string(g.Data), `"hasWebhookSecret":true`) || strings.Contains(string(g.Data), secret) {
		t.Fatalf("gitSync %s", g.Data)
	}

	// Bindery's own export, another branch, another event: nothing queued.
	for name, body := range map[string][]byte{"own commit": pushBody(main, own), "other branch": pushBody("refs/heads/draft", strings.Repeat("a", 40)),
		"deleted": pushBody(main, strings.Repeat("0", 40))} {
		r := webhook(t, f.e, f.space, body, func(h http.Header, b []byte) { hosts["GitHub"](h, b, secret) })
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"queued":false`) {
			t.Fatalf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	ping := webhook(t, f.e, f.space, []byte(`{"zen":"Keep it simple."}`), func(h http.Header, b []byte) {
		hosts["GitHub"](h, b, secret)
		h.Set("X-GitHub-Event", "ping")
	})
	if ping.Status != http.StatusOK || !strings.Contains(string(ping.Body), `"queued":false`) {
		t.Fatalf("ping %d %s", ping.Status, ping.Body)
	}

	// A person's push, announced by each host in turn, is imported.
	for _, host := range []string{"GitHub", "GitLab", "Gitea", "Forgejo"} {
		pushed := gitrepo.Push(t, f.url, map[string]string{"api.md": head["api.md"] + "\nFrom " + host + ".\n"}, "From "+host)
		if f.e.RunDueJobs(); f.importedHead(t) == pushed {
			t.Fatalf("%s: imported before the webhook", host)
		}
		r := webhook(t, f.e, f.space, pushBody(main, pushed), func(h http.Header, b []byte) { hosts[host](h, b, secret) })
		if r.Status != http.StatusAccepted || !strings.Contains(string(r.Body), `"queued":true`) {
			t.Fatalf("%s: %d %s", host, r.Status, r.Body)
		}
		f.e.RunDueJobs()
		if _, git := f.revision(t); git["oid"] != pushed {
			t.Fatalf("%s: the push was not imported: %v", host, git)
		}
		if !strings.Contains(f.markdown(t, "/content/page/"+f.pages["api"]), "From "+host+".") {
			t.Fatalf("%s: the page did not change", host)
		}
	}

	// Another link's secret, a former secret, a wrong or missing signature: 401, nothing queued.
	other := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Other"})["id"].(string)
	otherURL, _ := gitrepo.Bare(t)
	crWant(t, f.e.Do(f.admin, "POST", "/v1/spaces/"+other+"/git/export", map[string]any{"url": otherURL, "ref": main, "commitMessage": "Link"}), http.StatusNoContent)
	f.e.RunDueJobs()
	_, otherSecret := rotateSecret(t, f.e, f.admin, other)
	_, newSecret := rotateSecret(t, f.e, f.admin, f.space)
	pushed := gitrepo.Push(t, f.url, map[string]string{"api.md": "# API\n\nLast.\n"}, "Last")
	body := pushBody(main, pushed)
	for name, sign := range map[string]func(http.Header, []byte){
		"unsigned":            nil,
		"another link's":      func(h http.Header, b []byte) { hosts["GitHub"](h, b, otherSecret) },
		"former secret":       func(h http.Header, b []byte) { hosts["GitHub"](h, b, secret) },
		"GitLab former token": func(h http.Header, b []byte) { hosts["GitLab"](h, b, secret) },
		"Gitea another link":  func(h http.Header, b []byte) { hosts["Gitea"](h, b, otherSecret) },
		"not hex":             func(h http.Header, _ []byte) { h.Set("X-Hub-Signature-256", "sha256=zz") },
		"no prefix":           func(h http.Header, b []byte) { h.Set("X-Hub-Signature-256", hmacHex(b, newSecret)) },
		"another body's": func(h http.Header, _ []byte) {
			hosts["GitHub"](h, pushBody(main, strings.Repeat("b", 40)), newSecret)
		},
	} {
		crWantError(t, webhook(t, f.e, f.space, body, sign), http.StatusUnauthorized)
		if f.e.RunDueJobs(); f.importedHead(t) == pushed {
			t.Fatalf("%s: the push was imported", name)
		}
	}
	crWantError(t, webhook(t, f.e, "nosuchspace", body, func(h http.Header, b []byte) { hosts["GitHub"](h, b, newSecret) }), http.StatusNotFound)
	huge := pushBody(main, pushed)
	huge = append(huge[:len(huge)-1], []byte(`,"padding":"`+strings.Repeat("x", 2<<20)+`"}`)...)
	crWantError(t, webhook(t, f.e, f.space, huge, func(h http.Header, b []byte) { hosts["GitHub"](h, b, newSecret) }), http.StatusRequestEntityTooLarge)
	crWantError(t, webhook(t, f.e, f.space, []byte("not json"), func(h http.Header, b []byte) { hosts["GitHub"](h, b, newSecret) }), http.StatusBadRequest)
	if f.e.RunDueJobs(); f.importedHead(t) == pushed {
		t.Fatal("a refused webhook imported the push")
	}

	// The current secret works.
	r := webhook(t, f.e, f.space, body, func(h http.Header, b []byte) { hosts["GitHub"](h, b, newSecret) })
	crWant(t, r, http.StatusAccepted)
	if f.e.RunDueJobs(); !strings.Contains(f.markdown(t, "/content/page/"+f.pages["api"]), "Last.") {
		t.Fatal("the push was not imported")
	}

	// GraphQL makes one too (the space's admins only), which replaces the REST one.
	const rotate = `mutation($id: ID!) { rotateGitSyncWebhookSecret(spaceId: $id) { url secret } }`
	if g := f.e.GraphQL(f.reader, rotate, map[string]any{"id": f.space}); g.Code() != "FORBIDDEN" {
		t.Fatalf("a reader rotated the secret: %s", g.Data)
	}
	var hook struct{ RotateGitSyncWebhookSecret struct{ URL, Secret string } }
	if g := f.e.GraphQL(f.admin, rotate, map[string]any{"id": f.space}); len(g.Errors) > 0 || json.Unmarshal(g.Data, &hook) != nil {
		t.Fatalf("rotate: %s %v", g.Data, g.Errors)
	}
	gqlSecret := hook.RotateGitSyncWebhookSecret.Secret
	if hook.RotateGitSyncWebhookSecret.URL != url || gqlSecret == newSecret {
		t.Fatalf("GraphQL webhook %+v", hook)
	}
	crWantError(t, webhook(t, f.e, f.space, body, func(h http.Header, b []byte) { hosts["GitLab"](h, b, newSecret) }), http.StatusUnauthorized)
	crWant(t, webhook(t, f.e, f.space, body, func(h http.Header, b []byte) { hosts["GitLab"](h, b, gqlSecret) }), http.StatusOK)
}

// TestGitSyncPushWebhookFormEncoded: GitHub set to form encoding posts payload=<JSON>, signed
// as sent: it queues the sync as JSON does; a form without payload, or a payload that is not
// JSON, is 400; a signature over the JSON rather than the form is 401.
func TestGitSyncPushWebhookFormEncoded(t *testing.T) {
	f := newGitFixture(t)
	_, secret := rotateSecret(t, f.e, f.admin, f.space)
	pushed := gitrepo.Push(t, f.url, map[string]string{"api.md": "# API\n\nFrom a form.\n"}, "Form")
	event := pushBody("refs/heads/main", pushed)
	form := []byte(url.Values{"payload": {string(event)}}.Encode())
	formPost := func(body []byte, sign func(http.Header, []byte)) testenv.Response {
		return webhook(t, f.e, f.space, body, func(h http.Header, b []byte) {
			h.Set("Content-Type", "application/x-www-form-urlencoded")
			sign(h, b)
		})
	}
	github := func(h http.Header, b []byte) { hosts["GitHub"](h, b, secret) }
	crWantError(t, formPost(form, func(h http.Header, _ []byte) { hosts["GitHub"](h, event, secret) }), http.StatusUnauthorized)
	crWantError(t, formPost([]byte("zen=Keep+it+simple."), github), http.StatusBadRequest, "payload")
	crWantError(t, formPost([]byte("payload=not+json"), github), http.StatusBadRequest, "not JSON")
	crWantError(t, formPost([]byte("payload=%zz"), github), http.StatusBadRequest, "not a form")
	if f.e.RunDueJobs(); f.importedHead(t) == pushed {
		t.Fatal("a refused form imported the push")
	}
	r := formPost(form, github)
	if r.Status != http.StatusAccepted || !strings.Contains(string(r.Body), `"queued":true`) {
		t.Fatalf("form: %d %s", r.Status, r.Body)
	}
	if f.e.RunDueJobs(); !strings.Contains(f.markdown(t, "/content/page/"+f.pages["api"]), "From a form.") {
		t.Fatal("the form's push was not imported")
	}
}

// TestGitSyncPushWebhookUnsealableSecret: a stored secret the server cannot unseal (damaged, or
// sealed under another key) answers 409 naming the fix, logs one line however often the host
// retries, queues nothing; a new secret mends it.
func TestGitSyncPushWebhookUnsealableSecret(t *testing.T) {
	logs := testenv.CaptureLog(t)
	f := newGitFixture(t)
	rotateSecret(t, f.e, f.admin, f.space)
	sys := system()
	g, err := f.e.Store.Client.GitSync.Query().Where(gitsync.SpaceID(f.space)).Only(sys)
	if err != nil {
		t.Fatal(err)
	}
	damaged := bytes.Clone(*g.SealedWebhookSecret)
	damaged[len(damaged)-1] ^= 0xff
	if err := f.e.Store.Client.GitSync.UpdateOne(g).SetSealedWebhookSecret(damaged).Exec(sys); err != nil {
		t.Fatal(err)
	}
	pushed := gitrepo.Push(t, f.url, map[string]string{"api.md": "# API\n\nUnsealed.\n"}, "Unsealed")
	body := pushBody("refs/heads/main", pushed)
	for range 3 {
		msg := testenv.CheckError(t, webhook(t, f.e, f.space, body, func(h http.Header, b []byte) { hosts["GitHub"](h, b, "anything") }),
			http.StatusConflict)
		if !strings.Contains(msg, "cannot be unsealed") || !strings.Contains(msg, "/git/webhook-secret") {
			t.Fatalf("the message names no fix: %s", msg)
		}
	}
	if n := strings.Count(logs.String(), "push webhook secret cannot be unsealed"); n != 1 {
		t.Fatalf("logged %d times:\n%s", n, logs)
	}
	if f.e.RunDueJobs(); f.importedHead(t) == pushed {
		t.Fatal("the push was imported")
	}
	_, secret := rotateSecret(t, f.e, f.admin, f.space)
	crWant(t, webhook(t, f.e, f.space, body, func(h http.Header, b []byte) { hosts["GitHub"](h, b, secret) }), http.StatusAccepted)
}
