//go:build !unix

package config

import "errors"

func mkfifo(string) error { return errors.New("not on this platform") }
