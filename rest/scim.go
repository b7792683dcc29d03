package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"

	scimlib "github.com/elimity-com/scim"
	scimerrors "github.com/elimity-com/scim/errors"
	"github.com/elimity-com/scim/optional"
	"github.com/elimity-com/scim/schema"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/observe"
	"github.com/binderyhq/bindery/internal/text"
)

// SCIM 2.0 (RFC 7644) at /scim/v2: elimity-com/scim serves the protocol — routes, discovery
// (ServiceProviderConfig, ResourceTypes, Schemas), the validation of resources against the User
// and Group schemas, the parsing of filters and PATCH paths, list responses and the error format —
// and calls the handlers below, which call internal/scim (decisions 460–464).

// scimMaxResults is the most resources a list answers at once.
const scimMaxResults = 100

func init() {
	// Entra ID sends booleans as strings ("active": "False"); elimity-com/scim accepts them only
	// with this process-wide switch, set once before any request.
	schema.SetAllowStringValues(true)
}

type scimOrgKey struct{}

// scimHandler serves /scim/v2: the bearer token is a SCIM token (internal/scim.Tokens), whose
// organization every request provisions, acting as the admin who issued it. Bodies over max
// bytes, with NUL characters or invalid UTF-8 are refused here, in SCIM's error format.
func (a *api) scimHandler(max int64) http.Handler {
	server, err := scimlib.NewServer(&scimlib.ServerArgs{
		ServiceProviderConfig: &scimlib.ServiceProviderConfig{
			DocumentationURI: optional.NewString("https://github.com/binderyhq/bindery#scim-provisioning"),
			AuthenticationSchemes: []scimlib.AuthenticationScheme{{Type: scimlib.AuthenticationTypeOauthBearerToken,
				Name: "SCIM token", Description: "A SCIM token an admin issues: POST /v1/orgs/{organizationId}/scim-tokens", Primary: true}},
			MaxResults: scimMaxResults, SupportFiltering: true, SupportPatch: true,
		},
		ResourceTypes: []scimlib.ResourceType{
			{ID: optional.NewString("User"), Name: "User", Endpoint: "/Users", Description: optional.NewString("Members of the organization"),
				Schema: schema.CoreUserSchema(), Handler: scimUsers(a),
				SchemaExtensions: []scimlib.SchemaExtension{{Schema: schema.ExtensionEnterpriseUser()}}},
			{ID: optional.NewString("Group"), Name: "Group", Endpoint: "/Groups", Description: optional.NewString("Teams of the organization"),
				Schema: schema.CoreGroupSchema(), Handler: scimGroups(a)},
		},
	}, scimlib.WithBaseURL(a.url("/scim/v2")), scimlib.WithLogger(scimLogger{}))
	if err != nil {
		panic(err) // the arguments above are constant
	}
	serve := http.StripPrefix("/scim", server)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		observe.SetRoute(r.Context(), "/scim/v2/*")
		token, ok := bearer(r.Header.Get("Authorization"))
		if !ok {
			writeSCIMError(w, r, apperr.Unauthenticatedf("authentication required: send the header Authorization: Bearer <SCIM token>"))
			return
		}
		scimToken, v, err := a.r.SCIMTokens().Authenticate(r.Context(), token)
		if err != nil {
			writeSCIMError(w, r, err)
			return
		}
		if err := readSCIMBody(w, r, max); err != nil {
			writeSCIMError(w, r, err)
			return
		}
		observe.SetUser(r.Context(), v.UserID)
		ctx := context.WithValue(viewerContext(r.Context(), v, a.r.Client), scimOrgKey{}, scimToken.OrganizationID)
		// A provider's provisioning: the audit log names the SCIM token, not the admin who issued it.
		ctx = viewer.WithSource(ctx, viewer.SourceIntegration, "")
		ctx = audit.AsIntegration(ctx, scimToken.ID, "SCIM", scimToken.CreatedBy)
		serve.ServeHTTP(w, r.WithContext(ctx))
	})
}

// readSCIMBody reads the request's body once (at most max bytes, its strings valid text) and
// leaves it in r.Body for elimity-com/scim, which reads bodies whole.
func readSCIMBody(w http.ResponseWriter, r *http.Request, max int64) error {
	if r.ContentLength == 0 {
		return nil
	}
	body, err := readBounded(w, r, max)
	if err == nil {
		err = text.CheckJSON(body)
	}
	if err != nil {
		return err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return nil
}

// scimOrg is the organization the request's SCIM token provisions.
func scimOrg(r *http.Request) string { return r.Context().Value(scimOrgKey{}).(string) }

// scimTypes are the scimType keywords (RFC 7644 §3.12) internal/scim begins its messages with.
var scimTypes = []scimerrors.ScimType{scimerrors.ScimTypeInvalidFilter, scimerrors.ScimTypeInvalidValue,
	scimerrors.ScimTypeNoTarget, scimerrors.ScimTypeUniqueness, scimerrors.ScimTypeInvalidPath, scimerrors.ScimTypeMutability}

// scimError is err as a SCIM error: its status, and the scimType its message begins with. An
// internal error is logged and answered without its detail.
func scimError(r *http.Request, err error) scimerrors.ScimError {
	var already scimerrors.ScimError
	if errors.As(err, &already) {
		return already
	}
	e := graph.AsAppError(r.Context(), err)
	status := e.Kind.Status()
	if e.Kind == apperr.Internal {
		slog.ErrorContext(r.Context(), "internal error", "method", r.Method, "route", "/scim/v2/*", "err", err)
		return scimerrors.ScimError{Status: status, Detail: e.Message}
	}
	out := scimerrors.ScimError{Status: status, Detail: e.Message}
	for _, t := range scimTypes {
		if rest, ok := strings.CutPrefix(e.Message, string(t)+": "); ok {
			out.ScimType, out.Detail = t, rest
		}
	}
	if e.Kind == apperr.Conflict && out.ScimType == "" {
		out.ScimType = scimerrors.ScimTypeUniqueness
	}
	return out
}

// writeSCIMError answers err in SCIM's error format, outside elimity-com/scim (authentication,
// the body).
func writeSCIMError(w http.ResponseWriter, r *http.Request, err error) {
	e := scimError(r, err)
	w.Header().Set("Content-Type", "application/scim+json")
	if e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="SCIM"`)
	}
	body, _ := json.Marshal(e)
	w.WriteHeader(e.Status)
	_, _ = w.Write(body)
}

// scimLogger logs what elimity-com/scim reports (a response it could not write).
type scimLogger struct{}

func (scimLogger) Error(args ...any) { slog.Error("SCIM", "details", args) }
