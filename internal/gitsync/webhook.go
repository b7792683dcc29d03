package gitsync

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/serverkey"
)

// webhookLabel binds a sealed webhook secret to its space: copied to another row it does not open.
func webhookLabel(spaceID string) string { return "gitsync-webhook:" + spaceID }

// HasWebhookSecret reports whether the link has a push webhook secret.
func HasWebhookSecret(g *ent.GitSync) bool {
	return g.SealedWebhookSecret != nil && len(*g.SealedWebhookSecret) > 0
}

// RotateWebhookSecret makes a new secret for the push webhook of the space's link (the space's
// admins), replacing the former, which stops working at once, and returns it: it is sealed and
// never shown again. NOT_FOUND without a link.
func (svc *Service) RotateWebhookSecret(ctx context.Context, spaceID string) (string, error) {
	s, err := svc.SpaceTarget(ctx, spaceID, triggerRole, "make the space's Git Sync webhook secret")
	if err != nil {
		return "", err
	}
	sys := system(ctx)
	g, err := svc.linkOf(sys, s.ID)
	if ent.IsNotFound(err) {
		return "", apperr.NotFoundf("the space is not linked to a git repository")
	}
	if err != nil {
		return "", err
	}
	secret := "bgw_" + rand.Text() + rand.Text() // 256 bits
	sealed, err := svc.Keys.Seal(sys, svc.Client, webhookLabel(s.ID), []byte(secret))
	if err != nil {
		return "", err
	}
	return secret, audit.Write(ctx, svc.Client, func(tx *ent.Tx) (audit.Entry, error) {
		return syncEntry(audit.GitSyncWebhookSecretRotated, g, "", "", nil), tx.GitSync.UpdateOne(g).SetSealedWebhookSecret(sealed).Exec(sys)
	})
}

// Push is what the git host posted: its headers and body.
type Push struct {
	Header http.Header
	Body   []byte
}

// pushEvent is what Bindery reads of a push event: GitHub, GitLab, Gitea and Forgejo all name
// the branch's reference and its new head so.
type pushEvent struct {
	Ref   string `json:"ref"`
	After string `json:"after"`
}

// Received says what a push webhook did: whether it queued the link's sync, and why not.
type Received struct {
	Queued bool
	Reason string // why nothing was queued
}

// ReceivePush takes a push webhook of the space's link: checked with the link's secret as the
// host signs (GitHub, Gitea and Forgejo: X-Hub-Signature-256, the HMAC-SHA256 of the body, or
// Gitea's and Forgejo's own headers of it; GitLab: X-Gitlab-Token, the secret itself), a push to
// the linked branch whose head is not the commit of the last sync (Bindery's own export
// included) queues the link's sync, which imports it. Other events, other branches and a deleted
// branch queue nothing. NOT_FOUND for a space without a link, UNAUTHENTICATED for a signature
// missing or wrong (or a link without a secret), CONFLICT for a secret the server cannot unseal
// (its key changed, the row was damaged: a new secret mends it), INVALID for a push that is not
// JSON, as the body or as the payload field of a form (GitHub's form encoding).
func (svc *Service) ReceivePush(ctx context.Context, spaceID string, p Push) (Received, error) {
	ctx = viewer.WithSource(viewer.NewContext(ctx, viewer.System()), viewer.SourceIntegration, "Git Sync webhook")
	sys := system(ctx)
	g, err := svc.linkOf(sys, spaceID)
	if ent.IsNotFound(err) {
		return Received{}, apperr.NotFoundf("no Git Sync link for space %q", spaceID)
	}
	if err != nil {
		return Received{}, err
	}
	if err := svc.checkSignature(sys, g, p); err != nil {
		return Received{}, err
	}
	if !isPush(p.Header) {
		return Received{Reason: "not a push event"}, nil
	}
	payload, err := eventJSON(p)
	if err != nil {
		return Received{}, err
	}
	var ev pushEvent
	if err := json.Unmarshal(payload, &ev); err != nil {
		return Received{}, apperr.Invalidf("the push event is not JSON: %s", err.Error())
	}
	switch {
	case ev.Ref != "refs/heads/"+g.Branch:
		return Received{Reason: "a push to " + clip(ev.Ref, 300) + ", not to the linked refs/heads/" + g.Branch}, nil
	case strings.Trim(ev.After, "0") == "":
		return Received{Reason: "the branch was deleted"}, nil
	case g.Commit != nil && ev.After == *g.Commit:
		return Received{Reason: "the branch is at the commit of the last sync"}, nil
	}
	return Received{Queued: true}, svc.queueSync(sys, svc.Client, g.SpaceID)
}

// checkSignature checks the push's signature with the link's secret, UNAUTHENTICATED when it is
// missing or wrong.
func (svc *Service) checkSignature(ctx context.Context, g *ent.GitSync, p Push) error {
	if !HasWebhookSecret(g) {
		return apperr.Unauthenticatedf("the space's Git Sync link has no webhook secret: make one (rotateGitSyncWebhookSecret)")
	}
	secret, err := svc.Keys.Unseal(ctx, svc.Client, webhookLabel(g.SpaceID), *g.SealedWebhookSecret)
	if errors.Is(err, serverkey.ErrUnsealable) {
		logUnsealable(ctx, g)
		return apperr.Conflictf("the space's Git Sync webhook secret cannot be unsealed (the server key changed, or the stored secret is damaged): make a new one (POST /v1/spaces/%s/git/webhook-secret, rotateGitSyncWebhookSecret) and give it to the git host", g.SpaceID)
	}
	if err != nil {
		return err
	}
	if token := p.Header.Get("X-Gitlab-Token"); token != "" {
		if hmac.Equal([]byte(token), secret) {
			return nil
		}
		return apperr.Unauthenticatedf("X-Gitlab-Token is not the link's webhook secret")
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write(p.Body)
	want := mac.Sum(nil)
	for _, h := range []struct{ name, prefix string }{
		{"X-Hub-Signature-256", "sha256="}, {"X-Gitea-Signature", ""}, {"X-Forgejo-Signature", ""},
	} {
		v := p.Header.Get(h.name)
		if v == "" {
			continue
		}
		got, err := hex.DecodeString(strings.TrimPrefix(v, h.prefix))
		if err != nil || !strings.HasPrefix(v, h.prefix) || !hmac.Equal(got, want) {
			return apperr.Unauthenticatedf("%s is not the HMAC-SHA256 of the body with the link's webhook secret", h.name)
		}
		return nil
	}
	return apperr.Unauthenticatedf("the push is not signed: X-Hub-Signature-256 (GitHub, Gitea, Forgejo) or X-Gitlab-Token (GitLab) is required")
}

// unsealableLogged are the sealed webhook secrets (space id and sealed bytes) already logged as
// unsealable by this process: a host retrying its deliveries logs one line, not one per request.
var unsealableLogged sync.Map

// logUnsealable logs, once per stored secret, that the link's webhook secret cannot be unsealed.
func logUnsealable(ctx context.Context, g *ent.GitSync) {
	if _, seen := unsealableLogged.LoadOrStore(g.SpaceID+"\x00"+string(*g.SealedWebhookSecret), true); !seen {
		slog.WarnContext(ctx, "gitsync: the push webhook secret cannot be unsealed; the space's admins must make a new one",
			"space", g.SpaceID)
	}
}

// eventJSON is the push event's JSON: the body, or the payload field of a form-encoded body
// (GitHub's "application/x-www-form-urlencoded", signed as sent, so checked before).
func eventJSON(p Push) ([]byte, error) {
	if mt, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		return p.Body, nil
	}
	form, err := url.ParseQuery(string(p.Body))
	if err != nil {
		return nil, apperr.Invalidf("the form-encoded push event is not a form: %s", err.Error())
	}
	if !form.Has("payload") {
		return nil, apperr.Invalidf("payload: the form-encoded push event has no payload field")
	}
	return []byte(form.Get("payload")), nil
}

// isPush reports whether the event is a push, by the host's event header (a host that names
// none is taken at its word).
func isPush(h http.Header) bool {
	for _, name := range []string{"X-GitHub-Event", "X-Gitea-Event", "X-Forgejo-Event", "X-Gogs-Event"} {
		if v := h.Get(name); v != "" {
			return v == "push"
		}
	}
	if v := h.Get("X-Gitlab-Event"); v != "" {
		return v == "Push Hook"
	}
	return true
}
