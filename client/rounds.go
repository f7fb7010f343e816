package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mcpsh/mcpsh/internal/jsonscan"
	"github.com/mcpsh/mcpsh/policy"
)

// Protocol 2026-07-28 lets a server answer tools/call, prompts/get and
// resources/read with an "input required" result (SEP-2322): requests for
// mcpsh to fulfil (elicitation/create, sampling/createMessage, roots/list),
// keyed by the server, and an opaque requestState. mcpsh answers them and
// sends the request again, as a new request, with inputResponses and the
// state echoed. mcpsh runs these rounds itself, not through go-sdk's
// middleware (which answers the requests concurrently and sends again on its
// own): a round is a send like any other, decided on what the server declares
// now (execute.go); the requests are answered one at a time, in the order the
// server listed them (rounds_fulfil.go); and a malformed result is a protocol
// violation, failed once, never taken for a lost connection.
//
// This file reads such results. It reads only the top level of a result and
// the input requests, keys exactly as spelled and in order, and says what is
// wrong and where when they break the protocol.

// maxRounds bounds the rounds of one request: the answer to the last one may
// not ask for more. go-sdk's middleware allowed as many.
const maxRounds = 10

// inputRequired is an input-required result, read.
type inputRequired struct {
	// requests are the server's requests, in the order it listed them.
	requests []inputRequest
	// state is the requestState to echo; hasState says whether one was sent.
	state    string
	hasState bool
}

// inputRequest is one request inside an input-required result.
type inputRequest struct {
	key    string
	method string
	params json.RawMessage // nil when absent or null
}

// roundError ends a request the server answered in rounds: the server broke
// the protocol (policy.ProtocolViolation), kept asking (policy.TooManyRounds),
// or policy no longer lets the next round go (policy.RoundRefused). msg is
// made safe for a terminal.
type roundError struct {
	failure policy.Failure
	msg     string
}

func (e *roundError) Error() string { return e.msg }

func violationf(format string, args ...any) *roundError {
	return &roundError{failure: policy.ProtocolViolation, msg: fmt.Sprintf(format, args...)}
}

// Result types (2026-07-28). A result without one is complete: servers of
// earlier versions send none.
const (
	resultComplete      = "complete"
	resultInputRequired = "input_required"
)

// needsInput reports whether a result asks for more input. It is on every
// call's path, so a result that names none of the keys that matter is passed
// over without a parse. An error is a result whose type mcpsh cannot read:
// one no protocol version defines, or not a string.
func needsInput(raw json.RawMessage) (bool, error) {
	if !bytes.Contains(raw, []byte(`resultType`)) && !bytes.Contains(raw, []byte(`inputRequests`)) &&
		!bytes.Contains(raw, []byte(`\u`)) {
		// A key spelled with escapes could name them unseen; none is here.
		return false, nil
	}
	return needsInputSlow(raw)
}

// needsInputSlow is needsInput without the shortcut.
func needsInputSlow(raw json.RawMessage) (bool, error) {
	fields, err := objectFields(raw)
	if err != nil {
		// Not an object: the result's own reader says what is wrong with it.
		return false, nil
	}
	return fieldsNeedInput(fields)
}

// fieldsNeedInput is needsInput on a result's members.
func fieldsNeedInput(fields []field) (bool, error) {
	typ, err := onlyOne(fields, "resultType")
	if err != nil {
		return false, err
	}
	if isNull(typ) {
		// No type: complete, as from a server of an earlier version, unless it
		// carries input requests, as early implementations of SEP-2322 sent
		// them (go-sdk's client went by inputRequests alone).
		reqs, err := onlyOne(fields, "inputRequests")
		return err == nil && !isNull(reqs), err
	}
	switch string(typ) {
	case `"` + resultComplete + `"`: // every answer at 2026-07-28: no decoder for it
		return false, nil
	case `"` + resultInputRequired + `"`:
		return true, nil
	}
	var s string
	if json.Unmarshal(typ, &s) != nil {
		return false, violationf("the server's answer has a resultType that is not a string: %s", clip(typ, 40))
	}
	switch s {
	case resultComplete:
		return false, nil
	case resultInputRequired:
		return true, nil
	}
	return false, violationf("the server answered with a result of type %q, which mcpsh does not know", clipText(safeText(s), 60))
}

// parseInputRequired reads an input-required result. An error says how it
// breaks the protocol, naming the key.
func parseInputRequired(raw json.RawMessage) (*inputRequired, error) {
	fields, err := objectFields(raw)
	if err != nil {
		return nil, violationf("the server's request for more input is not a JSON object: %s", err)
	}
	ir := &inputRequired{}
	reqs, err := onlyOne(fields, "inputRequests")
	if err != nil {
		return nil, err
	}
	state, err := onlyOne(fields, "requestState")
	if err != nil {
		return nil, err
	}
	if !isNull(state) {
		if json.Unmarshal(state, &ir.state) != nil {
			return nil, violationf("the server's request for more input has a requestState that is not a string: %s", clip(state, 40))
		}
		ir.hasState = true
	}
	if isNull(reqs) {
		if !ir.hasState {
			return nil, violationf("the server asked for more input but sent neither inputRequests nor requestState")
		}
		return ir, nil
	}
	entries, err := objectFields(reqs)
	if err != nil {
		return nil, violationf("the server's inputRequests is %s, not an object", rawKind(reqs))
	}
	seen := make(map[string]bool, len(entries))
	for _, e := range entries {
		where := fmt.Sprintf("inputRequests[%q]", clipText(safeText(e.key), 60))
		if seen[e.key] {
			return nil, violationf("the server lists %s twice", where)
		}
		seen[e.key] = true
		req, err := readInputRequest(e.key, e.value)
		if err != nil {
			return nil, violationf("the server's %s %s", where, err)
		}
		ir.requests = append(ir.requests, req)
	}
	return ir, nil
}

// readInputRequest reads one entry of inputRequests: an object with a method
// and, if anything, params that are an object. The error completes a
// sentence about the entry.
func readInputRequest(key string, raw json.RawMessage) (inputRequest, error) {
	fields, err := objectFields(raw)
	if err != nil {
		return inputRequest{}, fmt.Errorf("is %s, not a request object", rawKind(raw))
	}
	method, err := onlyOne(fields, "method")
	if err != nil {
		return inputRequest{}, errors.New("names its method twice")
	}
	req := inputRequest{key: key}
	if json.Unmarshal(method, &req.method) != nil || req.method == "" {
		return inputRequest{}, errors.New("has no method")
	}
	params, err := onlyOne(fields, "params")
	if err != nil {
		return inputRequest{}, errors.New("gives its params twice")
	}
	if !isNull(params) {
		if _, err := objectFields(params); err != nil {
			return inputRequest{}, fmt.Errorf("has params that are %s, not an object", rawKind(params))
		}
		req.params = params
	}
	return req, nil
}

// field is one member of a JSON object, its key unescaped.
type field struct {
	key   string
	value json.RawMessage
}

// objectFields returns the members of a JSON object in order, keys exactly as
// sent (encoding/json would match a struct's keys without regard to case).
//
// Every answer to a call at 2026-07-28 comes through here (its resultType),
// so the common case is cut by the scanner: a decoder's token by token read
// was mcpsh's largest own cost per call. The decoder reads what the scanner
// leaves to it, with its errors; FuzzObjectFields holds the two equal.
func objectFields(raw json.RawMessage) ([]field, error) {
	if fs, ok := objectFieldsFast(raw); ok {
		return fs, nil
	}
	return objectFieldsDecoded(raw)
}

// objectFieldsFast is objectFields for valid JSON whose keys are plain
// ASCII without escapes, so each key reads as it is written; ok is false
// for anything else.
func objectFieldsFast(raw json.RawMessage) (fs []field, ok bool) {
	ok = jsonscan.Members(raw, func(k, v []byte) bool {
		key := k[1 : len(k)-1]
		for _, c := range key {
			if c == '\\' || c >= 0x80 {
				return false
			}
		}
		fs = append(fs, field{string(key), v})
		return true
	})
	if !ok {
		return nil, false
	}
	return fs, true
}

// objectFieldsDecoded is objectFields by encoding/json's decoder.
func objectFieldsDecoded(raw json.RawMessage) ([]field, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var out []field
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errors.New("not valid JSON")
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("not valid JSON")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, errors.New("not valid JSON")
		}
		out = append(out, field{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, errors.New("not valid JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not valid JSON: more follows the object")
	}
	return out, nil
}

// onlyOne returns the value of key, nil when absent. A key given twice is a
// violation: readers disagree on which one counts.
func onlyOne(fields []field, key string) (json.RawMessage, error) {
	var v json.RawMessage
	found := false
	for _, f := range fields {
		if f.key != key {
			continue
		}
		if found {
			return nil, violationf("the server's answer gives %s twice", key)
		}
		v, found = f.value, true
	}
	return v, nil
}
