package config

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// maxDotenv bounds an envFile: it holds a few variables, not data.
const maxDotenv = 1 << 20

// readDotenv reads a dotenv file as VS Code and Cursor read "envFile":
// NAME=VALUE lines, "export " allowed in front, blank lines and # comments
// skipped; a value in double quotes takes \n and \" escapes, one in single
// quotes is literal, and an unquoted value ends at " #". Values are not
// expanded. The pairs come in file order; a later NAME wins.
func readDotenv(path string) ([][2]string, error) {
	data, err := readRegular(path, maxDotenv)
	if err != nil {
		return nil, err
	}
	var out [][2]string
	at := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), maxDotenv)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		name, value, ok := strings.Cut(line, "=")
		name = strings.TrimSpace(name)
		if !ok || !isName(name) {
			return nil, fmt.Errorf("%s:%d: want NAME=VALUE", path, n)
		}
		value, err := dotenvValue(strings.TrimSpace(value))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if i, seen := at[name]; seen {
			out[i][1] = value
			continue
		}
		at[name] = len(out)
		out = append(out, [2]string{name, value})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return out, nil
}

// dotenvValue reads the text after "=".
func dotenvValue(v string) (string, error) {
	switch {
	case strings.HasPrefix(v, `"`):
		end := strings.LastIndexByte(v, '"')
		if end == 0 {
			return "", fmt.Errorf("unterminated quoted value")
		}
		s, err := strconv.Unquote(v[:end+1])
		if err != nil {
			// Not Go syntax, but a plain quoted string: keep what is between.
			return v[1:end], nil
		}
		return s, nil
	case strings.HasPrefix(v, "'"):
		end := strings.LastIndexByte(v, '\'')
		if end == 0 {
			return "", fmt.Errorf("unterminated quoted value")
		}
		return v[1:end], nil
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v, nil
}
