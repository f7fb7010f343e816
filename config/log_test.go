package config

import (
	"testing"
	"time"
)

func TestLogKey(t *testing.T) {
	f, err := Parse("config.json", []byte(`{"mcpServers": {}, "log": {"maxAge": "7d", "maxSize": "1.5GB"}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Log.MaxAge != 7*24*time.Hour || f.Log.MaxSize != 3<<29 {
		t.Errorf("log %+v", f.Log)
	}
	f, err = Parse("config.json", []byte(`{"mcpServers": {"a": {"command": "a"}}}`), nil)
	if err != nil || f.Log != (Log{}) {
		t.Errorf("no log key: %+v %v", f.Log, err)
	}

	ok := map[string]Log{
		`{"maxAge": "36h"}`:                    {MaxAge: 36 * time.Hour},
		`{"maxAge": "1d12h"}`:                  {MaxAge: 36 * time.Hour},
		`{"maxSize": 1048576}`:                 {MaxSize: 1 << 20},
		`{"maxSize": "200MB"}`:                 {MaxSize: 200 << 20},
		`{"maxSize": "512 kb"}`:                {MaxSize: 512 << 10},
		`{"maxSize": "2GiB", "maxAge": null}`:  {MaxSize: 2 << 30},
		`null`:                                 {},
		`{}`:                                   {},
		`{"maxAge": "90d", "maxSize": "10MB"}`: {MaxAge: 90 * 24 * time.Hour, MaxSize: 10 << 20},
		`{"results": "full"}`:                  {Results: "full"},
		`{"results": "none", "maxAge": "1d"}`:  {Results: "none", MaxAge: 24 * time.Hour},
		`{"results": null}`:                    {},
	}
	for in, want := range ok {
		f, err := Parse("config.json", []byte(`{"log": `+in+`}`), nil)
		if err != nil || f.Log != want {
			t.Errorf("log %s: %+v, %v; want %+v", in, f.Log, err, want)
		}
	}

	bad := map[string]string{
		`{"log": {"maxAge": "3x"}}`:                   `config.json: log.maxAge: "3x" is not a duration (want one such as "30d", "12h" or "1d12h")`,
		`{"log": {"maxAge": 30}}`:                     `config.json: log.maxAge: want a duration such as "30d" or "12h", got a number`,
		`{"log": {"maxAge": "0d"}}`:                   `config.json: log.maxAge: "0d" is not more than zero (for a longer history, give a longer time)`,
		`{"log": {"maxAge": "-1d"}}`:                  `config.json: log.maxAge: "-1d" is not a duration (want one such as "30d", "12h" or "1d12h")`,
		`{"log": {"maxAge": "1d-2h"}}`:                `config.json: log.maxAge: "1d-2h" is not a duration (want one such as "30d", "12h" or "1d12h")`,
		`{"log": {"maxSize": "lots"}}`:                `config.json: log.maxSize: "lots" is not a size (want one such as "200MB", "1GB" or a number of bytes)`,
		`{"log": {"maxSize": "200 parsecs"}}`:         `config.json: log.maxSize: "200 parsecs" is not a size (want one such as "200MB", "1GB" or a number of bytes)`,
		`{"log": {"maxSize": 0}}`:                     `config.json: log.maxSize: "0" is not more than zero (for a larger history, give a larger size)`,
		`{"log": {"maxSize": -5}}`:                    `config.json: log.maxSize: "-5" is not a size (want one such as "200MB", "1GB" or a number of bytes)`,
		`{"log": {"maxSize": true}}`:                  `config.json: log.maxSize: want a size such as "200MB", got a boolean`,
		`{"log": {"maxage": "1d"}}`:                   `config.json: log.maxage: unknown key (want maxAge, maxSize or results)`,
		`{"log": {"results": "all"}}`:                 `config.json: log.results: "all": want "none", "digest" or "full"`,
		`{"log": {"results": "Digest"}}`:              `config.json: log.results: "Digest": want "none", "digest" or "full"`,
		`{"log": {"results": false}}`:                 `config.json: log.results: want "none", "digest" or "full", got a boolean`,
		`{"log": "30d"}`:                              `config.json: log: want an object, got a string`,
		`{"log": {"maxAge": "1d"}, "log": {}}`:        `config.json: log: duplicate key`,
		`{"log": {"maxAge": "1d", "maxAge": "2d"}}`:   `config.json: log.maxAge: duplicate key`,
		`{"log": {"maxSize": "99999999999999999TB"}}`: `config.json: log.maxSize: "99999999999999999TB" is not a size (want one such as "200MB", "1GB" or a number of bytes)`,
	}
	for in, want := range bad {
		_, err := Parse("config.json", []byte(in), nil)
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", in, err, want)
		}
	}
}
