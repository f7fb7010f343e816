package config

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var oauthEnv = envOf(map[string]string{"CLIENT_SECRET": "cs-0123456789", "TENANT": "acme", "HOME": "/home/u"})

func TestOAuthKeys(t *testing.T) {
	tests := []struct {
		name, server string
		want         OAuth
	}{
		{"none", `{"url": "https://h/mcp"}`, OAuth{}},
		{"pre-registered client from variables", `{"url": "https://h/mcp", "clientId": "mcpsh-${TENANT}", "clientSecret": "${CLIENT_SECRET}"}`,
			OAuth{ClientID: "mcpsh-acme", ClientSecret: "cs-0123456789"}},
		{"metadata document and scopes as an array", `{"url": "https://h/mcp", "clientMetadataUrl": "https://mcpsh.example/client.json", "scopes": ["read", "write admin"]}`,
			OAuth{ClientMetadataURL: "https://mcpsh.example/client.json", Scopes: []string{"read", "write", "admin"}}},
		{"scopes as one string", `{"url": "https://h/mcp", "scopes": " read  write "}`, OAuth{Scopes: []string{"read", "write"}}},
		{"no scopes at all", `{"url": "https://h/mcp", "scopes": []}`, OAuth{Scopes: []string{}}},
		{"client credentials", `{"url": "https://h/mcp", "grant": "client_credentials", "clientId": "svc", "clientSecret": "${CLIENT_SECRET}"}`,
			OAuth{Grant: GrantClientCredentials, ClientID: "svc", ClientSecret: "cs-0123456789"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("c.json", []byte(`{"mcpServers": {"s": `+tt.server+`}}`), oauthEnv)
			if err != nil {
				t.Fatal(err)
			}
			s := f.Servers[0]
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, s.OAuth); diff != "" {
				t.Errorf("OAuth (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOAuthSecret: a client secret is a secret whether it is written out or
// comes from a variable whose name says nothing.
func TestOAuthSecret(t *testing.T) {
	for _, secret := range []string{"plain-written-secret", "${CLIENT_SECRET}"} {
		f, err := Parse("c.json", []byte(`{"mcpServers": {"s": {"url": "https://h/mcp", "clientId": "x", "clientSecret": "`+secret+`"}}}`), oauthEnv)
		if err != nil {
			t.Fatal(err)
		}
		want := f.Servers[0].OAuth.ClientSecret
		if !slices.Contains(f.Servers[0].Secrets, want) {
			t.Errorf("%s: Secrets %q lack the client secret", secret, f.Servers[0].Secrets)
		}
	}
}

func TestOAuthErrors(t *testing.T) {
	tests := []struct {
		name, server, key, msg string
	}{
		{"stdio", `{"command": "x", "clientId": "a"}`, "mcpServers.s.clientId", "streamable HTTP servers"},
		{"sse", `{"type": "sse", "url": "https://h/sse", "scopes": "a"}`, "mcpServers.s.scopes", "not sse ones"},
		{"secret without id", `{"url": "https://h/mcp", "clientSecret": "s3cr3t-value"}`, "mcpServers.s.clientSecret", "needs a client ID"},
		{"metadata URL over http", `{"url": "https://h/mcp", "clientMetadataUrl": "http://mcpsh.example/client.json"}`, "mcpServers.s.clientMetadataUrl", "not an https URL with a path"},
		{"metadata URL without a path", `{"url": "https://h/mcp", "clientMetadataUrl": "https://mcpsh.example/"}`, "mcpServers.s.clientMetadataUrl", "not an https URL with a path"},
		{"unknown grant", `{"url": "https://h/mcp", "grant": "password"}`, "mcpServers.s.grant", `unknown grant "password"`},
		{"client credentials without a secret", `{"url": "https://h/mcp", "grant": "client_credentials", "clientId": "a"}`, "mcpServers.s.grant", "needs a client ID and a client secret"},
		{"scopes of the wrong type", `{"url": "https://h/mcp", "scopes": 3}`, "mcpServers.s.scopes", "got a number"},
		{"client id of the wrong type", `{"url": "https://h/mcp", "clientId": 3}`, "mcpServers.s.clientId", "want a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.json", []byte(`{"mcpServers": {"s": `+tt.server+`}}`), oauthEnv)
			var ce *Error
			if !errors.As(err, &ce) || ce.Key != tt.key || !strings.Contains(ce.Msg, tt.msg) || ce.File != "c.json" {
				t.Fatalf("error = %v, want %s: …%s…", err, tt.key, tt.msg)
			}
			if strings.Contains(err.Error(), "s3cr3t-value") {
				t.Errorf("the error shows the secret: %v", err)
			}
		})
	}
}

// TestOAuthUnsetVariable: a variable that is not set spoils only its server.
func TestOAuthUnsetVariable(t *testing.T) {
	f, err := Parse("c.json", []byte(`{"mcpServers": {"s": {"url": "https://h/mcp", "clientId": "a", "clientSecret": "${NOPE}"}, "t": {"url": "https://h/mcp"}}}`), oauthEnv)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Servers[0].Validate(); err == nil || !strings.Contains(err.Error(), "mcpServers.s.clientSecret: ${NOPE} is not set") {
		t.Errorf("s: %v", err)
	}
	if err := f.Servers[1].Validate(); err != nil {
		t.Errorf("t: %v", err)
	}
}
