// Package scim provisions organizations' people and teams through SCIM 2.0 (RFC 7643, 7644), as
// identity providers (Okta, Microsoft Entra ID) do: SCIM tokens (Tokens: admins issue, list and
// revoke them; a token acts as the admin who issued it, in its organization only), users
// (members: found or created by email, deactivated by disabling the membership, which
// authentication then leaves out at the user's next request) and groups (teams). Every change of
// members and teams goes through internal/orgs, which records its events in the change's
// transaction. The protocol — routes, schemas, the parsing of filters and PATCH paths — is
// elimity-com/scim's, in the adapter (rest/scim.go); this package applies what it parsed.
package scim
