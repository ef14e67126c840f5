// Package pgtest gives tests a fresh, empty PostgreSQL schema of their own (a URL whose
// search_path is it) in the database named by ARENA_TEST_POSTGRES (a postgres:// URL
// whose user may create schemas; .ci/postgres.sh starts a throwaway server). A schema
// is to the ladder what a database is, and costs a fraction of one to create. Without it the tests that need one skip,
// unless ARENA_REQUIRE_POSTGRES=1 (as in CI), where they fail.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Env names the server's URL; Require makes its absence a failure.
const (
	Env     = "ARENA_TEST_POSTGRES"
	Require = "ARENA_REQUIRE_POSTGRES"
)

// Available reports whether a server is configured.
func Available() bool { return os.Getenv(Env) != "" }

// Skip skips t (or fails it, under ARENA_REQUIRE_POSTGRES=1) when no server is
// configured.
func Skip(t testing.TB) {
	t.Helper()
	if Available() {
		return
	}
	if os.Getenv(Require) == "1" {
		t.Fatalf("%s=1 but %s is not set: this test needs a PostgreSQL server (.ci/postgres.sh start DIR prints a URL)", Require, Env)
	}
	t.Skipf("no PostgreSQL server: set %s=postgres://... (.ci/postgres.sh start DIR prints one)", Env)
}

// URL creates an empty schema for t, dropped when t ends, and returns its URL.
func URL(t testing.TB) string {
	t.Helper()
	Skip(t)
	admin := os.Getenv(Env)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("%s: %v", Env, err)
	}
	defer conn.Close(ctx)
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "arena_test_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		t.Fatalf("creating a test schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c, err := pgx.Connect(ctx, admin)
		if err != nil {
			t.Errorf("dropping %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP SCHEMA IF EXISTS "+name+" CASCADE"); err != nil {
			t.Errorf("dropping %s: %v", name, err)
		}
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("%s: %v", Env, err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}
