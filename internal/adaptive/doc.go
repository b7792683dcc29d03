// Package adaptive checks and runs the adaptive content of published sites: a site's visitor
// schema (SiteAdaptiveSchema.jsonSchema) and the conditions of its site spaces and sections that
// decide which visitors see them. It is pure logic: no database, no HTTP.
//
// # Visitor schema
//
// ParseSchema takes what the reference's SiteAdaptiveJSONSchema allows, and only that: an object
// with `type: "object"`, `properties`, `additionalProperties: false` and optionally
// `$schema: "http://json-schema.org/draft-07/schema#"`. Each property is a claim, with a
// `description` and a `type`:
//
//   - "boolean";
//   - "string", optionally with `enum` (1 to 100 strings, no two alike, as JSON Schema draft-07
//     requires);
//   - "number";
//   - "array" with `items`, a boolean, string or number claim;
//   - "object" with `properties` (claims) and `additionalProperties: false`.
//
// The property `unsigned` of the schema itself holds the visitor's unsigned claims: an object
// with `description: "Unsigned claims of the site visitor."`, `properties` (claims) and
// `additionalProperties: false`. No other key is allowed anywhere (where the reference leaves
// the unsigned object open, it is closed here too: a key such as `required` would mean something
// to a JSON Schema validator that conditions would not honour). The schema must also compile as a
// JSON Schema draft-07 document, with no reference to another document.
//
// Bounds, beyond the reference: a claim name is a letter or _ followed by letters, digits or _,
// at most 64 characters (so that visitor.claims.<name> reads it); at most 100 claims in one
// object and 500 in a schema; claims nest at most 4 names deep (visitor.claims.a.b.c.d, unsigned
// counting as one); a description is at most 512 characters; an enum value has at most 256
// characters; the schema is at most 256 KiB of JSON.
//
// # Conditions
//
// A condition is an expression in the language of github.com/expr-lang/expr, 1 to 1024
// characters, that evaluates to a boolean, such as
//
//	visitor.claims.unsigned.fromNewsletter && !visitor.claims.isBetaUser
//	visitor.claims.plan in ["pro", "team"] and visitor.claims.seats >= 10
//
// It reads claims as visitor.claims.<name> and visitor.claims.unsigned.<name> (also with
// ["name"] and ?.), and nothing else: no other name, no index. It may use literals (booleans,
// numbers, strings, nil, arrays), the unary operators ! not - +, the binary operators
// == != < <= > >= && || and or + - * / % ** ^ in, not in, contains, startsWith, endsWith, and
// ?: or if/else. It may not call functions or builtins (len, all, filter…), declare variables,
// use ?? (claims are never nil), build ranges (..), maps or slices, match regular expressions,
// or join strings with + (only literals, joined once when compiled), so a run takes time linear
// in the condition and in the claims it reads. JavaScript's === and .includes() are not expr:
// write == and "x" in visitor.claims.roles.
//
// Types are checked against the schema: a boolean claim is a bool, a string claim a string, a
// number claim a float64, an array claim an array, an object claim holds its claims. A string
// literal compared with an enum claim (==, !=, in a literal array) must be one of its values,
// or "" (the value of a missing claim).
//
// A run reads the visitor's claims as decoded JSON, the unsigned ones nested under "unsigned".
// A claim that is missing or of another type than the schema says is its zero value: false,
// "", 0, an empty array, an object of zero values; array elements of another type are left out,
// and claims the schema lacks are ignored.
//
// # Errors
//
// Every refusal is an *Error: in a schema it names the JSON path of the first problem (keys in
// sorted order), in a condition the column (1-based, in characters) where the problem starts.
package adaptive
