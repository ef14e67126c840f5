// Package fileid names a file's identity: what changes with any change of the file, so
// that a check of its content (a digest, an answer of the program) holds as long as the
// identity does.
package fileid

import (
	"fmt"
	"syscall"
)

// Of is the identity of the file at path: its device, inode, size, and modification
// and change times. A write or a replacement changes the change time, which no call
// can set back, so a file with the same identity has the same content.
func Of(path string) (string, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d:%d:%d:%d.%d:%d.%d", st.Dev, st.Ino, st.Size, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec), nil
}
