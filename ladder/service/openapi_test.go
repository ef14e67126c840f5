package service

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arena-games/arena/ladder/store"
)

type openAPIDoc struct {
	Paths map[string]map[string]struct {
		Security  []map[string][]string `json:"security"`
		Responses map[string]any        `json:"responses"`
	} `json:"paths"`
}

// The OpenAPI document the service serves describes exactly the API's routes, and
// every route it documents answers with a status it documents, with and without
// the author's token.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "ladder.db"))
	require.NoError(t, err)
	defer st.Close()
	token, err := NewToken()
	require.NoError(t, err)
	ann, err := st.AddAuthor(ctx, "ann", HashToken(token))
	require.NoError(t, err)
	require.NoError(t, st.Claim(ctx, ann.ID, "annbot"))
	_, err = st.AddBot(ctx, store.Bot{Name: "annbot", SHA256: "sum", Builtin: "random"})
	require.NoError(t, err)
	svc, err := New(Config{Store: st, Authors: st, Game: "ivanhoe",
		Submit: func(context.Context, string, string) (store.Bot, error) { return store.Bot{}, nil }})
	require.NoError(t, err)
	ts := httptest.NewServer(svc.Handler())
	defer ts.Close()

	resp, err := http.Get(ts.URL + "/api/openapi.json")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	var doc openAPIDoc
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))

	var documented []string
	for path, ops := range doc.Paths {
		for method, op := range ops {
			route := strings.ToUpper(method) + " " + path
			documented = append(documented, route)
			target := strings.NewReplacer("{name}", "annbot", "{id}", "1").Replace(path)
			tokens := []string{""}
			if len(op.Security) > 0 {
				tokens = append(tokens, token)
			}
			for _, tok := range tokens {
				req, err := http.NewRequest(strings.ToUpper(method), ts.URL+target, nil)
				require.NoError(t, err)
				if tok != "" {
					req.Header.Set("Authorization", "Bearer "+tok)
				}
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				_, ok := op.Responses[strconv.Itoa(resp.StatusCode)]
				assert.True(t, ok, "%s (token %v) answered %d, which its reference does not list: %s", route, tok != "", resp.StatusCode, body)
			}
		}
	}
	svc.mu.Lock()
	mounted := slices.Clone(svc.apiRoutes)
	svc.mu.Unlock()
	slices.Sort(mounted)
	slices.Sort(documented)
	assert.Equal(t, mounted, documented, "every API route is documented, every documented route exists")
}
