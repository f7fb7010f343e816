package client

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzParseListPage reads pages of every listing, and their items with the
// reader each listing uses: none may panic; an item is handed over exactly
// as the array holds it; a next cursor comes only from a string; and what
// mcpsh says of an item it skips is one safe line.
func FuzzParseListPage(f *testing.F) {
	f.Add(`{"tools":[{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":"true"}},{"title":"nameless"},null,5],"nextCursor":"p2"}`)
	f.Add(`{"resources":[{"uri":"file:///a","name":"a","size":12},{"uri":"file:///b","name":5},{"uri":"c","size":"big"},{"size":1e300},null],"nextCursor":null}`)
	f.Add(`{"resourceTemplates":[{"uriTemplate":"file:///{n}","name":"t"},[]],"nextCursor":7}`)
	f.Add(`{"prompts":[{"name":"greet","arguments":[{"name":"who","required":true},{"required":"yes"},"x",null]},{"name":7}],"nextCursor":""}`)
	f.Add(`{"prompts":{"name":"not an array"},"tools":"nope","resources":null}`)
	f.Add(`{"prompts":[{"name":"` + rawEvil + `","arguments":[{"title":"` + rawEvil + `"}]}],"nextCursor":"` + rawEvil + `"}`)
	f.Add(`{"TOOLS":[{"name":"upper"}],"tools":[{"name":"lower"}]}`)
	f.Add(`null`)
	f.Add(`[]`)
	f.Add(`{"resources":[` + strings.Repeat(`[`, 50) + strings.Repeat(`]`, 50) + `]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		for _, field := range []string{"tools", "resources", "resourceTemplates", "prompts"} {
			items, next, err := parseListPage(json.RawMessage(raw), field)
			if err != nil && !errors.Is(err, errCursorNotString) {
				if items != nil || next != nil {
					t.Fatalf("%s: error %v with items %d, next %v", field, err, len(items), next)
				}
				continue
			}
			if errors.Is(err, errCursorNotString) && next != nil {
				t.Fatalf("%s: a cursor that is not a string came back as %q", field, *next)
			}
			for i, it := range items {
				if !json.Valid(it) {
					t.Fatalf("%s: item %d is not JSON: %q", field, i, it)
				}
				if err := readListItem(field, it); err != nil {
					assertFuzzSafe(t, field+" warning", skipped(field, 1, i+1, err))
				}
			}
			if next != nil {
				var p struct {
					NextCursor string `json:"nextCursor"`
				}
				if json.Unmarshal([]byte(raw), &p) != nil || p.NextCursor != *next {
					t.Fatalf("%s: next cursor %q is not the page's", field, *next)
				}
			}
		}
	})
}

// readListItem reads an item as its listing does, checking what it says.
func readListItem(field string, it json.RawMessage) error {
	switch field {
	case "tools":
		_, err := parseTool(it)
		return err
	case "resources":
		_, err := resourceItem(it)
		return err
	case "resourceTemplates":
		_, err := templateItem(it)
		return err
	}
	_, problems, err := promptItem(it)
	for _, p := range problems {
		if r := unsafeRune(p, false); r >= 0 {
			return errors.New("unsafe problem")
		}
	}
	return err
}

// FuzzParsePromptResult reads prompts/get results: no input panics, each
// message keeps its content as sent (valid JSON for --json), and what
// mcpsh says of a block that is not text is one safe line.
func FuzzParsePromptResult(f *testing.F) {
	f.Add(`{"description":"a greeting","messages":[{"role":"user","content":{"type":"text","text":"hello"}},` +
		`{"role":"assistant","content":{"type":"hologram","shape":"cube"}},{"role":"user","content":{"type":"image","data":"AAAA","mimeType":"image/png"}},` +
		`{"role":"user","content":"just a string"},{"role":5},null,7]}`)
	f.Add(`{"messages":[{"role":"` + rawEvil + `","content":{"type":"` + rawEvil + `","uri":"` + rawEvil + `"}}],"description":7}`)
	f.Add(`{"messages":{"role":"user"}}`)
	f.Add(`{"messages":[{"content":{"type":"resource","resource":{"uri":"u","blob":"AAAA"}}}]}`)
	f.Add(`null`)
	f.Fuzz(func(t *testing.T, raw string) {
		r, err := parsePromptResult(json.RawMessage(raw))
		if err != nil {
			assertFuzzSafe(t, "prompt error", err.Error())
			return
		}
		for _, m := range r.Messages {
			if !json.Valid(m.Content) {
				t.Fatalf("content %q is not JSON", m.Content)
			}
			if m.Block.Type != "text" && m.Block.Type != "resource" {
				assertFuzzSafe(t, m.Block.Type+" summary", m.Block.Summary())
			}
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatalf("--json of the prompt: %v", err)
		}
	})
}
