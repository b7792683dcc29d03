package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// TestServeRateLimitSharedByTwoServers runs two `bindery serve` on one database (PostgreSQL when
// BINDERY_TEST_DB names one) with a budget of 6 points from the environment: a token spends it
// across both, and both then refuse it with 429 and Retry-After.
func TestServeRateLimitSharedByTwoServers(t *testing.T) {
	t.Setenv("BINDERY_RATE_LIMIT", "6")
	_, one, two, ada := twoServers(t)
	for i := range 6 {
		if status, body := call(t, []string{one, two}[i%2], ada.Token, "GET", "/v1/user", ""); status != http.StatusOK {
			t.Fatalf("request %d: %d %s", i+1, status, body)
		}
	}
	for _, base := range []string{one, two} {
		req, _ := http.NewRequest("GET", base+"/v1/user", nil)
		req.Header.Set("Authorization", "Bearer "+ada.Token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" || res.Header.Get("X-RateLimit-Limit") != "6" {
			t.Fatalf("over the shared budget: %d %v", res.StatusCode, res.Header)
		}
	}
}

func TestServeRateLimitFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--rate-limit", "many"}, {"--rate-limit-anonymous", "-1"}, {"--rate-limit-window", "10ms"}, {"--trusted-proxies", "10.0.0.0/99"},
	} {
		err := run(context.Background(), append([]string{"serve", "--data", t.TempDir()}, args...))
		if err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: %v, want an error naming %s", args, err, args[0])
		}
	}
}
