package service_test

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/service"
)

// elfHeader is the start of an ELF file of a class and machine.
func elfHeader(class byte, machine uint16) string {
	h := make([]byte, 64)
	copy(h, "\x7fELF")
	h[4], h[5], h[6] = class, 1, 1
	binary.LittleEndian.PutUint16(h[16:], 2) // an executable
	binary.LittleEndian.PutUint16(h[18:], machine)
	return string(h)
}

// A program the ladder cannot run is refused by what it is, in the words of the
// one who built it, before any sandbox starts it; a Linux amd64 executable (this
// test's own) gets through.
func TestUploadThatCannotRunSaysWhatItIs(t *testing.T) {
	site := newSite(t, service.Limits{PerDay: 100, AddressSubmits: 100})
	for what, c := range map[string]struct{ program, says string }{
		"Mach-O":       {"\xcf\xfa\xed\xfe\x07\x00\x00\x01", "this is a Mach-O executable, for macOS: build with GOOS=linux GOARCH=amd64"},
		"PE":           {"MZ\x90\x00\x03", "this is a Windows PE executable: build with GOOS=linux GOARCH=amd64"},
		"arm64 ELF":    {elfHeader(2, 183), "this is a 64-bit executable for AARCH64: build with GOOS=linux GOARCH=amd64"},
		"i386 ELF":     {elfHeader(1, 3), "this is a 32-bit executable for 386"},
		"no #!":        {"import arena_bot\narena_bot.serve()\n", "this is a script without a #! line"},
		"empty":        {"", "this file is empty"},
		"a zip":        {"PK\x03\x04rest", "this is a zip archive: upload the program itself"},
		"ELF, not exe": {elfHeader(2, 62)[:16] + "\x01\x00\x3e\x00", "this is an ELF REL file, not an executable"},
	} {
		r := site.submit(t, site.ann, "annbot", c.program)
		assert.Equal(t, 400, r.code, "%s: %s", what, r.body)
		assert.Contains(t, r.body, "bot annbot was not added: the program is not a Linux amd64 executable ("+c.says, what)
		assert.Equal(t, 1, strings.Count(r.body, "\n"), "one line: %q", r.body)
	}
	self, err := os.ReadFile(os.Args[0])
	require.NoError(t, err)
	r := site.submit(t, site.ann, "annbot", string(self))
	assert.Equal(t, 201, r.code, "a Linux amd64 executable: %s", r.body)
}

// A program that does not start as a bot is told how, with what to do, and nothing of
// the server.
func TestUploadThatDoesNotStartSaysHow(t *testing.T) {
	site := newSite(t, service.Limits{PerDay: 100, AddressSubmits: 100})
	for program, says := range map[string]string{
		"#!/bin/sh\n# silent\n":           "bot annbot failed its smoke test: no go-plugin handshake within 10 s: did you call ServeMatches (Go) or arena_bot.serve (Python)?; nothing was added",
		"#!/bin/sh\n# exits\n":            "it exited before its go-plugin handshake: a bot keeps running in ServeMatches (Go) or arena_bot.serve (Python) until the arena stops it",
		"#!/bin/sh\n# talks on stdout\n":  "its first line on stdout was not a go-plugin handshake: write nothing to stdout before ServeMatches (Go) or arena_bot.serve (Python) (log to stderr)",
		"#!/bin/sh\n# another protocol\n": "its go-plugin handshake is for another protocol version: build it with this ladder's SDK",
	} {
		r := site.submit(t, site.ann, "annbot", program)
		assert.Equal(t, 400, r.code, r.body)
		assert.Contains(t, r.body, says)
		assert.NotContains(t, r.body, serverSecret)
		assert.NotContains(t, r.body, "plugin at")
	}
}

// A program already on the ladder is refused with the name it has there: the one
// submitted, or another one.
func TestDuplicateNamesTheRightBot(t *testing.T) {
	site := newSite(t, service.Limits{PerDay: 100, AddressSubmits: 100})
	const program = "#!/bin/sh\n# bob's first\n"
	require.Equal(t, 201, site.submit(t, site.bob, "bobfirst", program).code)
	r := site.submit(t, site.bob, "bobfirst2", program)
	assert.Equal(t, 409, r.code, r.body)
	assert.Equal(t, "this program is already on the ladder as bobfirst v1; one program plays under one name\n", r.body)
	r = site.submit(t, site.bob, "bobfirst", program)
	assert.Equal(t, "this program is already the newest version of bobfirst (v1)\n", r.body)
	require.Equal(t, 200, do(t, "POST", site.base+"/api/bots/bobfirst/retire", nil, bearer(site.bob)).code)
	r = site.submit(t, site.bob, "bobfirst", program)
	assert.Equal(t, 409, r.code, r.body)
	assert.Contains(t, r.body, "this program is bobfirst v1, retired: activate it instead")
}
