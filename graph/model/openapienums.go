package model

import (
	"fmt"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent/openapispec"
)

// MarshalOpenAPISpecVisibility writes a spec visibility as its GraphQL enum value.
func MarshalOpenAPISpecVisibility(v openapispec.Visibility) graphql.Marshaler {
	return marshalEnum(string(v))
}

// UnmarshalOpenAPISpecVisibility reads a GraphQL enum value into a spec visibility.
func UnmarshalOpenAPISpecVisibility(v any) (openapispec.Visibility, error) {
	return unmarshalChecked(v, openapispec.VisibilityValidator, "spec visibility (one of PRIVATE, PUBLIC)")
}

// MarshalOpenAPISpecProcessingState writes a processing state as its GraphQL enum value.
func MarshalOpenAPISpecProcessingState(s openapispec.ProcessingState) graphql.Marshaler {
	return marshalEnum(string(s))
}

// UnmarshalOpenAPISpecProcessingState reads a GraphQL enum value into a processing state.
func UnmarshalOpenAPISpecProcessingState(v any) (openapispec.ProcessingState, error) {
	return unmarshalChecked(v, openapispec.ProcessingStateValidator, "processing state (one of PENDING, PROGRESS, COMPLETE)")
}

// MarshalOpenAPISpecErrorCode writes a processing error code as its GraphQL enum value.
func MarshalOpenAPISpecErrorCode(c openapispec.LastProcessErrorCode) graphql.Marshaler {
	return marshalEnum(string(c))
}

// UnmarshalOpenAPISpecErrorCode reads a GraphQL enum value into a processing error code.
func UnmarshalOpenAPISpecErrorCode(v any) (openapispec.LastProcessErrorCode, error) {
	s, _ := v.(string)
	c := openapispec.LastProcessErrorCode(s)
	if openapispec.LastProcessErrorCodeValidator(c) != nil {
		return "", fmt.Errorf("%v is not a processing error code (one of FETCH_TIMEOUT, FETCH_ERROR, PARSE_ERROR)", v)
	}
	return c, nil
}
