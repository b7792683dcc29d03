package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// generatedField is a field function as gqlgen v0.17.95 writes it, with the parts that vary.
func generatedField(object, field, read, goType, marshaller string) string {
	return `func (ec *executionContext) _` + object + `_` + field + `(ctx context.Context, field graphql.CollectedField, obj *ent.` + object + `) (ret graphql.Marshaler) {
	return graphql.ResolveField(
		ctx,
		ec.OperationContext,
		field,
		func(ctx context.Context, field graphql.CollectedField) (*graphql.FieldContext, error) {
			return ec.fieldContext_` + object + `_` + field + `(ctx, field)
		},
		func(ctx context.Context) (any, error) {
			return ` + read + `, nil
		},
		nil,
		func(ctx context.Context, selections ast.SelectionSet, v ` + goType + `) graphql.Marshaler {
			return ec.` + marshaller + `(ctx, selections, v)
		},
		true,
		true,
	)
}`
}

func TestPlainFields(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"OKString", generatedField("User", "displayName", "obj.DisplayName", "string", "marshalNString2string"),
			"func (ec *executionContext) _User_displayName(ctx context.Context, field graphql.CollectedField, obj *ent.User) (ret graphql.Marshaler) {\n" +
				"\treturn (*directString)(&obj.DisplayName)\n}"},
		{"OKInt", generatedField("ChangeRequest", "number", "obj.Number", "int", "marshalNInt2int"),
			"func (ec *executionContext) _ChangeRequest_number(ctx context.Context, field graphql.CollectedField, obj *ent.ChangeRequest) (ret graphql.Marshaler) {\n" +
				"\treturn (*directInt)(&obj.Number)\n}"},
		{"OKID", generatedField("Space", "id", "obj.ID", "string", "marshalNID2string"),
			"func (ec *executionContext) _Space_id(ctx context.Context, field graphql.CollectedField, obj *ent.Space) (ret graphql.Marshaler) {\n" +
				"\treturn (*directString)(&obj.ID)\n}"},
		{"OKBool", generatedField("Space", "outdated", "obj.Outdated", "bool", "marshalNBoolean2bool"),
			"func (ec *executionContext) _Space_outdated(ctx context.Context, field graphql.CollectedField, obj *ent.Space) (ret graphql.Marshaler) {\n" +
				"\treturn (*directBool)(&obj.Outdated)\n}"},
		// A marshaller that may answer null for its value reads the field context: kept.
		{"KeptTime", generatedField("User", "createdAt", "obj.CreatedAt", "time.Time", "marshalNDateTime2timeᚐTime"), ""},
		// An enum's marshaller is the model's, which may answer null: kept here (directEnumFields
		// takes those written through marshalEnum).
		{"KeptEnum", generatedField("ChangeRequest", "status", "obj.Status", "string", "marshalNChangeRequestStatus2string"), ""},
		// A method or a resolver can fail or panic: kept.
		{"KeptMethod", generatedField("User", "email", "obj.Email()", "string", "marshalNString2string"), ""},
		{"KeptResolver", generatedField("User", "title", "ec.resolvers.User().Title(ctx, obj)", "string", "marshalNString2string"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := directPlainFields(c.text)
			want := c.want
			if want == "" {
				want = c.text
			}
			if got != want {
				t.Errorf("rewritten:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// checkRewrite checks that rewrite turns text into want, once; with want empty, that it leaves
// text as it is.
func checkRewrite(t *testing.T, rewrite func(string) (string, int), text, want string) {
	t.Helper()
	rewrites := 1
	if want == "" {
		want, rewrites = text, 0
	}
	if got, n := rewrite(text); got != want || n != rewrites {
		t.Errorf("rewritten %d:\n%s\nwant:\n%s", n, got, want)
	}
}

// rewrittenPrologue is how a field of object rewritten by directObjectFields or
// directResolverFields begins.
func rewrittenPrologue(object, field string) string {
	return `func (ec *executionContext) _` + object + `_` + field + `(ctx context.Context, field graphql.CollectedField, obj *ent.` + object + `) (ret graphql.Marshaler) {
	fc, err := ec.fieldContext_` + object + `_` + field + `(ctx, field)
	if err != nil {
		return graphql.Null
	}
	ctx = graphql.WithFieldContext(ctx, fc)
	defer func() {
		if r := recover(); r != nil {
			ec.Error(ctx, ec.Recover(ctx, r))
			ret = graphql.Null
		}
	}()
`
}

// TestObjectFields: a field reading a struct field that points to an object keeps its field
// context (with the result) and panic guard; a method, a resolver or a value that is not a
// pointer is left to gqlgen.
func TestObjectFields(t *testing.T) {
	field := generatedField("ChangeRequestEdge", "node", "obj.Node", "*ent.ChangeRequest", "marshalNChangeRequest2ᚖxᚐChangeRequest")
	direct := rewrittenPrologue("ChangeRequestEdge", "node") + `	fc.Result = obj.Node
	return ec.marshalNChangeRequest2ᚖxᚐChangeRequest(ctx, field.Selections, obj.Node)
}`
	for _, c := range []struct{ name, text, want string }{
		{"OK", field, direct},
		{"KeptMethod", generatedField("ChangeRequestEdge", "node", "obj.Node()", "*ent.ChangeRequest", "marshalNChangeRequest2ᚖxᚐChangeRequest"), ""},
		{"KeptResolver", generatedField("Space", "organization", "ec.resolvers.Space().Organization(ctx, obj)", "*ent.Organization", "marshalNOrganization2ᚖxᚐOrganization"), ""},
		{"KeptNotPointer", generatedField("Space", "tags", "obj.Tags", "[]string", "marshalNString2ᚕstringᚄ"), ""},
	} {
		t.Run(c.name, func(t *testing.T) { checkRewrite(t, directObjectFields, c.text, c.want) })
	}
}

// generatedResolverField is a field answered by a resolver as gqlgen v0.17.95 writes it.
func generatedResolverField(call, goType, marshaller, nonNull string) string {
	field := generatedField("ChangeRequest", "createdBy", "X", goType, marshaller)
	field = strings.Replace(field, "return X, nil", "return "+call, 1)
	return strings.Replace(field, "\t\ttrue,\n\t\ttrue,\n", "\t\ttrue,\n\t\t"+nonNull+",\n", 1)
}

// TestResolverFields: a field answered by a resolver without arguments, of a pointer type, is
// resolved without gqlgen's generic resolution, its error answered as gqlgen answers it for its
// nonNull argument; a resolver with arguments or of another type is left to gqlgen.
func TestResolverFields(t *testing.T) {
	const call = "ec.Resolvers.ChangeRequest().CreatedBy(ctx, obj)"
	const marshaller = "marshalOUser2ᚖxᚐUser"
	direct := func(onError string) string {
		return rewrittenPrologue("ChangeRequest", "createdBy") + `	res, err := ` + call + `
	if err != nil {
		ec.Error(ctx, graphql.AddFieldLocationToError(ctx, err))
` + onError + `	}
	fc.Result = res
	return ec.` + marshaller + `(ctx, field.Selections, res)
}`
	}
	for _, c := range []struct{ name, text, want string }{
		{"OKNullable", generatedResolverField(call, "*ent.User", marshaller, "false"),
			direct("\t\tif fc.NonNull {\n\t\t\treturn graphql.RequiredNull\n\t\t}\n\t\treturn graphql.Null\n")},
		{"OKNonNull", generatedResolverField(call, "*ent.User", marshaller, "true"), direct("\t\treturn graphql.Null\n")},
		{"KeptArguments", generatedResolverField(`ec.Resolvers.ChangeRequest().CreatedBy(ctx, obj, fc.Args["x"].(*int))`, "*ent.User", marshaller, "false"), ""},
		{"KeptNotPointer", generatedResolverField(call, "[]*ent.User", "marshalOUser2ᚕᚖxᚐUserᚄ", "false"), ""},
	} {
		t.Run(c.name, func(t *testing.T) { checkRewrite(t, directResolverFields, c.text, c.want) })
	}
}

// enumMarshallerText is a non-null enum's marshaller as gqlgen v0.17.95 writes it.
func enumMarshallerText(enum, goType string) string {
	return `func (ec *executionContext) marshalN` + enum + `2githubᚗcomᚋx(ctx context.Context, sel ast.SelectionSet, v ` + goType + `) graphql.Marshaler {
	_ = sel
	res := model.Marshal` + enum + `(v)
	if res == graphql.Null {
		if !graphql.HasFieldError(ctx, graphql.GetFieldContext(ctx)) {
			graphql.AddErrorf(ctx, "the requested element is null which the schema does not allow")
		}
	}
	return res
}
`
}

func TestEnumFields(t *testing.T) {
	field := generatedField("ChangeRequest", "status", "obj.Status", "changerequest.Status", "marshalNChangeRequestStatus2githubᚗcomᚋx")
	direct := "func (ec *executionContext) _ChangeRequest_status(ctx context.Context, field graphql.CollectedField, obj *ent.ChangeRequest) (ret graphql.Marshaler) {\n" +
		"\treturn ec.marshalNChangeRequestStatus2githubᚗcomᚋx(ctx, field.Selections, obj.Status)\n}"
	marshaller := enumMarshallerText("ChangeRequestStatus", "changerequest.Status")
	for _, c := range []struct {
		name, text string
		enums      map[string]bool
		rewritten  bool
	}{
		{"OK", field + "\n" + marshaller, map[string]bool{"ChangeRequestStatus": true}, true},
		// A model marshaller that does not go through marshalEnum may answer null: kept.
		{"KeptOtherMarshaller", field + "\n" + marshaller, map[string]bool{"SpaceVisibility": true}, false},
		// A generated marshaller of another shape: kept.
		{"KeptOtherShape", field + "\n" + strings.Replace(marshaller, "\treturn res", "\treturn graphql.Null", 1),
			map[string]bool{"ChangeRequestStatus": true}, false},
		{"KeptNoMarshaller", field, map[string]bool{"ChangeRequestStatus": true}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, n := directEnumFields(c.text, c.enums)
			want := c.text
			if c.rewritten {
				want = strings.Replace(c.text, field, direct, 1)
			}
			if got != want || (n == 1) != c.rewritten {
				t.Errorf("rewrote %d:\n%s\nwant:\n%s", n, got, want)
			}
		})
	}
}

// TestEnumMarshallersOfTheModel: the enums found in graph/model include the ones the nested
// queries write most, and no marshaller of another kind.
func TestEnumMarshallersOfTheModel(t *testing.T) {
	enums, err := enumMarshallers("../../graph/model")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []string{"ChangeRequestStatus", "SpaceVisibility", "SiteType"} {
		if !enums[e] {
			t.Errorf("%s is not among the enums written through marshalEnum: %v", e, enums)
		}
	}
	if enums["DateTime"] || enums["Role"] {
		t.Errorf("a marshaller of another kind is taken for an enum's: %v", enums)
	}
}

// TestTuneFailsOnUnknownText: a gqlgen whose output no longer has the texts the rewrites expect
// fails generation instead of leaving the executor untuned.
func TestTuneFailsOnUnknownText(t *testing.T) {
	path := t.TempDir() + "/generated.go"
	if err := tune(write(t, path, "package generated\n"), nil); err == nil || !strings.Contains(err.Error(), rewrites[0].name) {
		t.Fatalf("tune of a file without %q: err = %v", rewrites[0].name, err)
	}
	var all strings.Builder
	for _, r := range rewrites {
		all.WriteString(r.old)
	}
	if err := tune(write(t, path, all.String()), nil); err == nil || !strings.Contains(err.Error(), "plain fields: found 0") {
		t.Fatalf("tune of a file without plain fields: err = %v", err)
	}
}

// TestTuneFailsOnADeferredFieldItCannotMakeTheSetFor: a deferred field written otherwise than the
// rewrite expects would add to a set never made (a nil pointer at its first @defer).
func TestTuneFailsOnADeferredFieldItCannotMakeTheSetFor(t *testing.T) {
	var all strings.Builder
	for _, r := range rewrites {
		all.WriteString(r.old)
	}
	all.WriteString("\n\t\tif field.IsDeferred() {\n\t\t\tdeferredFieldSet.AddField(field)\n")
	err := tune(write(t, t.TempDir()+"/generated.go", all.String()), nil)
	if err == nil || !strings.Contains(err.Error(), "deferred field sets: 2 deferred fields add to a set, 1 make it first") {
		t.Fatalf("tune of a deferred field written otherwise: err = %v", err)
	}
}

func write(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNothingUnmarshalsInputFromContext guards the rewrite that drops the map of input
// unmarshallers: graphql.UnmarshalInputFromContext would find no map in the context.
func TestNothingUnmarshalsInputFromContext(t *testing.T) {
	forEachGoFile(t, func(path, src string) {
		if strings.Contains(src, "UnmarshalInputFromContext(") {
			t.Errorf("%s calls graphql.UnmarshalInputFromContext, which needs the map gqlgentune drops (decision 339)", path)
		}
	})
}

// TestNothingCallsFieldContextChild: gqlgentune gives field contexts no Child function
// (decision 363), so no code of Bindery's may call one.
func TestNothingCallsFieldContextChild(t *testing.T) {
	forEachGoFile(t, func(path, src string) {
		if strings.Contains(src, ".Child(") {
			t.Errorf("%s calls a field context's Child, which gqlgentune leaves nil (decision 363)", path)
		}
	})
}

// forEachGoFile calls check with the path and text of each Go file of the module but its tests
// (and the hidden directories: .git, .cache).
func forEachGoFile(t *testing.T, check func(path, src string)) {
	root := "../.."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir // .git, .cache
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err == nil {
			check(path, string(src))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
