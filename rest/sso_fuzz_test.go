package rest_test

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/testkit/ssotest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// FuzzSSOAnswers posts forged and garbage answers to a provider's ACS, as an attacker's browser
// would: never a 500, every failure has the error body, and none signs anyone in (no cookie).
func FuzzSSOAnswers(f *testing.F) {
	e := testenv.New(f)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	kp := ssotest.NewKeyPair(f, time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour))
	r := e.Do(admin, "POST", "/v1/orgs/"+org+"/saml", map[string]any{"label": "Okta", "entityID": "https://idp.example.com",
		"ssoURL": "https://idp.example.com/sso", "certificate": kp.CertPEM})
	if r.Status != http.StatusCreated {
		f.Fatalf("create provider: %d %s", r.Status, r.Body)
	}
	acs := e.Server.URL + "/sso/saml/" + r.Map(f)["id"].(string) + "/acs"
	for _, seed := range []string{"", "<Response/>", "%%%", "SAMLResponse=", strings.Repeat("<a>", 3000)} {
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, encode bool) {
		body := string(data)
		if encode {
			body = url.Values{"SAMLResponse": {base64.StdEncoding.EncodeToString(data)}, "RelayState": {"/"}}.Encode()
		}
		res, err := http.Post(acs, "application/x-www-form-urlencoded", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode < 400 || res.Header.Get("Set-Cookie") != "" {
			t.Fatalf("%q: %d %s, cookie %q", data, res.StatusCode, b, res.Header.Get("Set-Cookie"))
		}
		if res.StatusCode >= 500 {
			t.Fatalf("%q: %d %s", data, res.StatusCode, b)
		}
		testenv.CheckError(t, testenv.Response{Status: res.StatusCode, Body: b}, res.StatusCode)
	})
}
