package redact

import (
	"strings"
	"testing"
)

// fuzzSecrets are seeded into the fuzzer's text: whatever surrounds them, Text
// must not let one through.
var fuzzSecrets = []string{ghp, openai, jwt, aws, "sk_live_" + "51HxYzAbCdEf", "xoxp-" + "1234567890-abcdefgh",
	"AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "glpat-" + "abcDEF123ghiJKL456mn", "github_pat_" + "11AB11AB11AB11AB11AB11AB"}

func FuzzText(f *testing.F) {
	for i, s := range []string{"", "Authorization: Bearer", `{"password":"`, "https://u:p@h/?token=", "-----BEGIN PRIVATE KEY-----",
		"key=value; token=", "Cookie:", "sk-", `"note": "x\`, "https://h/?next="} {
		f.Add(s, s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, before, after string, which uint8) {
		secret := fuzzSecrets[int(which)%len(fuzzSecrets)]
		in := before + " " + secret + " " + after
		out := Text(in)
		// The text around may hold the secret itself, glued to other characters
		// where no pattern can tell it is one; only the seeded copy is checked.
		if strings.Count(out, secret) > strings.Count(before, secret)+strings.Count(after, secret) {
			t.Errorf("Text(%q) = %q: the secret survived", in, out)
		}
		if again := Text(out); again != out {
			t.Errorf("Text is not idempotent on %q:\nonce  %q\ntwice %q", in, out, again)
		}
	})
}
