package resultview

import "testing"

func TestDefaultFileNames(t *testing.T) {
	for _, c := range []struct{ uri, mime, want string }{
		{"info://pixel.png", "image/png", "pixel.png"},
		{"mem://counter", "text/plain", "counter.txt"},
		{"https://x.example/a/b/../../etc/passwd", "", "passwd.bin"},
		{"data:", "image/jpeg", "resource.jpg"},
		{"file:///tmp/.hidden", "", "hidden.bin"},
		{"x://h/na me;rm -rf", "", "na_me_rm_-rf.bin"},
	} {
		if got := DefaultFileName(c.uri, c.mime, true); got != c.want {
			t.Errorf("DefaultFileName(%q, %q) = %q, want %q", c.uri, c.mime, got, c.want)
		}
	}
}
