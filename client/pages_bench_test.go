package client

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/benchcpu"
)

// benchToolPage is a page of tools/list of about a megabyte, as a large
// server sends it: kilobyte descriptions (some with escapes), titles,
// annotations and small input schemas, and a next cursor.
func benchToolPage() json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"tools":[`)
	for i := 0; b.Len() < 1<<20; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		n := strconv.Itoa(i)
		desc := strings.Repeat("Reads the records of one table and returns them as rows. ", 17)
		if i%10 == 0 {
			desc += `Line one\nline two, \"quoted\", caf\u00e9.`
		}
		b.WriteString(`{"name":"tool_` + n + `","title":"Tool ` + n + `","description":"` + desc + `",` +
			`"inputSchema":{"type":"object","properties":{"table":{"type":"string","description":"the table"},"limit":{"type":"integer","minimum":1}},"required":["table"]},` +
			`"annotations":{"title":"Tool number ` + n + `","readOnlyHint":true,"openWorldHint":false}}`)
	}
	b.WriteString(`],"nextCursor":"page-2"}`)
	return json.RawMessage(b.String())
}

// BenchmarkParseListPage reads a page of tools as ListTools does: the page
// cut into its items, then each tool read. It is most of mcpsh's own cost
// in a large listing besides go-sdk's decode of the message.
//
//	go test ./client -run '^$' -bench ParseListPage -benchmem -cpuprofile /tmp/cpu.out
func BenchmarkParseListPage(b *testing.B) {
	page := benchToolPage()
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	defer benchcpu.Meter(b)()
	for b.Loop() {
		items, next, err := parseListPage(page, "tools")
		if err != nil || next == nil || len(items) == 0 {
			b.Fatalf("%d items, next %v: %v", len(items), next, err)
		}
		for _, it := range items {
			if _, err := parseValidTool(it); err != nil {
				b.Fatal(err)
			}
		}
	}
}
