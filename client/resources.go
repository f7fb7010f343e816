package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resource is one resource a server lists. Its text is the server's: make it
// safe (internal/termtext) before showing it.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	// Size is the size in bytes the server gave; 0 when it gave none.
	Size int64 `json:"size,omitempty"`
}

// ResourceTemplate is a parameterised resource (RFC 6570 URI template).
type ResourceTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

// DisplayName is the title, else the name.
func (r *Resource) DisplayName() string { return orName(r.Title, r.Name) }

// DisplayName is the title, else the name.
func (t *ResourceTemplate) DisplayName() string { return orName(t.Title, t.Name) }

func orName(title, name string) string {
	if title != "" {
		return title
	}
	return name
}

// ResourceListing is every page of resources/list and resources/templates/list.
type ResourceListing struct {
	Resources []*Resource
	Templates []*ResourceTemplate
	Warnings  []string
}

// ErrNotOffered: the server did not declare the capability a request needs.
var ErrNotOffered = errors.New("the server does not offer this")

// ListResources lists every resource and resource template, page by page,
// each list within its budget (listbudget.go). A list stopped at its budget
// keeps what came before the stop, which is safe to show (nothing is
// decided on it): the listing comes back with the *ListLimitError. A
// resource the server sent in a shape mcpsh cannot read is skipped with a
// warning, not the end of the listing.
func (s *Session) ListResources(ctx context.Context) (*ResourceListing, error) {
	if !s.Server().Capabilities.Resources {
		return nil, fmt.Errorf("listing resources: %w", ErrNotOffered)
	}
	c := s.current()
	out := &ResourceListing{}
	warnings, err := s.paginate("resources", "resources", true, func(cursor string) (json.RawMessage, error) {
		return s.rawCall(ctx, c, "resources/list", func(ctx context.Context) error {
			_, err := c.cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			return err
		})
	}, func(page, n int, item json.RawMessage) {
		if r, err := resourceItem(item); err != nil {
			out.Warnings = append(out.Warnings, skipped("resource", page, n, err))
		} else if r != nil {
			out.Resources = append(out.Resources, r)
		}
	})
	out.Warnings = append(out.Warnings, warnings...)
	if err != nil && !isListLimit(err) {
		return nil, s.listError("resources", err)
	}
	terr := s.listTemplates(ctx, c, out)
	return out, errors.Join(err, terr)
}

// listTemplates adds the resource templates to out. A server may list
// resources without supporting templates: a failure is a warning, unless it
// is the budget's.
func (s *Session) listTemplates(ctx context.Context, c *connection, out *ResourceListing) error {
	warnings, err := s.paginate("resource templates", "resourceTemplates", true, func(cursor string) (json.RawMessage, error) {
		return s.rawCall(ctx, c, "resources/templates/list", func(ctx context.Context) error {
			_, err := c.cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
			return err
		})
	}, func(page, n int, item json.RawMessage) {
		if t, err := templateItem(item); err != nil {
			out.Warnings = append(out.Warnings, skipped("resource template", page, n, err))
		} else if t != nil {
			out.Templates = append(out.Templates, t)
		}
	})
	out.Warnings = append(out.Warnings, warnings...)
	switch {
	case err == nil:
	case isListLimit(err):
		return err
	default:
		out.Warnings = append(out.Warnings, s.listError("resource templates", err).Error())
	}
	return nil
}

func isListLimit(err error) bool {
	var le *ListLimitError
	return errors.As(err, &le)
}

func (s *Session) listError(what string, err error) error {
	if errors.Is(err, ErrNotOffered) || isListLimit(err) {
		return err
	}
	return fmt.Errorf("listing %s: %s", what, s.Target.Redact(termtext.Line(err.Error())))
}

// ResourceContent is one part of what resources/read returned: text, or a
// blob already decoded from base64.
type ResourceContent struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     []byte `json:"blob,omitempty"`
	IsBlob   bool   `json:"-"`
}

// ReadResource reads a resource. The answer is bounded like every other
// (maxAnswerBytes on the wire).
func (s *Session) ReadResource(ctx context.Context, uri string) ([]ResourceContent, error) {
	if !s.Server().Capabilities.Resources {
		return nil, fmt.Errorf("reading %s: %w", termtext.Line(uri), ErrNotOffered)
	}
	res, err := s.readResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %s", termtext.Line(uri), s.Target.Redact(termtext.Line(err.Error())))
	}
	var out []ResourceContent
	for _, c := range res.Contents {
		if c == nil {
			continue
		}
		rc := ResourceContent{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text}
		if c.Blob != nil {
			rc.Blob, rc.IsBlob = c.Blob, true
		}
		out = append(out, rc)
	}
	return out, nil
}

// Subscribe asks for notifications/resources/updated for uri; they arrive as
// EventResourceUpdated.
func (s *Session) Subscribe(ctx context.Context, uri string) error {
	if !s.Server().Capabilities.ResourcesSubscribe {
		return fmt.Errorf("subscribing to %s: the server does not offer resource subscriptions", termtext.Line(uri))
	}
	if err := s.current().cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		return fmt.Errorf("subscribing to %s: %s", termtext.Line(uri), s.Target.Redact(termtext.Line(err.Error())))
	}
	return nil
}

// Unsubscribe stops the notifications for uri.
func (s *Session) Unsubscribe(ctx context.Context, uri string) error {
	return s.current().cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri})
}

// MarshalJSON writes a blob as base64, as the wire does, and marks it.
func (c ResourceContent) MarshalJSON() ([]byte, error) {
	type plain ResourceContent
	if !c.IsBlob {
		return json.Marshal(plain(c))
	}
	return json.Marshal(struct {
		URI      string `json:"uri"`
		MIMEType string `json:"mimeType,omitempty"`
		Blob     []byte `json:"blob"`
		Size     int    `json:"size"`
	}{c.URI, c.MIMEType, c.Blob, len(c.Blob)})
}
