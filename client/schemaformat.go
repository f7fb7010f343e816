package client

import (
	"fmt"
	"net/mail"
	"net/url"
	"strings"
	"time"
	"unicode"
)

// An elicitation's requestedSchema may ask for a string in one of four
// formats (the MCP schema's StringSchema: email, uri, date, date-time).
// jsonschema-go treats "format" as an annotation and asserts none, so an
// answer of "bad-email" or "yesterday" would reach the server as if it fit.
// The answer is mcpsh's (the user's) to give, so mcpsh holds it to the
// format the server asked for. Tool arguments are not held to formats: there
// the schema is the server's description of what it accepts, and by JSON
// Schema's own rules a format there only annotates.

// stringFormats are the formats checked, each with what a value must be.
var stringFormats = map[string]struct {
	valid func(string) bool
	want  string
}{
	"email":     {validEmail, "an email address, such as name@example.com"},
	"uri":       {validURI, "an absolute URI, such as https://example.com/page"},
	"date":      {validDate, "a date as YYYY-MM-DD, such as 2026-07-28"},
	"date-time": {validDateTime, "a date and time as RFC 3339, such as 2026-07-28T09:30:00Z"},
}

// checkFormats checks the string values of the top-level fields (and of
// their array items) against the format each field declares, as the schema
// reader read it (the format a form shows is the one checked).
func (s *Schema) checkFormats(v map[string]any) error {
	for _, f := range s.Fields {
		val, ok := v[f.Name]
		if !ok {
			continue
		}
		if err := s.checkFormat(f.Name, f.Format, val); err != nil {
			return err
		}
		if items, ok := val.([]any); ok && f.Items != nil {
			for _, it := range items {
				if err := s.checkFormat(f.Name+"[]", f.Items.Format, it); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (s *Schema) checkFormat(name, format string, val any) error {
	str, ok := val.(string)
	if !ok {
		return nil // a value of another type breaks "type", which jsonschema-go checks
	}
	fm, ok := stringFormats[format]
	if !ok || fm.valid(str) {
		return nil
	}
	return &ArgError{Tool: safeText(s.name), Arg: safeText(name),
		Rule: fmt.Sprintf("%q is not %s (format %q)", clipText(safeText(str), 60), fm.want, format)}
}

// validEmail is an addr-spec alone (RFC 5322, as net/mail reads it): no
// display name, no angle brackets, a local part and a domain.
func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Name == "" && a.Address == s && !strings.HasPrefix(s, "<")
}

// validURI is an absolute URI (RFC 3986): a scheme, and nothing a URI cannot
// hold (spaces, controls).
func validURI(s string) bool {
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && (u.Opaque != "" || u.Host != "" || u.Path != "")
}

// validDate is RFC 3339's full-date; time.Parse also refuses days a month
// does not have.
func validDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil && len(s) == len(time.DateOnly)
}

// validDateTime is RFC 3339's date-time, with its offset; the "t" and "z"
// RFC 3339 also allows in lower case are taken too.
func validDateTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s))
	return err == nil
}
