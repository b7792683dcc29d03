package model

// Node is a value of a GraphQL type implementing the Node interface: the ent entity of that type
// (*ent.Space, *ent.Comment, …). gqlgen's generated code picks the GraphQL type from the Go type.
type Node any
