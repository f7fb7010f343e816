package client

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"testing"
)

// An image, audio or blob is shown with the size of what it holds, not of
// base64's upper bound (which counted padding: 93 B for 91).
func TestBlockSizeIsTheDecodedSize(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 2, 3, 4, 91, 92, 93, 1000} {
		data := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, n))
		raw := fmt.Sprintf(`{"type":"image","mimeType":"image/png","data":%q}`, data)
		if b := parseBlock([]byte(raw)); b.Bytes != n {
			t.Errorf("image of %d bytes shown as %d", n, b.Bytes)
		}
		raw = fmt.Sprintf(`{"type":"resource","resource":{"uri":"file:///x","blob":%q}}`, data)
		if b := parseBlock([]byte(raw)); b.Bytes != n {
			t.Errorf("blob of %d bytes shown as %d", n, b.Bytes)
		}
		unpadded := base64.RawStdEncoding.EncodeToString(bytes.Repeat([]byte{7}, n))
		raw = fmt.Sprintf(`{"type":"audio","mimeType":"audio/wav","data":%q}`, unpadded)
		if b := parseBlock([]byte(raw)); b.Bytes != n {
			t.Errorf("unpadded audio of %d bytes shown as %d", n, b.Bytes)
		}
	}
}
