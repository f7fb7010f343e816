package client

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// resultSeeds are results of every shape: plain, odd keys (case, escapes,
// duplicates), content that is not an array, isError of every type.
var resultSeeds = []string{
	`{"content":[{"type":"text","text":"hi"},{"type":"hologram","shape":"cube"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"isError":false}`,
	`{"content":[{"type":"resource","resource":{"uri":"file:///a","text":"x\ny"}},{"type":"resource_link","uri":"u","name":"n"},5,"s",null],"structuredContent":{"a":1},"isError":"yes"}`,
	`{"content":{"type":"text"},"isError":null}`,
	` { "content" : [ { "type" : "text" , "text" : "a]}\"[{" } , 12.5e3 , true ] , "structuredContent" : null , "isError" : true } `,
	`{"Content":[{"type":"text","text":"case"}]}`,
	`{"\u0063ontent":[{"type":"text","text":"escaped key"}]}`,
	`{"content":[{"type":"text","text":"first"}],"content":[{"type":"text","text":"second"}]}`,
	`{"content":[],"structuredContent":[1,{"k":"}"}],"other":{"content":5}}`,
	`{"isError":1,"content":[]}`,
	`{"content":"nope"}`,
	`{}`, `[]`, `null`, `"s"`, `{"content":[`, `{"content":[{"type":"text","text":"a"}]}x`,
}

// FuzzParseResultFast holds the fast path to the general one: whenever it
// takes a result, it reads it exactly as the general path does.
func FuzzParseResultFast(f *testing.F) {
	for _, s := range resultSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		fast, ok := parseResultFast(json.RawMessage(raw))
		if !ok {
			return
		}
		slow, err := parseResultSlow(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("the fast path read %q, the general one refused it: %v", raw, err)
		}
		if !reflect.DeepEqual(normalResult(fast), normalResult(slow)) {
			t.Fatalf("%q:\nfast    %+v\ngeneral %+v", raw, fast, slow)
		}
	})
}

// normalResult makes nil and empty slices alike, which the two paths build
// differently and nothing tells apart.
func normalResult(r *Result) Result {
	c := *r
	if len(c.Content) == 0 {
		c.Content = nil
	}
	for i := range c.Content {
		if len(c.Content[i].Raw) == 0 {
			c.Content[i].Raw = nil
		}
	}
	return c
}

func TestParseResultFastTakesThePlainCaseOnly(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		raw  string
		fast bool
	}{
		{resultSeeds[0], true},
		{resultSeeds[3], true},
		{resultSeeds[6], true}, // a repeated key: the last one counts, on both paths
		{resultSeeds[7], true},
		{resultSeeds[1], false}, // isError "yes": a problem to report
		{resultSeeds[2], false}, // content not an array
		{resultSeeds[4], false}, // "Content": encoding/json folds case
		{resultSeeds[5], false}, // an escaped key
		{`{"content":[`, false},
	} {
		r, ok := parseResultFast(json.RawMessage(c.raw))
		if ok != c.fast {
			t.Errorf("%s: fast path took it = %v, want %v", c.raw, ok, c.fast)
			continue
		}
		if !ok {
			continue
		}
		slow, err := parseResultSlow(json.RawMessage(c.raw))
		if err != nil || !reflect.DeepEqual(normalResult(r), normalResult(slow)) {
			t.Errorf("%s:\nfast    %+v\ngeneral %+v (%v)", c.raw, r, slow, err)
		}
	}
	r, _ := parseResultFast(json.RawMessage(resultSeeds[3]))
	if len(r.Content) != 3 || r.Content[0].Text != `a]}"[{` || !r.IsError || r.Structured != nil {
		t.Fatalf("spaced result read as %+v", r)
	}
	if r, _ := parseResultFast(json.RawMessage(resultSeeds[6])); r.Content[0].Text != "second" {
		t.Fatalf("repeated content: got %q, want the last", r.Content[0].Text)
	}
}

// BenchmarkParseResult is a demo-sized answer: text and structured content.
func BenchmarkParseResult(b *testing.B) {
	raw := json.RawMessage(`{"content":[{"type":"text","text":"` + strings.Repeat("Release checklist: tag, notes, announce. ", 8) +
		`"}],"structuredContent":{"notes":[{"id":3,"title":"Release checklist","tags":["release","todo"],"pinned":false}],"total":1}}`)
	for _, c := range []struct {
		name  string
		parse func(json.RawMessage) (*Result, error)
	}{{"fast", parseResult}, {"general", parseResultSlow}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.parse(raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
