//go:build windows

package console

import (
	"errors"
	"io/fs"

	"golang.org/x/sys/windows"
)

// stillActive is the exit code GetExitCodeProcess gives a process that
// has not ended.
const stillActive = 259

// alive says whether process pid exists. A process this user may not
// query (another user's) exists too.
func alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}

// ownedByMe: on Windows the folder is under %LOCALAPPDATA% (or wherever
// XDG_RUNTIME_DIR or XDG_STATE_HOME point), in the user's profile, whose
// ACL (the user, SYSTEM and Administrators) its children inherit; file
// modes say nothing there, and the ACL is what is relied on.
func ownedByMe(fs.FileInfo) error { return nil }
