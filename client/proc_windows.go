//go:build windows

package client

import (
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// procTree is a stdio server's Job Object, created to kill every process in it
// when its last handle closes. The server and everything it starts (node under
// npx.cmd, the command under cmd /c) are in it, so Close ends them all, and so
// does mcpsh's own end however it comes: Windows closes the handle of a process
// that dies, even one killed from the Task Manager.
//
// The server also gets a process group of its own (CREATE_NEW_PROCESS_GROUP),
// as Setpgid gives it on Unix: the console's Ctrl-C then reaches mcpsh alone,
// which tells the server the call is cancelled and closes it. (Windows sends a
// Ctrl-Break typed at the console to every process attached to it, whatever its
// group; the server stops then, as mcpsh does.)
type procTree struct {
	pid        int
	leader     windows.Handle // the server's process; 0 if it could not be opened
	job        windows.Handle // 0 when the server could not be placed in one
	killLeader func()         // ends the server alone, for want of a job
	once       sync.Once
}

// startTree starts cmd suspended, places it in a new job, and only then lets it
// run, so that no child it starts can be born outside the job.
func startTree(cmd *exec.Cmd, warn func(string)) (*procTree, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_SUSPENDED}
	job, jobErr := newKillOnCloseJob()
	if err := cmd.Start(); err != nil {
		if job != 0 {
			windows.CloseHandle(job)
		}
		return nil, err
	}
	t := &procTree{pid: cmd.Process.Pid, job: job, killLeader: func() { _ = cmd.Process.Kill() }}
	leader, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(t.pid))
	if err == nil {
		t.leader = leader
	}
	if jobErr == nil {
		jobErr = err
	}
	if jobErr == nil {
		jobErr = windows.AssignProcessToJobObject(job, leader)
	}
	if jobErr != nil {
		if job != 0 {
			windows.CloseHandle(job)
			t.job = 0
		}
		if warn != nil {
			warn(fmt.Sprintf("%s runs outside a job object (%v): processes it starts may outlive it", cmd.Path, jobErr))
		}
	}
	if err := resumeProcess(t.pid); err != nil {
		t.kill()
		_ = cmd.Wait()
		t.release()
		return nil, fmt.Errorf("letting the suspended process run: %w", err)
	}
	return t, nil
}

func newKillOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("creating a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("setting the job object to kill on close: %w", err)
	}
	return job, nil
}

// resumeProcess starts the threads of a process created suspended: os/exec
// keeps no handle to its first thread, so the threads are found by owner.
func resumeProcess(pid int) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	entry := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &entry); err == nil; err = windows.Thread32Next(snap, &entry) {
		if entry.OwnerProcessID != uint32(pid) {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, entry.ThreadID)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return err
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return err
	}
	if resumed == 0 {
		return fmt.Errorf("no thread of process %d found", pid)
	}
	return nil
}

// terminate asks the server's process group to stop, as SIGTERM does on Unix,
// but only while the server runs: the console sends an event meant for a group
// it does not know to every process on it, mcpsh included.
func (t *procTree) terminate() {
	if t.leader == 0 {
		return
	}
	if ev, err := windows.WaitForSingleObject(t.leader, 0); err != nil || ev != uint32(windows.WAIT_TIMEOUT) {
		return
	}
	_ = windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(t.pid))
}

// kill ends every process of the job (the server alone without one).
func (t *procTree) kill() {
	if t.job == 0 {
		t.killLeader()
		return
	}
	_ = windows.TerminateJobObject(t.job, 1)
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which x/sys lacks.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime                     int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
	TotalPageFaultCount, TotalProcesses                uint32
	ActiveProcesses, TotalTerminatedProcesses          uint32
}

// alive reports whether any process of the job is left. Without a job, nothing
// is known of the server's children, and the server itself has been waited for.
func (t *procTree) alive() bool {
	if t.job == 0 {
		return false
	}
	var info jobAccounting
	err := windows.QueryInformationJobObject(t.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
	return err == nil && info.ActiveProcesses > 0
}

// release closes the job's handle, which kills whatever is still in it.
func (t *procTree) release() {
	t.once.Do(func() {
		if t.job != 0 {
			windows.CloseHandle(t.job)
		}
		if t.leader != 0 {
			windows.CloseHandle(t.leader)
		}
		t.job, t.leader = 0, 0
	})
}
