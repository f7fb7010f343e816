package proxy

import (
	"encoding/json"
	"testing"
)

// A tools page reaches the host without any tool's execution member (the
// proxy follows tasks itself, so to the host no call is one), however the
// server spells it; a page without one keeps the server's bytes.
func TestToolsPagesLeaveOutExecution(t *testing.T) {
	for _, tt := range []struct{ name, page, want string }{
		{"none", `{ "tools" : [ {"name":"a","x":"\u003c"} ] , "nextCursor":"c" }`,
			`{ "tools" : [ {"name":"a","x":"\u003c"} ] , "nextCursor":"c" }`},
		{"required", `{"tools":[ {"name":"a"}, {"name":"b","execution":{"taskSupport":"required"},"title":"B"} ],"nextCursor":"c"}`,
			`{"tools":[{"name":"a"},{"name":"b","title":"B"}],"nextCursor":"c"}`},
		{"escaped key", `{"tools":[{"name":"b","\u0065xecution":{"taskSupport":"required"}}]}`,
			`{"tools":[{"name":"b"}]}`},
		{"other case", `{"tools":[{"name":"b","Execution":{"taskSupport":"optional"}}]}`,
			`{"tools":[{"name":"b"}]}`},
		{"a second tools member", `{"tools":[{"name":"a"}],"Tools":[{"name":"b","execution":{}}]}`,
			`{"tools":[{"name":"a"}],"Tools":[{"name":"b"}]}`},
		{"not an object", `[1,2]`, `[1,2]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := string(withoutExecution(json.RawMessage(tt.page)))
			if got != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
			if !json.Valid([]byte(got)) {
				t.Fatalf("not JSON: %s", got)
			}
		})
	}
}
