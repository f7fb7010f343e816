package config

import (
	"encoding/json"
	"testing"
)

func TestStripJSONC(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain JSON is unchanged", `{"a": [1, 2], "b": "c"}`, `{"a": [1, 2], "b": "c"}`},
		{"line comment", "{\"a\": 1} // done\n", "{\"a\": 1}        \n"},
		{"line comment at end of input", `{} //x`, `{}    `},
		{"block comment keeps newlines", "{/* one\r\ntwo */}", "{      \r\n      }"},
		{"URL keeps its //", `{"url": "https://h/p" // c` + "\n}", `{"url": "https://h/p"     ` + "\n}"},
		{"comment markers inside strings", `{"a": "/* x */", "b": "// y"}`, `{"a": "/* x */", "b": "// y"}`},
		{"escaped quote does not end a string", `{"a": "q\" // not a comment"}`, `{"a": "q\" // not a comment"}`},
		{"escaped backslash ends before the quote", `{"a": "\\"} // c`, `{"a": "\\"}     `},
		{"trailing comma in object", `{"a": 1,}`, `{"a": 1 }`},
		{"trailing comma in array", "[1,\n\t2,\n]", "[1,\n\t2 \n]"},
		{"comma, comment, bracket", "[1, // last\n]", "[1         \n]"},
		{"comma in a string stays", `["a,]"]`, `["a,]"]`},
		{"double comma stays an error", `[1,,]`, `[1,,]`},
		{"lone comma stays an error", `[ , ]`, `[ , ]`},
		{"comma after brace stays an error", `{,}`, `{,}`},
		{"nested trailing commas", `{"a": [{"b": "]",},],}`, `{"a": [{"b": "]" } ] }`},
		{"byte order mark", "\xef\xbb\xbf{}", "   {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := stripJSONC([]byte(tt.in))
			if err != nil {
				t.Fatal(err.msg)
			}
			if string(got) != tt.want {
				t.Errorf("stripJSONC(%q)\n = %q\nwant %q", tt.in, got, tt.want)
			}
			if len(got) != len(tt.in) {
				t.Errorf("length changed from %d to %d: offsets would no longer match", len(tt.in), len(got))
			}
		})
	}
}

func TestStripJSONCUnterminated(t *testing.T) {
	_, err := stripJSONC([]byte(`{"a": 1} /* open`))
	if err == nil || err.off != 9 || err.msg != "unterminated /* comment" {
		t.Errorf("got %+v, want an unterminated comment at offset 9", err)
	}
}

// TestStripJSONCDecodes checks that a typical VS Code file decodes after stripping.
func TestStripJSONCDecodes(t *testing.T) {
	got, serr := stripJSONC([]byte(vscodeFile))
	if serr != nil {
		t.Fatal(serr.msg)
	}
	var v map[string]any
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatalf("%v in\n%s", err, got)
	}
}
