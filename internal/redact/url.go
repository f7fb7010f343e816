package redact

import (
	"net/url"
	"strings"
)

var schemePrefix = lazy(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// URL returns raw safe to show. The userinfo goes: a password becomes Marker
// and its user stays ("postgres://app:[redacted]@db/x"), but a user alone is
// replaced too, since that is where a token goes in "https://TOKEN@github.com".
// Query and fragment parameters whose name looks secret (token, api_key, key,
// sig, code, client_secret, …) keep their name and lose their value, and known
// token formats anywhere else in the URL are replaced. Everything else is kept
// byte for byte, escapes included. A string that is not an absolute URL goes
// through Text.
func URL(raw string) string {
	if _, err := url.Parse(raw); err != nil || !schemePrefix().MatchString(raw) {
		return Text(raw)
	}
	return redactURL(raw, nil)
}

// redactURL works on the text rather than a parsed url.URL: re-encoding would
// change what the user wrote, and a URL cut out of a message need not parse.
func redactURL(raw string, report func(string)) string {
	i := strings.Index(raw, "://") + 3
	rest := raw[i:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	var b strings.Builder
	b.WriteString(raw[:i])
	host := rest[:end]
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		b.WriteString(userinfo(host[:at], report))
		host = host[at:]
	}
	b.WriteString(host)

	tail := rest[end:]
	fragment := ""
	if h := strings.IndexByte(tail, '#'); h >= 0 {
		tail, fragment = tail[:h], tail[h:]
	}
	path, query, hasQuery := strings.Cut(tail, "?")
	b.WriteString(tokens(path, report))
	if hasQuery {
		b.WriteString("?" + params(query, report))
	}
	if fragment != "" {
		// OAuth's implicit flow returns access_token=… in the fragment.
		b.WriteString("#" + params(fragment[1:], report))
	}
	return b.String()
}

// userinfo redacts the part of a URL before "@".
func userinfo(ui string, report func(string)) string {
	user, pass, hasPass := strings.Cut(ui, ":")
	// Alone, the user is where a token goes; beside a password it is a name.
	userSafe := keep(user) || hasPass && pass != "" && Text(user) == user
	passSafe := keep(pass)
	if !userSafe {
		reportEscaped(user, report)
	}
	if !passSafe {
		reportEscaped(pass, report)
	}
	switch {
	case !userSafe:
		return Marker
	case !passSafe:
		return user + ":" + Marker
	}
	return ui
}

// params redacts a query string (or a fragment) parameter by parameter.
func params(q string, report func(string)) string {
	parts := strings.Split(q, "&")
	for i, p := range parts {
		name, v, ok := strings.Cut(p, "=")
		if !ok {
			parts[i] = tokens(p, report)
			continue
		}
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		switch {
		case paramName(name) && !keep(v):
			reportEscaped(v, report)
			parts[i] = p[:len(p)-len(v)] + Marker
		case strings.Contains(v, "://"):
			// An unescaped URL in a value (?next=https://u:pw@h/) ends the outer one.
			parts[i] = p[:len(p)-len(v)] + redactURL(v, report)
		default:
			parts[i] = tokens(p, report)
		}
	}
	return strings.Join(parts, "&")
}

// reportEscaped reports v and, when it differs, v unescaped: a message may
// show either form.
func reportEscaped(v string, report func(string)) {
	if report == nil {
		return
	}
	report(v)
	if u, err := url.PathUnescape(v); err == nil && u != v {
		report(u)
	}
}
