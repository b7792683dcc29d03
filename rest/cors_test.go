package rest_test

import (
	"net/http"
	"testing"

	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

func TestCORS(t *testing.T) {
	e := testenv.New(t, func(o *server.Options) { o.CORSOrigins = []string{"https://app.example.com"} })
	admin, _ := e.Bootstrap("ada@example.com", "Acme")
	send := func(method, origin string, headers map[string]string, token string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, e.Server.URL+"/graphql", nil)
		req.Header.Set("Origin", origin)
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := e.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	preflight := map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization"}
	t.Run("OKPreflightFromAllowedOrigin", func(t *testing.T) {
		res := send(http.MethodOptions, "https://app.example.com", preflight, "")
		if res.StatusCode != http.StatusNoContent || res.Header.Get("Access-Control-Allow-Origin") != "https://app.example.com" ||
			res.Header.Get("Access-Control-Allow-Headers") == "" {
			t.Fatalf("preflight: %d %v", res.StatusCode, res.Header)
		}
	})
	t.Run("OKRequestFromAllowedOrigin", func(t *testing.T) {
		res := send(http.MethodGet, "https://app.example.com", nil, admin.Token)
		if res.Header.Get("Access-Control-Allow-Origin") != "https://app.example.com" {
			t.Fatalf("no CORS header: %v", res.Header)
		}
	})
	t.Run("NoHeadersForOtherOrigins", func(t *testing.T) {
		res := send(http.MethodOptions, "https://evil.example", preflight, "")
		if res.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("CORS granted to another origin: %v", res.Header)
		}
	})
}
