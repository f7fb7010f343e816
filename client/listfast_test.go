package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/policy"
)

// listFastTools are tools of every shape the fast path takes or leaves:
// escapes, invalid UTF-8, members of the wrong type or null, keys in
// another case, escaped, beyond ASCII or repeated, annotations of every kind.
var listFastTools = []struct {
	raw  string
	fast bool // toolFast reads it (else parseToolSlow)
}{
	{`{"name":"a","title":"T","description":"d","inputSchema":{"type":"object"},"annotations":{"title":"AT","readOnlyHint":true,"destructiveHint":false}}`, true},
	{` { "name" : "spaced" , "description" : "x\ty" , "annotations" : { } } `, true},
	{`{"name":"esc\u0041\n","title":"caf\u00e9 \"q\" \\","description":"line\nline"}`, true},
	{"{\"name\":\"bad\xffutf8\",\"description\":\"d\xc3(\",\"title\":\"ok \xc3\xa9\"}", true},
	{"{\"name\":\"raw \xe2\x80\xa8 sep\",\"title\":\"\\ud800 lone\",\"description\":\"\\udc00\\ud83d\\ude00\"}", true},
	{`{"name":"t","title":5,"description":{"a":1},"annotations":{"title":["x"],"readOnlyHint":"true","idempotentHint":null,"openWorldHint":1}}`, true},
	{`{"name":"t","title":null,"description":null,"annotations":null,"inputSchema":null,"outputSchema":null,"_meta":null,"execution":null}`, true},
	{`{"name":"t","annotations":[true]}`, true},
	{`{"name":"t","annotations":"readOnly"}`, true},
	{`{"name":"t","outputSchema":{"type":"object"},"execution":{"taskSupport":"optional"},"_meta":{"inputExamples":[{"a":1},5,null]}}`, true},
	{`{"name":"t","_meta":{"inputExamples":{"a":1}}}`, true},
	{`{"NAME":"upper","Title":"folded","DESCRIPTION":"x","InputSchema":{},"ANNOTATIONS":{"readOnlyHint":true}}`, true},
	{`{"name":"first","name":"second","title":"a","TITLE":"b"}`, true},
	{`{"name":"t","annotations":{"readOnlyHint":true,"readOnlyHint":false,"ReadOnlyHint":true}}`, true},
	{`{"name":"t","annotations":{"title":"a","title":5}}`, true},
	{`{"name":"t","other":{"name":5},"tools":[1]}`, true},
	{`{"name":"t","annotations":{"read\u004fnlyHint":true}}`, true}, // an escaped key in annotations: the map decoder
	{`{"name":"t","annotations":{"readOnlyHint\u00e9":true,"é":1}}`, true},
	{`{"n\u0061me":"escaped key"}`, false},
	{`{"name":"t","nameſ":"beyond ASCII"}`, false},
	{`{"name":""}`, false},
	{`{"name":null}`, false},
	{`{"name":5}`, false},
	{`{"title":"nameless"}`, false},
	{`{}`, false},
	{`null`, false},
	{`[{"name":"a"}]`, false},
	{`"tool"`, false},
	{`5`, false},
}

// listFastPages are pages of every shape: items of every type, the array
// null, empty, absent or not an array, nested members named like the
// listing, cursors of every type, keys in another case, escaped or repeated.
var listFastPages = []struct {
	raw  string
	fast bool // listPageFast reads it for "tools" (else parseListPageSlow)
}{
	{`{"tools":[{"name":"a"},{"name":"b","annotations":{"readOnlyHint":true}}],"nextCursor":"p2"}`, true},
	{` { "tools" : [ {"name":"a"} , null , 5 , "s" , [ ] , { } , true ] , "nextCursor" : null } `, true},
	{`{"tools":[]}`, true},
	{`{"tools":null,"nextCursor":"p\u0032"}`, true},
	{`{"nextCursor":""}`, true},
	{"{\"tools\":[],\"nextCursor\":\"bad\xffcursor\"}", true},
	{`{"tools":[{"name":"a","tools":{"x":1}}],"resources":"nope","prompts":{"a":1}}`, true},
	{`{"tools":[{"tools":[{"tools":5}]}],"nextCursor":"x"}`, true},
	{`{"TOOLS":[{"name":"upper"}],"tools":[{"name":"lower"}],"NextCursor":"c1","nextcursor":"c2"}`, true},
	{`{"tools":[{"name":"a"}],"tools":null}`, true},
	{`{"Tools":[{"name":"folded"}],"NEXTCURSOR":"c"}`, true},
	{`{"tools":[{"name":"lower"}],"TOOLS":[{"name":"upper"}],"nextCursor":"c1","nextcursor":"c2"}`, true},
	{`{"resources":[{"uri":"u"}],"resourceTemplates":[],"prompts":[{"name":"p"}],"tools":[{"name":"t"}],"nextCursor":"n"}`, true},
	{`{"tools":[{"name":"a"}],"nextCursor":7}`, false},
	{`{"tools":[{"name":"a"}],"nextCursor":{"c":1}}`, false},
	{`{"tools":{"name":"not an array"}}`, false},
	{`{"tools":"nope"}`, false},
	{`{"tools":5}`, false},
	{`{"t\u006fols":[{"name":"escaped key"}]}`, false},
	{`{"toolſ":[{"name":"folds to tools beyond ASCII"}]}`, false},
	{`{"tools":[{"name":"a"}]`, false},
	{`{"tools":[{"name":"a"}]}x`, false},
	{`null`, false},
	{`[]`, false},
	{`"tools"`, false},
	{``, false},
}

// listFastStrings are JSON values read as strings: plain, escaped, invalid
// UTF-8 (U+FFFD for each bad byte), lone surrogates, and not strings.
var listFastStrings = []string{
	`""`, `"plain"`, `"caf` + "\xc3\xa9" + `"`, `"a\nb"`, `"\u00e9"`, `"\"\\\/"`, "\"\xff\"", "\"a\xc3\"", "\"\xed\xa0\x80\"",
	`"\ud800"`, `"\ud83d\ude00"`, "\"\xe2\x80\xa8\"", "\"\x7f\"", `5`, `null`, `true`, `{}`, `["s"]`, ` "spaced" `,
}

// TestListFastIsTheSlowPath holds the fast readers of a listing to the
// readers by encoding/json over the corpora above: the same items, cursor,
// tools, problems and errors, and the fast path taking the plain cases.
func TestListFastIsTheSlowPath(t *testing.T) {
	t.Parallel()
	for _, c := range listFastPages {
		_, _, took := listPageFast(json.RawMessage(c.raw), "tools")
		if took != c.fast {
			t.Errorf("%s: fast path took it = %v, want %v", c.raw, took, c.fast)
		}
		sameListPage(t, c.raw)
	}
	for _, c := range listFastTools {
		if json.Valid([]byte(c.raw)) {
			if _, took := toolFast(json.RawMessage(c.raw)); took != c.fast {
				t.Errorf("%s: fast path took it = %v, want %v", c.raw, took, c.fast)
			}
		}
		sameTool(t, c.raw)
		page := `{"tools":[` + c.raw + `]}`
		if json.Valid([]byte(page)) {
			sameListPage(t, page)
		}
	}
	for _, s := range listFastStrings {
		sameString(t, s)
	}
	for _, s := range []string{`{"title":"a","readOnlyHint":true,"x":{"y":[1]}}`, `{}`, `{"a":1,"a":2}`, `{"\u0061":1}`, `{"é":1}`, `[]`, `"s"`} {
		sameAnnotations(t, s)
	}
}

// TestListFastReadsWhatIsSent checks the fast path's answers themselves,
// not only that they agree with the slow path's.
func TestListFastReadsWhatIsSent(t *testing.T) {
	t.Parallel()
	items, next, err := parseListPage(json.RawMessage(listFastPages[1].raw), "tools")
	if err != nil || next != nil {
		t.Fatalf("next %v, err %v", next, err)
	}
	var got []string
	for _, it := range items {
		got = append(got, string(it))
	}
	if want := []string{`{"name":"a"}`, `null`, `5`, `"s"`, `[ ]`, `{ }`, `true`}; !reflect.DeepEqual(got, want) {
		t.Errorf("items %q, want %q", got, want)
	}
	if cap(items[0]) != len(items[0]) {
		t.Error("an item is not capped at its end: an append to it would write over the page")
	}
	tl, err := parseTool(json.RawMessage(listFastTools[2].raw))
	if err != nil {
		t.Fatal(err)
	}
	if tl.Name != "escA\n" || tl.ToolTitle != `café "q" \` || tl.Description != "line\nline" {
		t.Errorf("escapes: %q %q %q", tl.Name, tl.ToolTitle, tl.Description)
	}
	tl, err = parseTool(json.RawMessage(listFastTools[3].raw))
	if err != nil {
		t.Fatal(err)
	}
	if tl.Name != "bad\uFFFDutf8" || tl.Description != "d\uFFFD(" || tl.ToolTitle != "ok é" {
		t.Errorf("invalid UTF-8: %q %q %q", tl.Name, tl.Description, tl.ToolTitle)
	}
	tl, err = parseTool(json.RawMessage(listFastTools[5].raw))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"title is 5, not a string: ignored",
		`description is {"a":1}, not a string: ignored`,
		`annotations.title is ["x"], not a string: ignored`,
		`readOnlyHint is "true", not a boolean: treated as absent (spec default false)`,
		"openWorldHint is 1, not a boolean: treated as absent (spec default true)",
	}
	if !reflect.DeepEqual(tl.Problems, want) {
		t.Errorf("problems\n%q, want\n%q", tl.Problems, want)
	}
}

func sameListPage(t *testing.T, raw string) {
	t.Helper()
	for _, field := range []string{"tools", "resources", "resourceTemplates", "prompts", "nope"} {
		items, next, err := parseListPage(json.RawMessage(raw), field)
		wItems, wNext, wErr := parseListPageSlow(json.RawMessage(raw), field)
		if !reflect.DeepEqual(items, wItems) || !reflect.DeepEqual(next, wNext) || errText(err) != errText(wErr) ||
			errors.Is(err, errCursorNotString) != errors.Is(wErr, errCursorNotString) {
			t.Fatalf("%s of %q:\nfast %q %v %v\nslow %q %v %v", field, raw, items, strp(next), err, wItems, strp(wNext), wErr)
		}
		for _, it := range items {
			if field == "tools" {
				sameTool(t, string(it))
			}
		}
	}
}

// referenceTool is parseTool as it was before the fast paths, every member
// read by encoding/json: the yardstick of toolFast and of parseToolSlow's
// own fast reads of strings and annotations.
func referenceTool(raw json.RawMessage) (*Tool, error) {
	var w wireTool
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, fmt.Errorf("tool is not a JSON object: %s", safeText(err.Error()))
	}
	t := &Tool{Raw: raw, InputSchema: w.InputSchema, OutputSchema: w.OutputSchema}
	if err := json.Unmarshal(w.Name, &t.Name); err != nil || t.Name == "" {
		return nil, fmt.Errorf("tool has no name (%s)", clip(raw, 80))
	}
	t.ToolTitle = referenceString(t, "title", w.Title)
	t.Description = referenceString(t, "description", w.Description)
	referenceAnnotations(t, w.Annotations)
	t.readExamples(w.Meta)
	t.TaskSupport = readTaskSupport(w.Execution)
	if isNull(t.OutputSchema) {
		t.OutputSchema = nil
	}
	t.Title = policy.DisplayTitle(t.ToolTitle, t.AnnTitle, t.Name)
	return t, nil
}

func referenceString(t *Tool, key string, raw json.RawMessage) string {
	if isNull(raw) {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Problems = append(t.Problems, fmt.Sprintf("%s is %s, not a string: ignored", key, clip(raw, 40)))
	}
	return s
}

func referenceAnnotations(t *Tool, raw json.RawMessage) {
	if isNull(raw) {
		return
	}
	var ann map[string]json.RawMessage
	if err := json.Unmarshal(raw, &ann); err != nil {
		t.Problems = append(t.Problems, fmt.Sprintf("annotations is %s, not an object: every hint takes its spec default", clip(raw, 40)))
		return
	}
	t.HasAnnotations = true
	t.AnnTitle = referenceString(t, "annotations.title", ann["title"])
	for _, f := range policy.Fields {
		v, sent := ann[string(f)]
		if !sent {
			continue
		}
		if t.Declared == nil {
			t.Declared = map[string]json.RawMessage{}
		}
		t.Declared[string(f)] = v
		h := hintValue(v)
		if h == policy.Absent && !isNull(v) {
			t.Problems = append(t.Problems, fmt.Sprintf("%s is %s, not a boolean: treated as absent (spec default %v)",
				f, clip(v, 40), policy.Default(f)))
		}
		t.setHint(f, h)
	}
}

func sameTool(t *testing.T, raw string) {
	t.Helper()
	want, wErr := referenceTool(json.RawMessage(raw))
	got, err := parseTool(json.RawMessage(raw))
	if errText(err) != errText(wErr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nfast %+v %v\nslow %+v %v", raw, got, err, want, wErr)
	}
	if got, err = parseToolSlow(json.RawMessage(raw)); errText(err) != errText(wErr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nslow      %+v %v\nreference %+v %v", raw, got, err, want, wErr)
	}
	if json.Valid([]byte(raw)) {
		if got, err = parseValidTool(json.RawMessage(raw)); errText(err) != errText(wErr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\nvalid %+v %v\nslow  %+v %v", raw, got, err, want, wErr)
		}
	}
}

// sameString holds stringOf to json.Unmarshal into a string, for valid JSON.
func sameString(t *testing.T, raw string) {
	t.Helper()
	if !json.Valid([]byte(raw)) {
		return
	}
	got, err := stringOf([]byte(raw))
	var want string
	wErr := json.Unmarshal([]byte(raw), &want)
	if got != want || errText(err) != errText(wErr) {
		t.Fatalf("%q: stringOf %q %v, encoding/json %q %v", raw, got, err, want, wErr)
	}
}

// sameAnnotations holds annotationsFast to json.Unmarshal into a map,
// where it takes the object.
func sameAnnotations(t *testing.T, raw string) {
	t.Helper()
	if !json.Valid([]byte(raw)) {
		return
	}
	got, ok := annotationsFast(json.RawMessage(raw))
	if !ok {
		return
	}
	var want map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &want); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: annotationsFast %q, encoding/json %q %v", raw, got, want, err)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func strp(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// FuzzListFast holds the fast readers of a listing to encoding/json's on
// any text: read as a page of each listing, as a tool, as a string and as
// annotations.
func FuzzListFast(f *testing.F) {
	for _, c := range listFastPages {
		f.Add(c.raw)
	}
	for _, c := range listFastTools {
		f.Add(c.raw)
	}
	for _, s := range listFastStrings {
		f.Add(s)
	}
	f.Add(`{"tools":[{"name":"` + strings.Repeat(`\n`, 40) + `"}]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		sameListPage(t, raw)
		sameTool(t, raw)
		sameString(t, raw)
		sameAnnotations(t, raw)
	})
}
