package termtext

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func TestEscapeJSON(t *testing.T) {
	v := map[string]any{
		"del":       "a\x7fb",
		"c1":        "\u0080\u0085\u009b31m\u009f",
		"bidi":      "\u202egnp.exe \u2066x\u2069 \u200e\u200f \u061c",
		"seps":      "\u2028\u2029",
		"plain":     "é 👍 \ufffd",
		"\u202ekey": []any{1.5, true, nil, "\u009d"},
	}
	in, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if rawInJSON(in) == "" {
		t.Fatal("encoding/json escaped everything itself; this test no longer shows anything")
	}
	out := EscapeJSON(in)
	if bad := rawInJSON(out); bad != "" {
		t.Errorf("EscapeJSON left %s raw: %s", bad, out)
	}
	for _, want := range []string{`a\u007fb`, `\u0085\u009b31m`, `\u202egnp.exe`, `\u061c`, `\u2028\u2029`, `"\u202ekey"`, "é 👍 \ufffd"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("EscapeJSON(%s) = %s, missing %s", in, out, want)
		}
	}
	var a, b any
	if err := json.Unmarshal(in, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &b); err != nil {
		t.Fatalf("EscapeJSON made invalid JSON: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("EscapeJSON changed the value:\n%v\n%v", a, b)
	}
}

func TestEscapeJSONReturnsCleanInputAsIs(t *testing.T) {
	for _, in := range []string{``, `{}`, `{"a":"é 👍","b":[1,2]}`, "{\"a\":\"\\u001b\"}"} {
		b := []byte(in)
		if out := EscapeJSON(b); len(b) > 0 && &out[0] != &b[0] || string(out) != in {
			t.Errorf("EscapeJSON(%q) = %q, want the input itself", in, out)
		}
	}
}

// Bytes that are not UTF-8 become U+FFFD: raw, 0x9b is a C1 CSI to terminals
// that read 8-bit controls, and encoding/json reads it as U+FFFD anyway.
func TestEscapeJSONReplacesInvalidBytes(t *testing.T) {
	in := []byte("{\"t\":\"a\x9b31m\xffb\"}")
	out := EscapeJSON(in)
	if bytes.IndexByte(out, 0x9b) >= 0 || bytes.IndexByte(out, 0xff) >= 0 {
		t.Fatalf("EscapeJSON(%q) = %q: raw invalid bytes kept", in, out)
	}
	var a, b map[string]string
	if err := json.Unmarshal(in, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &b); err != nil || a["t"] != b["t"] {
		t.Fatalf("EscapeJSON changed the value: %q, then %q (%v)", a, b, err)
	}
}
