package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

var seeds = []string{
	`{}`,
	` { "a" : 1 , "b":[1,{"c":"]}"}] ,"d\"e":"x\\"} ` + "\n",
	`{"a":true,"b":null,"c":-1.5e3,"d":{"e":[[]]},"\u00e9":"\u0041"}`,
	`[1,2]`,
	`"s"`,
	`{"a":1`,
	`{"a":1}{}`,
	`[[[[[[[[[[[]]]]]]]]]]]`,
	`{"a":"[[[[[[["}`,
	`{"a":"x\\","b":"\"\\\"","c":["\\"]}`,
	`["[\"[\\",[[`, `"\`, `"[\\"[`,
}

// members are the object's members by encoding/json: each key's value and
// each value's text, compacted, so that layout does not count.
func members(t *testing.T, b []byte) (keys, values []string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') || !json.Valid(b) {
		return nil, nil, false
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		keys, values = append(keys, k.(string)), append(values, compact(t, v))
	}
	return keys, values, true
}

func compact(t *testing.T, b []byte) string {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatalf("%q: %v", b, err)
	}
	return out.String()
}

// depth is how deep valid JSON nests, by encoding/json's tokens.
func depth(b []byte) int {
	dec := json.NewDecoder(bytes.NewReader(b))
	d, most := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return most
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			d++
			most = max(most, d)
		case json.Delim('}'), json.Delim(']'):
			d--
		}
	}
}

func check(t *testing.T, b []byte) {
	wantKeys, wantValues, wantOK := members(t, b)
	var keys, values []string
	ok := Members(b, func(k, v []byte) bool {
		var s string
		if err := json.Unmarshal(k, &s); err != nil {
			t.Fatalf("%q: the key %q is not a string: %v", b, k, err)
		}
		keys, values = append(keys, s), append(values, compact(t, v))
		return true
	})
	if ok != wantOK || strings.Join(keys, "\x00") != strings.Join(wantKeys, "\x00") || strings.Join(values, "\x00") != strings.Join(wantValues, "\x00") {
		t.Fatalf("%q: Members %v %q %q, encoding/json %v %q %q", b, ok, keys, values, wantOK, wantKeys, wantValues)
	}
	// The walks of text known to be valid agree with Members and the
	// decoder, and on other text neither fail nor run without end.
	var validKeys, validValues []string
	validOK := MembersOfValid(b, func(k, v []byte) bool {
		validKeys, validValues = append(validKeys, string(k)), append(validValues, string(v))
		return true
	})
	var elems []string
	elemsOK := ElementsOfValid(b, func(e []byte) bool { elems = append(elems, string(e)); return true })
	if json.Valid(b) {
		var vk []string
		for _, k := range validKeys {
			var s string
			if err := json.Unmarshal([]byte(k), &s); err != nil {
				t.Fatalf("%q: the key %q is not a string: %v", b, k, err)
			}
			vk = append(vk, s)
		}
		if validOK != wantOK || strings.Join(vk, "\x00") != strings.Join(wantKeys, "\x00") || len(validValues) != len(wantValues) {
			t.Fatalf("%q: MembersOfValid %v %q, encoding/json %v %q", b, validOK, vk, wantOK, wantKeys)
		}
		for i, v := range validValues {
			if compact(t, []byte(v)) != wantValues[i] {
				t.Fatalf("%q: MembersOfValid's value %q, encoding/json's %q", b, v, wantValues[i])
			}
		}
		var want []json.RawMessage
		wantElemsOK := json.Unmarshal(b, &want) == nil && bytes.TrimSpace(b)[0] == '['
		if elemsOK != wantElemsOK || len(elems) != len(want) {
			t.Fatalf("%q: ElementsOfValid %v %q, encoding/json %v %q", b, elemsOK, elems, wantElemsOK, want)
		}
		for i, e := range elems {
			if e != string(want[i]) {
				t.Fatalf("%q: ElementsOfValid's element %q, encoding/json's %q", b, e, want[i])
			}
		}
	}
	// NestsDeeper is the byte-by-byte scan it replaced, on any text.
	for _, limit := range []int{0, 1, 2, 5} {
		if got, want := NestsDeeper(b, limit), nestsDeeperByByte(b, limit); got != want {
			t.Fatalf("%q: NestsDeeper(%d) = %v, a byte-by-byte scan says %v", b, limit, got, want)
		}
	}
	if json.Valid(b) {
		d := depth(b)
		if NestsDeeper(b, d) || (d > 0 && !NestsDeeper(b, d-1)) {
			t.Fatalf("%q nests %d deep; NestsDeeper says otherwise", b, d)
		}
	}
}

// nestsDeeperByByte is NestsDeeper as it was, a look at every byte.
func nestsDeeperByByte(b []byte, limit int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString:
			switch c {
			case '\\':
				escaped = true
			case '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > limit {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

func TestScanners(t *testing.T) {
	for _, s := range seeds {
		check(t, []byte(s))
	}
	// f's false stops the walk.
	n := 0
	if Members([]byte(`{"a":1,"b":2}`), func(k, v []byte) bool { n++; return false }) || n != 1 {
		t.Errorf("a walk told to stop went on (%d members)", n)
	}
	// Text that is not JSON: no failure, and no answer of depth beyond it.
	if NestsDeeper([]byte(`"[[[`), 0) || !NestsDeeper([]byte(`[[[`), 2) {
		t.Error("NestsDeeper on broken text")
	}
}

// FuzzScanners holds Members to encoding/json's reading of every object,
// and NestsDeeper to its depth of every valid text.
func FuzzScanners(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { check(t, b) })
}
