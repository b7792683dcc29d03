package viewer

import "context"

// Source is the entry point an action came in through, in the reference client's vocabulary
// (AuditEvent.source): the audit log records it with each action.
type Source string

// The sources Bindery reports.
const (
	// SourceUI is a person in a browser: a request authenticated by a session cookie.
	SourceUI Source = "ui"
	// SourceAPI is a request authenticated by a bearer token (REST or GraphQL).
	SourceAPI Source = "api"
	// SourceIntegration is a provider acting through Bindery's integrations: a SCIM provider, a
	// Git Sync run.
	SourceIntegration Source = "integration"
	// SourceWorkflow is the server's own background work (its jobs).
	SourceWorkflow Source = "workflow"
	// SourceScript is an operator's command (the bindery CLI).
	SourceScript Source = "script"
)

type sourceKey struct{}

// runKey keys the label of what runs as the system (Run).
type runKey struct{}

// WithSource returns ctx saying the action came in through s, with label naming what runs for
// the system (a command, an integration); "" leaves the label as it was.
func WithSource(ctx context.Context, s Source, label string) context.Context {
	ctx = context.WithValue(ctx, sourceKey{}, s)
	if label != "" {
		ctx = context.WithValue(ctx, runKey{}, label)
	}
	return ctx
}

// SourceOf returns the entry point of ctx: the one WithSource set, else what the viewer says
// (a session cookie the UI, a user's token the API, the system its background work).
func SourceOf(ctx context.Context) Source {
	if s, ok := ctx.Value(sourceKey{}).(Source); ok {
		return s
	}
	switch v := FromContext(ctx); {
	case v.IsSession():
		return SourceUI
	case v.IsSystem():
		return SourceWorkflow
	}
	return SourceAPI
}

// RunLabel returns the label WithSource gave what runs for the system, "" without one.
func RunLabel(ctx context.Context) string {
	l, _ := ctx.Value(runKey{}).(string)
	return l
}
