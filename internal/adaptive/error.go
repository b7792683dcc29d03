package adaptive

import "fmt"

// Error is a visitor schema or a condition that the adaptive-content rules refuse, or a condition
// that failed to run. The API layer answers it with 400 naming Path.
type Error struct {
	// Path is the JSON path of the problem: "jsonSchema.properties.plan.type" in a schema,
	// "condition" in a condition (a caller whose field has another name replaces it).
	Path string
	// Column is the 1-based position of the problem in a condition, counted in characters
	// (runes) from its start, newlines included; 0 in a schema.
	Column int
	// Message says what is wrong.
	Message string
}

// Error returns "path: message", or "path: column n: message" in a condition.
func (e *Error) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("%s: column %d: %s", e.Path, e.Column, e.Message)
	}
	return e.Path + ": " + e.Message
}

// schemaError returns an *Error at path in a schema.
func schemaError(path, format string, args ...any) *Error {
	return &Error{Path: path, Message: fmt.Sprintf(format, args...)}
}

// conditionError returns an *Error at column of a condition.
func conditionError(column int, format string, args ...any) *Error {
	return &Error{Path: "condition", Column: column, Message: fmt.Sprintf(format, args...)}
}
