//go:build unix

package console

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// alive says whether process pid exists (a process of another user's
// exists too: EPERM).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// ownedByMe refuses a file of another user's.
func ownedByMe(fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if int(st.Uid) != os.Getuid() {
		return fmt.Errorf("it belongs to uid %d, not to this user (uid %d)", st.Uid, os.Getuid())
	}
	return nil
}
