package client

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzObjectFields holds the scanner's cut of an object to the decoder's
// wherever the scanner takes the text: the same keys, in order, with the
// same raw values.
func FuzzObjectFields(f *testing.F) {
	for _, seed := range []string{
		`{}`, ` { } `, `{"a":1}`, `{"resultType":"complete","content":[{"type":"text","text":"ok"}]}`,
		`{"a" : "x\"}" , "b":[1,{"c":"]"}],"a":null}`, "{\n\t\"k\":\ttrue\r\n}\n", `{"a":1}{"b":2}`, `{"a":1,}`, `[1]`, `"s"`, ``,
		`{"result\u0054ype":"input_required"}`, `{"é":1}`, "{\"\xff\":1}", `{"a":-1.5e+3,"b":false,"c":"\u00e9"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fast, ok := objectFieldsFast(raw)
		slow, err := objectFieldsDecoded(raw)
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("the scanner cut %q, which the decoder refuses: %v", raw, err)
		}
		if len(fast) != len(slow) || (len(fast) > 0 && !reflect.DeepEqual(fast, slow)) {
			t.Fatalf("%q: scanner %q, decoder %q", raw, fast, slow)
		}
	})
}

// BenchmarkReadAnswer is the read of a demo-sized answer at 2026-07-28,
// where each answer says its resultType: once, and as it was before
// readAnswer (a decoder's read for the resultType, then parseResult's).
//
//	go test ./client -run '^$' -bench ReadAnswer -count 5
func BenchmarkReadAnswer(b *testing.B) {
	raw := json.RawMessage(`{"resultType":"complete","content":[{"type":"text","text":"` + strings.Repeat("Release checklist: tag, notes, announce. ", 8) +
		`"}],"structuredContent":{"notes":[{"id":3,"title":"Release checklist","tags":["release","todo"],"pinned":false}],"total":1}}`)
	b.Run("once", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if asks, r, err := readAnswer(raw); asks || err != nil || len(r.Content) != 1 {
				b.Fatal(asks, r, err)
			}
		}
	})
	b.Run("twice", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fs, err := objectFieldsDecoded(raw)
			if err != nil {
				b.Fatal(err)
			}
			if asks, err := fieldsNeedInput(fs); asks || err != nil {
				b.Fatal(asks, err)
			}
			if r, err := parseResult(raw); err != nil || len(r.Content) != 1 {
				b.Fatal(r, err)
			}
		}
	})
}

// FuzzReadAnswer holds the one read of a call's answer to the two it
// replaces: needsInput, then parseResult.
func FuzzReadAnswer(f *testing.F) {
	for _, seed := range slices.Concat(resultSeeds, []string{`{"resultType":"complete","content":[{"type":"text","text":"ok"}]}`,
		`{"resultType":"input_required","requestState":"s"}`, `{"resultType":"complete","resultType":"complete"}`,
		`{"resultType":7}`, `{"inputRequests":{"a":{"method":"roots/list"}}}`, `{"Content":[],"resultType":"complete"}`,
		`{"resultType":"complete","isError":"yes"}`, `{"result\u0054ype":"input_required"}`, `[]`, `nope`}) {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		asks, r, err := readAnswer(raw)
		wantAsks, wantErr := needsInput(raw)
		if wantErr != nil || wantAsks {
			if asks != wantAsks || fmt.Sprint(err) != fmt.Sprint(wantErr) || r != nil {
				t.Fatalf("%q: read (%v, %v, %v), want (%v, %v)", raw, asks, r, err, wantAsks, wantErr)
			}
			return
		}
		want, wantErr := parseResult(raw)
		if wantErr != nil {
			wantErr = unreadable(wantErr)
		}
		if asks || fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(r, want) {
			t.Fatalf("%q: read (%v, %+v, %v), want (false, %+v, %v)", raw, asks, r, err, want, wantErr)
		}
	})
}

// FuzzParseBlock holds the scanner's read of a content block to
// encoding/json's wherever the scanner takes it.
func FuzzParseBlock(f *testing.F) {
	for _, seed := range []string{
		`{"type":"text","text":"ok"}`, `{"type":"image","data":"AAAA==","mimeType":"image/png"}`, `{"type":"text","text":null}`,
		`{"type":"text","text":"a","text":"b"}`, `{"type":"text","text":"a","text":null}`, `{"Type":"text","text":"x"}`, `{"type":"text","TEXT":"x"}`,
		`{"type":"resource","resource":{"uri":"file:///a","text":"t"}}`, `{"type":"text","text":"caf\u00e9"}`, `{"type":"text","text":7}`,
		`{"type":"resource_link","uri":"file:///x","name":"x"}`, `{"type":"text","text":"é","extra":{"a":[1]}}`, `[]`, `{}`, `{"type":"audio","data":"AAA"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fast, ok := parseBlockFast(raw)
		if !ok {
			return
		}
		if slow := parseBlockDecoded(raw); !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: scanner %+v, decoder %+v", raw, fast, slow)
		}
	})
}

// BenchmarkParseBlock is a demo-sized text block, read by the scanner and
// by encoding/json.
func BenchmarkParseBlock(b *testing.B) {
	raw := json.RawMessage(`{"type":"text","text":"` + strings.Repeat("Release checklist: tag, notes, announce. ", 8) + `"}`)
	for _, c := range []struct {
		name string
		read func(json.RawMessage) Block
	}{{"scanner", parseBlock}, {"decoder", parseBlockDecoded}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if blk := c.read(raw); blk.Type != "text" {
					b.Fatal(blk)
				}
			}
		})
	}
}
