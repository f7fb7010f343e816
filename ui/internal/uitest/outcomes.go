package uitest

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// The calls the tests of the result view and the session log draw, their
// results built the way the client reads them, with Content and RawContent
// agreeing.

// PaneTime is when they were made.
var PaneTime = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

// TextBlock is a text block.
func TextBlock(s string) client.Block {
	return block(client.Block{Type: "text", Text: s}, map[string]any{"type": "text", "text": s})
}

// MediaBlock is an image or audio block of n bytes.
func MediaBlock(typ, mime string, n int) client.Block {
	data := base64.StdEncoding.EncodeToString(make([]byte, n))
	return block(client.Block{Type: typ, MIMEType: mime, Bytes: base64.StdEncoding.DecodedLen(len(data))},
		map[string]any{"type": typ, "mimeType": mime, "data": data})
}

// linkBlock is a resource link.
func linkBlock(name, uri, mime string) client.Block {
	return block(client.Block{Type: "resource_link", Name: name, URI: uri, MIMEType: mime},
		map[string]any{"type": "resource_link", "name": name, "uri": uri, "mimeType": mime})
}

// embeddedBlock is an embedded text resource.
func embeddedBlock(uri, mime, text string) client.Block {
	return block(client.Block{Type: "resource", URI: uri, MIMEType: mime, Text: text},
		map[string]any{"type": "resource", "resource": map[string]any{"uri": uri, "mimeType": mime, "text": text}})
}

// block is b with wire, its JSON as sent, in Raw.
func block(b client.Block, wire map[string]any) client.Block {
	raw, err := json.Marshal(wire)
	if err != nil {
		panic(err)
	}
	b.Raw = raw
	return b
}

// Result is a call's result of blocks, with structured content unless it is "".
func Result(isError bool, structured string, blocks ...client.Block) *client.Result {
	raws := make([]json.RawMessage, len(blocks))
	for i, b := range blocks {
		raws[i] = b.Raw
	}
	content, _ := json.Marshal(raws)
	r := &client.Result{Content: blocks, RawContent: content, IsError: isError}
	if structured != "" {
		r.Structured = json.RawMessage(structured)
	}
	r.Size = len(content) + len(structured)
	return r
}

// WithResult fills o's result fields the way a finished call does.
func WithResult(o *client.Outcome, r *client.Result) *client.Outcome {
	o.Result, o.ResultSize, o.IsError = r, r.Size, r.IsError
	o.Content, o.StructuredContent = r.RawContent, r.Structured
	return o
}

// BaseOutcome is a read-only call to the weather server that went well, with no result yet.
func BaseOutcome(tool, title string) *client.Outcome {
	return &client.Outcome{
		Time: PaneTime, Server: "weather", Via: "stdio", Tool: tool, Title: title,
		Class: policy.ClassReadOnly, Trust: policy.Trusted, Decision: policy.Run,
		ApprovedBy: policy.ByPolicy, Attempts: []client.Attempt{{N: 1, DurationMS: 142.6}},
		Status: client.StatusOK, DurationMS: 142.6,
	}
}

// OKOutcome is a call that went well, with a block of every kind and
// structured content.
func OKOutcome() *client.Outcome {
	o := BaseOutcome("get_forecast", "Weather forecast")
	return WithResult(o, Result(false, `{"city":"Lisbon","high":23,"low":15,"sky":"sunny"}`,
		TextBlock("Sunny in Lisbon today, with a high of 23°C and a low of 15°C. Light winds from the north-west in the afternoon; no rain expected before the weekend.\n"),
		TextBlock(`{"city":"Lisbon","temps":[21,23,19],"wind":{"speed":12,"unit":"km/h"},"alerts":[]}`),
		MediaBlock("image", "image/png", 3072),
		linkBlock("forecast.csv", "file:///data/lisbon/forecast.csv", "text/csv"),
		embeddedBlock("mem://notes/today", "text/plain", "Bring sunglasses.\n\tAnd water."),
	))
}

// ToolErrorOutcome is a call the tool answered with an error.
func ToolErrorOutcome() *client.Outcome {
	o := BaseOutcome("get_forecast", "Weather forecast")
	o.ApprovedBy = policy.ByUser
	o.Status, o.DurationMS = client.StatusToolError, 31
	o.Attempts[0].DurationMS = 31
	return WithResult(o, Result(true, "", TextBlock("city \"Atlantis\" not found\nTry a city that exists.")))
}

// FailedOutcome is an open-world call that failed after three attempts.
func FailedOutcome() *client.Outcome {
	o := BaseOutcome("fetch_page", "Fetch a web page")
	o.ApprovedBy, o.OpenWorld, o.ReplaySafe = policy.ByCaller, true, true
	o.Attempts = []client.Attempt{
		{N: 1, DurationMS: 30.2, Failure: "server_error", Error: "backend unavailable", WaitMS: 300},
		{N: 2, DurationMS: 28, Failure: "server_error", Error: "backend unavailable", WaitMS: 612.5},
		{N: 3, DurationMS: 31.7, Failure: "timeout", Error: "no answer or progress within 30s (the server was told to cancel)"},
	}
	o.Status, o.DurationMS = client.StatusFailed, 31003
	o.Error = "no answer or progress within 30s (the server was told to cancel); gave up: another attempt would pass the retry limit of 1m0s"
	return o
}

// RefusedOutcome is a destructive call refused with nobody to ask.
func RefusedOutcome() *client.Outcome {
	o := BaseOutcome("delete_file", "Delete a file")
	o.Class, o.Trust, o.Decision, o.ApprovedBy = policy.ClassDestructive, policy.Untrusted, policy.Refuse, ""
	o.Attempts, o.DurationMS, o.Status = []client.Attempt{}, 0, client.StatusRefused
	o.Reason = "destructive tool and nobody to ask: pass --yes to run it"
	o.Error = "refused delete_file: " + o.Reason
	return o
}

// HostileOutcome has escape sequences and control characters everywhere a
// server can put them.
func HostileOutcome() *client.Outcome {
	const evil = "\x1b]0;pwned\x07\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ \x1b[2J\x1b[H\x1b[31mred\x1b[0m\rover\x00nul\x07bell\u009b31mC1\u202eevil\x7f\u200fdone\xff"
	o := BaseOutcome("tool"+evil, "Title"+evil)
	o.ApprovedBy, o.Rule = policy.ByRule, "allow "+evil
	o.Attempts = []client.Attempt{{N: 1, Failure: "server_error", Error: evil, WaitMS: 100}, {N: 2}}
	o.OutputSchemaError = "bad " + evil
	o = WithResult(o, Result(true, `{"k":"\u001b]0;x\u0007","t":"\t"}`,
		TextBlock(evil+"\n"+strings.Repeat("日本語", 40)+"\n👍🏽👍🏽👍🏽 "+strings.Repeat("x", 300)),
		TextBlock(`{"a":"`+strings.ReplaceAll(evil, "\x1b", `\u001b`)+`"}`),
		MediaBlock("image", "image/"+evil, 30),
		linkBlock(evil, "file:///"+evil, evil),
		embeddedBlock("mem://"+evil, evil, "text "+evil),
		block(client.Block{Type: "holo" + evil}, map[string]any{"type": "holo" + evil}),
	))
	o.Result.Problems = []string{"isError is " + evil}
	o.LogError = "disk " + evil
	return o
}

// LogOutcomes are a session's calls: ok, open-world, failed after retries,
// refused, a tool error and a cancelled call, a few seconds apart.
func LogOutcomes() []*client.Outcome {
	at := func(o *client.Outcome, sec int) *client.Outcome {
		o.Time = PaneTime.Add(time.Duration(sec) * time.Second)
		return o
	}
	search := OKOutcome()
	search.Tool, search.Title, search.OpenWorld, search.DurationMS = "search_web", "Search the web", true, 1204.4
	cancelled := FailedOutcome()
	cancelled.Tool, cancelled.Title, cancelled.OpenWorld = "long_job", "", false
	cancelled.Attempts = []client.Attempt{{N: 1, DurationMS: 5000}}
	cancelled.Status, cancelled.DurationMS = client.StatusCancelled, 5000
	cancelled.Error = "cancelled by the user (the server was told)"
	return []*client.Outcome{
		at(OKOutcome(), 0),
		at(search, 12),
		at(FailedOutcome(), 75),
		at(RefusedOutcome(), 3600),
		at(ToolErrorOutcome(), 3661),
		at(cancelled, 3700),
	}
}
