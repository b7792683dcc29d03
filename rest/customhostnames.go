package rest

import (
	"context"
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/sites"
)

// CustomHostname is the reference's CustomHostname: a site's custom hostname, the outcome of its
// last check (no status before one: a DNS status, else, once the DNS leads here, a TLS status),
// and whether that check found it pointing here and served with a valid certificate (live).
type CustomHostname struct {
	Object   string             `json:"object"`
	Hostname string             `json:"hostname"`
	Target   customHostnameSite `json:"target"`
	IsActive bool               `json:"isActive"`
	Status   *string            `json:"status,omitempty"`
	URLs     struct {
		Location string `json:"location"`
	} `json:"urls"`
}

// customHostnameSite is the reference's SitePointer.
type customHostnameSite struct {
	Type string `json:"type"`
	Site string `json:"site"`
}

func (a *api) customHostname(_ context.Context, h *sites.CustomHostname) (CustomHostname, error) {
	wire := CustomHostname{Object: "custom-hostname", Hostname: h.Hostname, IsActive: h.Active(), Status: h.Status,
		Target: customHostnameSite{Type: "site", Site: h.Site.ID}}
	wire.URLs.Location = a.url("/v1/custom-hostnames/" + url.PathEscape(h.Hostname))
	return wire, nil
}

// getCustomHostname answers GET /v1/custom-hostnames/{hostname}.
func (a *api) getCustomHostname(w http.ResponseWriter, r *http.Request) {
	h, err := a.r.Query().CustomHostname(r.Context(), chi.URLParam(r, "hostname"))
	if err == nil && h == nil {
		err = apperr.NotFoundf("custom hostname %q not found", truncate(chi.URLParam(r, "hostname"), 80))
	}
	respondWith(w, r, http.StatusOK, h, err, a.customHostname)
}

// checkCustomHostname answers PATCH /v1/custom-hostnames/{hostname} (the reference's
// dnsRevalidateCustomHostname): the check runs before the answer, which GET then reports.
func (a *api) checkCustomHostname(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().CheckCustomHostname(r.Context(), chi.URLParam(r, "hostname"))
	respondEmpty(w, r, http.StatusNoContent, err)
}

// removeCustomHostname answers DELETE /v1/custom-hostnames/{hostname}: 205 when a site had it,
// 204 when none (that the caller manages) did.
func (a *api) removeCustomHostname(w http.ResponseWriter, r *http.Request) {
	removed, err := a.r.Mutation().RemoveCustomHostname(r.Context(), chi.URLParam(r, "hostname"))
	status := http.StatusNoContent
	if removed {
		status = http.StatusResetContent
	}
	respondEmpty(w, r, status, err)
}
