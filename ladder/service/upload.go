package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arena-games/arena/ladder"
	"github.com/arena-games/arena/ladder/store"
	"github.com/arena-games/arena/protocol"
)

// add writes the program to a file of its own and adds it through the configured
// Submit. What the author reads of a refusal is in their words: what their file is
// when it cannot run, how its start failed, how its seat ended and what it wrote to
// stderr (its last 4 KiB); never the arena's account, which names server paths.
func (s *Service) add(ctx context.Context, name string, program io.Reader) (store.Bot, *refusal) {
	dir, err := os.MkdirTemp("", "arena-upload-")
	if err != nil {
		return store.Bot{}, internal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "program")
	sum, err := writeProgram(path, program)
	if err != nil {
		return store.Bot{}, internal(err)
	}
	head, err := readHead(path)
	if err != nil {
		return store.Bot{}, internal(err)
	}
	if what := cannotRun(head); what != "" {
		return store.Bot{}, refuse(http.StatusBadRequest, fmt.Sprintf("bot %s was not added: the program is not a Linux amd64 executable (%s)", name, what))
	}
	b, err := s.cfg.Submit(ctx, name, path)
	var smoke *ladder.SmokeError
	switch {
	case errors.Is(err, store.ErrDuplicate):
		return b, s.duplicate(ctx, name, sum)
	case errors.As(err, &smoke):
		return b, refuse(http.StatusBadRequest, smokeMessage(name, smoke, head))
	case err != nil:
		return b, internal(err)
	}
	return b, nil
}

// duplicate says which bot already is the program (sum): the name submitted, or
// another, which the same program cannot join under a second name.
func (s *Service) duplicate(ctx context.Context, name, sum string) *refusal {
	bots, err := s.cfg.Store.Bots(ctx, true)
	if err != nil {
		return internal(err)
	}
	var same *store.Bot
	for i := range bots {
		if b := &bots[i]; b.SHA256 == sum && (same == nil || b.Active() || b.Name == name && !same.Active()) {
			same = b
		}
	}
	switch {
	case same == nil:
		return refuse(http.StatusConflict, "this program is already on the ladder")
	case same.Name == name && !same.Active():
		return refuse(http.StatusConflict, fmt.Sprintf("this program is %s v%d, retired: activate it instead (POST /api/bots/%s/activate)", same.Name, same.Version, name))
	case same.Name == name:
		return refuse(http.StatusConflict, fmt.Sprintf("this program is already the newest version of %s (v%d)", name, same.Version))
	}
	return refuse(http.StatusConflict, fmt.Sprintf("this program is already on the ladder as %s v%d; one program plays under one name", same.Name, same.Version))
}

// smokeMessage is what an author reads of their bot's failed smoke test.
func smokeMessage(name string, e *ladder.SmokeError, head []byte) string {
	msg := fmt.Sprintf("bot %s failed its smoke test: in a game of %s its seat ended with %s; nothing was added", name, e.Game, e.Ending)
	if e.Start != nil {
		msg = fmt.Sprintf("bot %s failed its smoke test: %s; nothing was added", name, startFailure(e, head))
	}
	out := strings.ToValidUTF8(strings.TrimRight(e.Stderr, "\n"), "\uFFFD")
	if out == "" {
		return msg + ". It wrote nothing to stderr."
	}
	return fmt.Sprintf("%s. What it wrote to stderr (its last %s at most):\n%s", msg, formatSize(ladder.SmokeStderrBytes), out)
}

// serveHint is how a bot starts serving, in each SDK.
const serveHint = "ServeMatches (Go) or arena_bot.serve (Python)"

// startFailure says, in an author's words, how a program failed to start as a bot.
// The start's error is only looked at, never shown: it names server paths.
func startFailure(e *ladder.SmokeError, head []byte) string {
	why := e.Start.Err.Error()
	switch {
	case strings.Contains(why, "exec format error"):
		return "it could not be run: not a Linux amd64 executable"
	case strings.Contains(why, "no such file or directory") && bytes.HasPrefix(head, []byte("#!")):
		return fmt.Sprintf("it could not be run: the ladder has no interpreter %s (its #! line)", interpreter(head))
	}
	switch e.Start.Kind {
	case protocol.StartSilent:
		return fmt.Sprintf("no go-plugin handshake within %s: did you call %s?", seconds(e.Startup), serveHint)
	case protocol.StartExited:
		return "it exited before its go-plugin handshake: a bot keeps running in " + serveHint + " until the arena stops it"
	case protocol.StartJunk:
		return "its first line on stdout was not a go-plugin handshake: write nothing to stdout before " + serveHint + " (log to stderr)"
	case protocol.StartVersion:
		return "its go-plugin handshake is for another protocol version: build it with this ladder's SDK"
	}
	return "it started, but the go-plugin connection to it failed"
}

func seconds(d time.Duration) string {
	if d <= 0 {
		return "the startup time"
	}
	return fmt.Sprintf("%g s", d.Seconds())
}

// interpreter is the program a script's #! line names (printable, at most 80 bytes).
func interpreter(head []byte) string {
	line, _, _ := bytes.Cut(head[2:], []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) == 0 {
		return "(none)"
	}
	return protocol.Printable(f[0][:min(len(f[0]), 80)])
}

// headBytes is how much of a program cannotRun reads: an ELF header and the first
// line of a script.
const headBytes = 512

func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, headBytes)
	n, err := io.ReadFull(f, buf)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		err = nil
	}
	return buf[:n], err
}

// cannotRun says what a program is when the ladder cannot run it (empty when it can
// try: a Linux x86-64 ELF executable, or a script with a #! line).
func cannotRun(head []byte) string {
	switch {
	case len(head) == 0:
		return "this file is empty"
	case bytes.HasPrefix(head, []byte("#!")):
		return ""
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return elfProblem(head)
	case bytes.HasPrefix(head, []byte("MZ")):
		return "this is a Windows PE executable: build with GOOS=linux GOARCH=amd64"
	case len(head) >= 4 && isMachO(binary.BigEndian.Uint32(head)):
		return "this is a Mach-O executable, for macOS: build with GOOS=linux GOARCH=amd64"
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return "this is a zip archive: upload the program itself"
	case bytes.HasPrefix(head, []byte("\x1f\x8b")):
		return "this is a gzip archive: upload the program itself"
	}
	return "this is a script without a #! line, or no program at all: a script's first line names its interpreter, e.g. #!/usr/bin/env python3"
}

func isMachO(magic uint32) bool {
	switch magic {
	case 0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe:
		return true
	}
	return false
}

// elfProblem says what is wrong with an ELF file for the ladder, or "". It reads
// the file's header only (the head of the file is all it has).
func elfProblem(head []byte) string {
	if len(head) < 20 {
		return "this is a damaged ELF file"
	}
	var order binary.ByteOrder = binary.LittleEndian
	if elf.Data(head[elf.EI_DATA]) == elf.ELFDATA2MSB {
		order = binary.BigEndian
	}
	class, abi := elf.Class(head[elf.EI_CLASS]), elf.OSABI(head[elf.EI_OSABI])
	typ, machine := elf.Type(order.Uint16(head[16:])), elf.Machine(order.Uint16(head[18:]))
	bits := map[elf.Class]string{elf.ELFCLASS32: "32-bit ", elf.ELFCLASS64: "64-bit "}[class]
	switch {
	case class != elf.ELFCLASS64 || machine != elf.EM_X86_64:
		return fmt.Sprintf("this is a %sexecutable for %s: build with GOOS=linux GOARCH=amd64", bits, strings.TrimPrefix(machine.String(), "EM_"))
	case typ != elf.ET_EXEC && typ != elf.ET_DYN:
		return "this is an ELF " + strings.TrimPrefix(typ.String(), "ET_") + " file, not an executable"
	case abi != elf.ELFOSABI_NONE && abi != elf.ELFOSABI_LINUX:
		return "this is an executable for " + strings.TrimPrefix(abi.String(), "ELFOSABI_") + ", not Linux"
	}
	return ""
}

// writeProgram writes the upload to path, executable, and returns its SHA-256 (hex).
func writeProgram(path string, r io.Reader) (string, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(f, h), r); err != nil {
		f.Close()
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), f.Close()
}
