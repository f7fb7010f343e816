package redact

import "testing"

func TestURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://example.com/mcp", "https://example.com/mcp"},
		{"https://" + ghp + "@github.com/o/r.git", "https://[redacted]@github.com/o/r.git"},
		{"https://x-access-token:" + ghp + "@github.com/o/r", "https://x-access-token:[redacted]@github.com/o/r"},
		{"postgres://app:hunter2@db:5432/x?sslmode=disable", "postgres://app:[redacted]@db:5432/x?sslmode=disable"},
		{"redis://:hunter2@cache:6379/0", "redis://:[redacted]@cache:6379/0"},
		{"https://" + ghp + ":x-oauth-basic@github.com/", "https://[redacted]@github.com/"},
		{"https://${USER}:${PASS}@h/", "https://${USER}:${PASS}@h/"},
		{"https://h/mcp?api_key=abc&x=1", "https://h/mcp?api_key=[redacted]&x=1"},
		{"https://h/?APIKEY=a&Api-Key=b&key=c&token=d&access_token=e&auth=f", "https://h/?APIKEY=[redacted]&Api-Key=[redacted]&key=[redacted]&token=[redacted]&access_token=[redacted]&auth=[redacted]"},
		{"https://h/?password=a&passwd=b&secret=c&client_secret=d&sig=e&signature=f&session=g&code=h", "https://h/?password=[redacted]&passwd=[redacted]&secret=[redacted]&client_secret=[redacted]&sig=[redacted]&signature=[redacted]&session=[redacted]&code=[redacted]"},
		{"https://s3/b/o?X-Amz-Credential=a%2Fb&X-Amz-Signature=ff&X-Amz-Expires=60", "https://s3/b/o?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&X-Amz-Expires=60"},
		{"https://h/cb#access_token=abc&state=xyz", "https://h/cb#access_token=[redacted]&state=xyz"},
		{"https://h/?token=${TOKEN}", "https://h/?token=${TOKEN}"},
		{"https://h/?token=&q=a%20b", "https://h/?token=&q=a%20b"},
		{"https://h/p/" + ghp + "/x?q=" + aws, "https://h/p/[redacted]/x?q=[redacted]"},
		{"https://h/?next=https://u:pw@o/", "https://h/?next=https://u:[redacted]@o/"},
		{"https://h/a%2Fb?monkey=1&keyboard=2", "https://h/a%2Fb?monkey=1&keyboard=2"},
		// Not URLs: Text.
		{"not a url password=x", "not a url password=[redacted]"},
		{"https://exa mple.com/?token=x", "https://exa mple.com/?token=[redacted]"},
		{"/home/u/notes", "/home/u/notes"},
	}
	for _, tt := range tests {
		if got := URL(tt.in); got != tt.want {
			t.Errorf("URL(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
		if got := URL(URL(tt.in)); got != tt.want {
			t.Errorf("URL is not idempotent on %q: %q", tt.in, got)
		}
	}
}
