package client

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// The reader reuses one buffer from line to line; what the SDK reads must be
// each line as sent, whatever the sizes and however little it reads at once,
// and a line too large to keep must not leave its buffer behind.
func TestStdoutReaderKeepsEachLineWhole(t *testing.T) {
	t.Parallel()
	big := `{"jsonrpc":"2.0","id":9,"result":{"text":"` + strings.Repeat("x", keepLineBuf) + `"}}`
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("a", 300) + `"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
		`Starting server...`, // noise, skipped
		`  {"jsonrpc":"2.0","id":3,"result":{"text":"` + strings.Repeat("b", 200) + `"}}  `,
		big,
		`{"jsonrpc":"2.0","id":4,"result":{}}`,
	}
	var warned []string
	r := newStdoutReader(io.NopCloser(strings.NewReader(strings.Join(lines, "\n")+"\n")), newTap(), func(w string) { warned = append(warned, w) })
	var got bytes.Buffer
	for {
		line, err := r.nextLine()
		if len(line) > 0 {
			got.Write(line)
			got.WriteByte('\n')
		}
		if cap(r.line) > keepLineBuf {
			t.Fatalf("the reader keeps a %d-byte buffer, more than %d", cap(r.line), keepLineBuf)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	want := strings.Join([]string{lines[0], lines[1], strings.TrimSpace(lines[3]), big, lines[5]}, "\n") + "\n"
	if got.String() != want {
		t.Errorf("read %d bytes, want %d; first difference at %d", got.Len(), len(want), firstDiff(got.String(), want))
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "Starting server") {
		t.Errorf("warnings: %q", warned)
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
