// Command gqlgentune rewrites eleven patterns of gqlgen's generated executor that cost every
// request time without serving Bindery (decisions 197, 271, 339, 347, 350–354, 356, 363). It runs
// from generate.go right after gqlgen, so `go generate ./...` still reproduces the committed
// file exactly.
//
//   - Lists are marshalled element by element on the request's goroutine (marshalSliceInOrder in
//     graph/generated/inorder.go) instead of one goroutine per element: Bindery's resolvers batch
//     a whole level of the query before its elements are marshalled (graph/loader), so nothing
//     is gained by running siblings concurrently, and ~1,000 goroutines per nested query are lost.
//   - The @defer bookkeeping of every object (its response path built, a deferred group
//     registered) runs only when the object has deferred fields.
//   - A field that reads a plain struct field of type string, int or bool, shown as a String,
//     ID, Int or Boolean (an ent entity's title, id, number…), is marshalled directly from the
//     struct field (plainField, directPlainFields). gqlgen resolves it like any field: a field context allocated
//     and put in the context, the value boxed into an interface, the field middleware chain run,
//     a panic guard; none of it can change the answer of such a field, whose value cannot fail,
//     be null or panic, and whose marshaller never reads the context. It was ~20% of a nested
//     query's CPU. What it skips is the field middleware chain, so Bindery's GraphQL handler
//     takes no field interceptor (graph.Use refuses one). The answer is the struct field's
//     address as a type of graph/generated/direct.go, written as gqlgen's marshaller writes the
//     value, with no closure allocated to hold a copy (decision 353): resolvers answer objects
//     that nothing changes before the answer is written.
//   - Likewise a field that reads a plain struct field shown as one of Bindery's enums whose
//     graph/model marshaller writes it through marshalEnum (a change request's status, a space's
//     visibility…): that marshaller never answers null, so the generated marshaller never reads
//     the context either (enumField, directEnumFields; decision 347).
//   - Likewise a field that reads a struct field pointing to an object (an edge's node) keeps
//     its field context, which the object's fields below need, and its panic guard, but skips
//     the rest of gqlgen's resolution (objectField, directObjectFields; decision 354), and so
//     does a field answered by a resolver without arguments of a pointer type (a change
//     request's author), its error answered as gqlgen answers it (resolverField; decision 356).
//   - An object's field set and map of @defer labels are made at its first deferred field, not
//     for every object (decision 350): two allocations per object of every answer. The closures
//     of deferred fields capture a copy of the set, so the variable itself stays off the heap.
//   - An object is written by objectFields (graph/generated/objectfields.go) rather than by its
//     field set's MarshalGQL, which copies each field it writes to the heap and keeps a map of
//     the aliases written, for every object of an answer (decision 351). The objectFields, with
//     the field set inside it and the set's values, come from the operation's objectArena, in
//     blocks, where each object allocated all three, and so do field contexts (decision 363).
//   - The fields of each object are collected through the operation's collectedFields
//     (graph/generated/collected.go), which finds them again without hashing the object type's
//     names for every object as graphql.CollectFields does (decision 352).
//   - A field context gets no Child function (a closure over the execution context for every
//     field with child fields): nothing in Bindery calls it (TestNothingCallsFieldContextChild),
//     and Bindery's GraphQL server takes no field middleware, its only documented reader
//     (decision 363).
//   - The map of every input type's unmarshaller, which gqlgen builds by reflection for every
//     operation (~60 input types) and puts in the operation's context for
//     graphql.UnmarshalInputFromContext, is not built: nothing in Bindery calls that function
//     (TestNothingUnmarshalsInputFromContext), and the map was 5% of a GraphQL point read's CPU
//     (decision 339).
//
// Each rewrite names the exact text gqlgen writes; a gqlgen upgrade that changes it makes
// generation fail here instead of silently dropping the rewrite.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

type rewrite struct {
	name     string
	old, new string
}

var rewrites = []rewrite{
	{
		name: "deferred field set made at the first deferred field",
		old: `
	deferredFieldSet := graphql.NewFieldSet(nil)
	deferLabelToView := make(map[string]*graphql.FieldSetView)
`,
		new: `
	var deferredFieldSet *graphql.FieldSet
	var deferLabelToView map[string]*graphql.FieldSetView
`,
	},
	{
		name: "deferred field set made at the first deferred field (its fields)",
		old: `
			if field.IsDeferred() {
				deferredFieldSet.AddField(field)
`,
		new: `
			if field.IsDeferred() {
				if deferredFieldSet == nil {
					deferredFieldSet, deferLabelToView = graphql.NewFieldSet(nil), map[string]*graphql.FieldSetView{}
				}
				deferredFieldSet := deferredFieldSet // the closure below captures this copy, not the variable
				deferredFieldSet.AddField(field)
`,
	},
	{
		name: "objects written without a copy of each field",
		old:  "\n\treturn out\n}\n",
		new:  "\n\treturn object\n}\n",
	},
	{
		name: "field contexts made from the operation's arena",
		old:  "\n\tfc = &graphql.FieldContext{\n",
		new:  "\n\tfc = ec.objects.fieldContext()\n\t*fc = graphql.FieldContext{\n",
	},
	{
		name: "objects and their field sets made from the operation's arena",
		old:  "\n\tout := graphql.NewFieldSet(fields)\n",
		new:  "\n\tobject := ec.objects.next(fields)\n\tout := &object.set\n",
	},
	{
		name: "fields collected once per operation (the context)",
		old: `type executionContext struct {
	*graphql.ExecutionContextState[ResolverRoot, DirectiveRoot, ComplexityRoot]
}`,
		new: `type executionContext struct {
	*graphql.ExecutionContextState[ResolverRoot, DirectiveRoot, ComplexityRoot]
	collected collectedFields
	objects   objectArena
}`,
	},
	{
		name: "fields collected once per operation (the calls)",
		old:  "graphql.CollectFields(ec.OperationContext, sel, ",
		new:  "ec.collected.of(ec.OperationContext, sel, ",
	},
	{
		name: "lists marshalled in order",
		old:  "graphql.MarshalSliceConcurrently(",
		new:  "marshalSliceInOrder(",
	},
	{
		name: "defer bookkeeping only for deferred fields",
		old: `
	atomic.AddInt32(&ec.Deferred, int32(min(len(deferLabelToView), math.MaxInt32)))

	ec.ProcessDeferredGroup(graphql.DeferredGroup{
		Defers:   deferLabelToView,
		Path:     graphql.GetPath(ctx),
		FieldSet: deferredFieldSet,
		Context:  ctx,
	})
`,
		new: `
	if len(deferLabelToView) > 0 {
		atomic.AddInt32(&ec.Deferred, int32(min(len(deferLabelToView), math.MaxInt32)))
		ec.ProcessDeferredGroup(graphql.DeferredGroup{
			Defers:   deferLabelToView,
			Path:     graphql.GetPath(ctx),
			FieldSet: deferredFieldSet,
			Context:  ctx,
		})
	}
`,
	},
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gqlgentune GENERATED_FILE MODEL_DIR")
		os.Exit(2)
	}
	enums, err := enumMarshallers(os.Args[2])
	if err == nil {
		err = tune(os.Args[1], enums)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gqlgentune:", err)
		os.Exit(1)
	}
}

// resolvedField matches the whole function gqlgen writes for a field that graphql.ResolveField
// resolves from a struct field of obj (not a method nor a resolver), whose value has the Go type
// goType and is marshalled by a function matching marshaller. Its groups: the function's first
// line, the struct field read, the marshaller's name, and marshaller's own groups.
func resolvedField(goType, marshaller string) *regexp.Regexp {
	return resolution(`(obj\.\w+), nil`, goType, marshaller, `true`)
}

// resolution matches the whole function gqlgen writes for a field that graphql.ResolveField
// resolves by the statement read, whose value has the Go type goType and is marshalled by a
// function matching marshaller, with the nonNull argument matching nonNull. Its groups: the
// function's first line, read's, the marshaller's name, marshaller's own, nonNull's.
func resolution(read, goType, marshaller, nonNull string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^(func \(ec \*executionContext\) _\w+\(ctx context\.Context, field graphql\.CollectedField, obj \*[\w.]+\) \(ret graphql\.Marshaler\) \{)
	return graphql\.ResolveField\(
		ctx,
		ec\.OperationContext,
		field,
		func\(ctx context\.Context, field graphql\.CollectedField\) \(\*graphql\.FieldContext, error\) \{
			return ec\.fieldContext_\w+\(ctx, field\)
		\},
		func\(ctx context\.Context\) \(any, error\) \{
			return ` + read + `
		\},
		nil,
		func\(ctx context\.Context, selections ast\.SelectionSet, v ` + goType + `\) graphql\.Marshaler \{
			return ec\.(` + marshaller + `)\(ctx, selections, v\)
		\},
		true,
		` + nonNull + `,
	\)
\}$`)
}

// plainField is a field read from a struct field of type string, int or bool with one of the
// built-in marshallers, none of which reads its context or returns null for such a value.
var plainField = resolvedField(`(?:string|int|bool)`, `marshalN(?:String2string|ID2string|Int2int|Boolean2bool)`)

// directTypes names, by the built-in marshaller of a plain field, the type of
// graph/generated/direct.go that writes the field from its address as that marshaller does.
var directTypes = map[string]string{
	"marshalNString2string": "directString",
	"marshalNID2string":     "directString",
	"marshalNInt2int":       "directInt",
	"marshalNBoolean2bool":  "directBool",
}

// directPlainFields rewrites each plainField of text to answer the struct field's address as
// its direct type.
func directPlainFields(text string) string {
	return plainField.ReplaceAllStringFunc(text, func(fn string) string {
		m := plainField.FindStringSubmatch(fn)
		return m[1] + "\n\treturn (*" + directTypes[m[3]] + ")(&" + m[2] + ")\n}"
	})
}

// enumField is a field read from a struct field of a GraphQL enum bound to a Go type, marshalled
// by a non-null marshaller named after the enum (its name is the fourth group).
var enumField = resolvedField(`[\w.]+`, `marshalN(\w+?)2[^(\s]+`)

// minEnumFields is fewer enum fields marshalled through marshalEnum than the schema has.
const minEnumFields = 5

// objectField is a field read from a struct field that points to an object (an edge's node, a
// connection's page info), with its generated marshaller.
var objectField = resolvedField(`\*[\w.]+`, `marshal[NO][^(\s]+`)

// minObjectFields is fewer object fields read from struct fields than the schema has.
const minObjectFields = 20

// fieldPrologue begins a field resolved without gqlgen's generic resolution: its field context
// made and put in the context (the fields below name their paths and errors through it, and
// shareKeyFor reads its Result), and a panic below answered as gqlgen answers it.
const fieldPrologue = `%s
	fc, err := ec.fieldContext%s(ctx, field)
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

// objectFieldDirect is what an objectField becomes after its prologue: the object marshalled at
// once, without the resolver closures, the middleware call and the boxed result.
const objectFieldDirect = `	fc.Result = %s
	return ec.%s(ctx, field.Selections, %s)
}`

// prologue is fieldPrologue for the field function whose first line is header.
func prologue(header string) string {
	name := header[strings.Index(header, ") _")+2 : strings.Index(header, "(ctx")]
	return fmt.Sprintf(fieldPrologue, header, name)
}

// resolverField is a field answered by a resolver without arguments, of a pointer type (never
// the untyped nil gqlgen checks for apart), with its marshaller and gqlgen's nonNull argument.
var resolverField = resolution(`(ec\.Resolvers\.\w+\(\)\.\w+\(ctx, obj\))`, `\*[\w.]+`, `marshal[NO][^(\s]+`, `(true|false)`)

// minResolverFields is fewer resolver fields without arguments than the schema has.
const minResolverFields = 20

// resolverFieldDirect is what a resolverField becomes after its prologue: the resolver called
// (Bindery's GraphQL server takes no field middleware, graph.Use) and its error or answer
// handled as graphql.ResolveField handles them (the error's return is resolverError's).
const resolverFieldDirect = `	res, err := %s
	if err != nil {
		ec.Error(ctx, graphql.AddFieldLocationToError(ctx, err))
%s	}
	fc.Result = res
	return ec.%s(ctx, field.Selections, res)
}`

// resolverError is what a failed resolver's field answers, by gqlgen's nonNull argument: with
// false, a field the field context calls non-null answers RequiredNull.
var resolverError = map[string]string{
	"true":  "\t\treturn graphql.Null\n",
	"false": "\t\tif fc.NonNull {\n\t\t\treturn graphql.RequiredNull\n\t\t}\n\t\treturn graphql.Null\n",
}

// directResolverFields rewrites the resolverFields of text (decision 356) and returns how many.
func directResolverFields(text string) (string, int) {
	n := 0
	out := resolverField.ReplaceAllStringFunc(text, func(fn string) string {
		m := resolverField.FindStringSubmatch(fn)
		header, call, marshaller, nonNull := m[1], m[2], m[3], m[4]
		n++
		return prologue(header) + fmt.Sprintf(resolverFieldDirect, call, resolverError[nonNull], marshaller)
	})
	return out, n
}

// directObjectFields rewrites the objectFields of text (decision 354) and returns how many.
func directObjectFields(text string) (string, int) {
	n := 0
	out := objectField.ReplaceAllStringFunc(text, func(fn string) string {
		m := objectField.FindStringSubmatch(fn)
		header, read, marshaller := m[1], m[2], m[3]
		n++
		return prologue(header) + fmt.Sprintf(objectFieldDirect, read, marshaller, read)
	})
	return out, n
}

// enumMarshaller matches a graph/model marshaller that writes its enum through marshalEnum.
var enumMarshaller = regexp.MustCompile(`func Marshal(\w+)\(\w+ [\w.]+\) graphql\.Marshaler \{\s*return marshalEnum\(`)

// enumMarshallers returns the names of the enums whose marshaller in the Go files of dir
// (graph/model) writes them through marshalEnum, which never answers null.
func enumMarshallers(dir string) (map[string]bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	enums := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, m := range enumMarshaller.FindAllStringSubmatch(string(src), -1) {
			enums[m[1]] = true
		}
	}
	return enums, nil
}

// directEnumFields rewrites the enum fields of text whose enum is one of enums and whose
// generated marshaller calls that enum's model marshaller, and returns how many it rewrote.
func directEnumFields(text string, enums map[string]bool) (string, int) {
	n := 0
	out := enumField.ReplaceAllStringFunc(text, func(fn string) string {
		m := enumField.FindStringSubmatch(fn)
		header, read, marshaller, enum := m[1], m[2], m[3], m[4]
		if !enums[enum] || !marshalsThrough(text, marshaller, "model.Marshal"+enum) {
			return fn
		}
		n++
		return header + "\n\treturn ec." + marshaller + "(ctx, field.Selections, " + read + ")\n}"
	})
	return out, n
}

// marshalsThrough reports whether the generated marshaller named marshaller answers what model
// answers for its value, as gqlgen writes a non-null enum's.
func marshalsThrough(text, marshaller, model string) bool {
	start := strings.Index(text, "func (ec *executionContext) "+marshaller+"(ctx context.Context, sel ast.SelectionSet, v ")
	if start < 0 {
		return false
	}
	fn, _, _ := strings.Cut(text[start:], "\n}\n")
	return strings.Contains(fn, ") graphql.Marshaler {\n\t_ = sel\n\tres := "+model+"(v)\n\tif res == graphql.Null {") &&
		strings.HasSuffix(fn, "\n\treturn res")
}

// childOfFieldContext is the Child function gqlgen gives a field context whose field has child
// fields: a closure over the execution context, made for every such field of an answer. Nothing
// calls it (TestNothingCallsFieldContextChild): Bindery's GraphQL server takes no field
// middleware (graph.Use), the only reader gqlgen documents for it.
var childOfFieldContext = regexp.MustCompile(`\n\t\tChild: func\(ctx context\.Context, field graphql\.CollectedField\) \(\*graphql\.FieldContext, error\) \{\n\t\t\treturn ec\.childFields_\w+\(ctx, field\)\n\t\t\},`)

// minChildFunctions is fewer field contexts with a Child function than the schema has.
const minChildFunctions = 100

// childFieldsFunctions are the functions the Child functions called, one per object type, which
// nothing calls once those are gone: from their heading comment to the end of gqlgen's internal
// section.
var childFieldsFunctions = regexp.MustCompile(`(?s)\n// childFields_\* functions provide shared child field context lookups\.\n(?:// [^\n]*\n)*\n(?:func \(ec \*executionContext\) childFields_\w+\(ctx context\.Context, field graphql\.CollectedField\) \(\*graphql\.FieldContext, error\) \{\n.*?\n\}\n\n)+(// endregion \*+ internal!\.gotpl)`)

// unmarshalerMap is the statement building the map of input unmarshallers, and
// unmarshalerMapInContext each line putting it in an operation's context.
var (
	unmarshalerMap          = regexp.MustCompile(`\tinputUnmarshalMap := graphql\.BuildUnmarshalerMap\(\n(?:\t\tec\.unmarshalInput\w+,\n)+\t\)\n`)
	unmarshalerMapInContext = regexp.MustCompile(`(?m)^\t+ctx = graphql\.WithUnmarshalerMap\(ctx, inputUnmarshalMap\)\n`)
)

// minPlainFields is fewer plain fields than the schema has: finding fewer means gqlgen changed
// the text plainField expects.
const minPlainFields = 100

func tune(path string, enums map[string]bool) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text := string(src)
	for _, r := range rewrites {
		if !strings.Contains(text, r.old) {
			return fmt.Errorf("%s: gqlgen no longer writes the text this rewrite expects (%q); update internal/gqlgentune", r.name, firstLine(r.old))
		}
		text = strings.ReplaceAll(text, r.old, r.new)
	}
	if made, returned := strings.Count(text, "object := ec.objects.next(fields)"), strings.Count(text, "\n\treturn object\n}\n"); made != returned {
		return fmt.Errorf("objects: %d made from the arena, %d returned; update internal/gqlgentune", made, returned)
	}
	if made, used := strings.Count(text, "deferredFieldSet := deferredFieldSet"), strings.Count(text, "deferredFieldSet.AddField("); made != used {
		return fmt.Errorf("deferred field sets: %d deferred fields add to a set, %d make it first; update internal/gqlgentune", used, made)
	}
	if n := len(plainField.FindAllStringIndex(text, -1)); n < minPlainFields {
		return fmt.Errorf("plain fields: found %d, expected at least %d; gqlgen no longer writes the text plainField expects; update internal/gqlgentune", n, minPlainFields)
	}
	text = directPlainFields(text)
	text, n := directEnumFields(text, enums)
	if n < minEnumFields {
		return fmt.Errorf("enum fields: rewrote %d, expected at least %d; gqlgen no longer writes the text enumField expects; update internal/gqlgentune", n, minEnumFields)
	}
	text, n = directObjectFields(text)
	if n < minObjectFields {
		return fmt.Errorf("object fields: rewrote %d, expected at least %d; gqlgen no longer writes the text objectField expects; update internal/gqlgentune", n, minObjectFields)
	}
	text, n = directResolverFields(text)
	if n < minResolverFields {
		return fmt.Errorf("resolver fields: rewrote %d, expected at least %d; gqlgen no longer writes the text resolverField expects; update internal/gqlgentune", n, minResolverFields)
	}
	if n := len(childOfFieldContext.FindAllStringIndex(text, -1)); n < minChildFunctions {
		return fmt.Errorf("field context Child functions: found %d, expected at least %d; gqlgen no longer writes the text childOfFieldContext expects; update internal/gqlgentune", n, minChildFunctions)
	}
	text = childOfFieldContext.ReplaceAllString(text, "")
	if !childFieldsFunctions.MatchString(text) {
		return fmt.Errorf("childFields functions: gqlgen no longer writes the text childFieldsFunctions expects; update internal/gqlgentune")
	}
	text = childFieldsFunctions.ReplaceAllString(text, "\n$1")
	if strings.Contains(text, "childFields_") {
		return fmt.Errorf("childFields functions: some are left, or still called; update internal/gqlgentune")
	}
	if !unmarshalerMap.MatchString(text) || !unmarshalerMapInContext.MatchString(text) {
		return fmt.Errorf("input unmarshaller map: gqlgen no longer writes the text unmarshalerMap expects; update internal/gqlgentune")
	}
	text = unmarshalerMap.ReplaceAllString(text, "")
	text = unmarshalerMapInContext.ReplaceAllString(text, "")
	return os.WriteFile(path, []byte(text), 0o644)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimLeft(s, "\n"), "\n")
	return line
}
