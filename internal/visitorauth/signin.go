package visitorauth

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/oidcprovider"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
)

// Readers of a site whose settings name an OpenID Connect provider sign in there
// (accounts.OIDC.StartSite, FinishSite); the site then gives them a visitor token it signs itself
// with its own key (Mint), kept in the site's token cookie like a token its admins' backend would
// have issued. Verify checks both alike, so the claims mapped from the ID token reach adaptive
// content as any signed claim does, and a token of one site opens no other.

// SignInLifetime is how long a reader's sign-in to a site lasts; the reader is then sent to the
// provider again.
const SignInLifetime = 8 * time.Hour

// Bounds of the claim mapping and of what it carries: the token lives in a cookie, which browsers
// keep to 4 KiB.
const (
	maxClaimMappings = 16
	claimNameMax     = 100
	claimValueMax    = 1024 // bytes of a mapped claim's JSON; a longer value is left out
	mintedTokenMax   = 3800
)

// visitorClaimName is a name conditions can read as visitor.claims.<name>.
var visitorClaimName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// reservedClaims are the names a minted token sets itself, or that adaptive content reads
// otherwise (unsigned): no mapping may write them.
var reservedClaims = map[string]bool{"exp": true, "iat": true, "nbf": true, "iss": true, "aud": true, "sub": true, "jti": true, "unsigned": true}

// CheckClaimMapping checks a mapping of ID token claims to visitor claims (field names it): at
// most 16 entries, an ID token claim of 1..100 characters, a visitor claim an identifier
// conditions can read that a token does not reserve, no visitor claim twice. Returns INVALID
// naming the entry.
func CheckClaimMapping(field string, m map[string]string) error {
	if len(m) > maxClaimMappings {
		return apperr.Invalidf("%s: at most %d claims are mapped", field, maxClaimMappings)
	}
	seen := map[string]string{}
	for from, to := range m {
		at := fmt.Sprintf("%s[%q]", field, check.Truncate(from, 40))
		switch {
		case from == "" || len(from) > claimNameMax:
			return apperr.Invalidf("%s: an ID token claim's name is 1..%d characters", at, claimNameMax)
		case !visitorClaimName.MatchString(to):
			return apperr.Invalidf("%s: the visitor claim must be a name of letters, digits and _ (not starting with a digit), at most 64", at)
		case reservedClaims[to]:
			return apperr.Invalidf("%s: the visitor claim %q is reserved", at, to)
		case seen[to] != "":
			return apperr.Invalidf("%s: the visitor claim %q is mapped from %q too", at, to, check.Truncate(seen[to], 40))
		}
		seen[to] = from
	}
	return nil
}

// MapClaims is the visitor claims an identity's claims give through a mapping (ID token claim →
// visitor claim); claims the identity lacks, and values over claimValueMax bytes, are left out.
func MapClaims(mapping map[string]string, idClaims map[string]any) map[string]any {
	out := map[string]any{}
	for from, to := range mapping {
		v, ok := idClaims[from]
		if !ok || v == nil {
			continue
		}
		if raw, err := json.Marshal(v); err != nil || len(raw) > claimValueMax {
			continue
		}
		out[to] = v
	}
	return out
}

// Mint signs a visitor token for a reader of the site of a's settings who signed in through its
// provider: its mapped claims, issued now, expiring after SignInLifetime, signed by the site's
// key. Returns INVALID when the claims make a token too long for a cookie.
func (s Service) Mint(ctx context.Context, a *ent.SitePublishingAuth, idClaims map[string]any) (string, time.Time, error) {
	key, err := s.Key(ctx, a)
	if err != nil {
		return "", time.Time{}, err
	}
	now := s.Now(ctx)
	expires := now.Add(SignInLifetime)
	claims := jwt.MapClaims(MapClaims(a.OidcClaims, idClaims))
	claims["iat"], claims["exp"] = now.Unix(), expires.Unix()
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(key))
	if err == nil && len(token) > mintedTokenMax {
		err = apperr.Invalidf("the claims the site maps from the ID token make a visitor token of %d bytes, over the %d a cookie holds: map fewer claims", len(token), mintedTokenMax)
	}
	return token, expires, err
}

// CheckSignIn checks what a site's readers sign in with: providerID names an OpenID Connect
// provider of the site's organization (read with the system's rights: a site's managers name
// the provider, its admins manage it), and the claim mapping holds (CheckClaimMapping). Returns
// NOT_FOUND naming oidc.providerId, or INVALID.
func (s Service) CheckSignIn(ctx context.Context, site *ent.Site, providerID string, mapping map[string]string) error {
	ok, err := s.Client.OIDCProvider.Query().Where(oidcprovider.ID(providerID), oidcprovider.OrganizationID(site.OrganizationID)).
		Exist(privacy.DecisionContext(ctx, privacy.Allow))
	switch {
	case err != nil:
		return err
	case !ok:
		return apperr.NotFoundf("oidc.providerId: the site's organization has no OpenID Connect provider with the id %q", check.Truncate(providerID, 80))
	}
	return CheckClaimMapping("oidc.claims", mapping)
}
