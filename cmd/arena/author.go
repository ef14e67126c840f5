package main

import (
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-games/arena/ladder/service"
	"github.com/arena-games/arena/ladder/store"
)

func authorCommand() *cli.Command {
	return &cli.Command{
		Name:  "author",
		Usage: "add and revoke the authors who submit bots to a served ladder (ladder serve)",
		Subcommands: withUsageErrors(
			tokenCommand("add", "add an author and print their token, once: only its SHA-256 is kept",
				"added author %s; their token (shown only now):\n",
				func(c *cli.Context, st ladderStore, hash string) (store.Author, error) {
					return st.AddAuthor(c.Context, c.Args().First(), hash)
				}),
			&cli.Command{
				Name:      "revoke",
				Usage:     "revoke an author's token; their bots keep playing",
				ArgsUsage: "NAME",
				Flags:     []cli.Flag{dbFlag()},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return fmt.Errorf("author revoke takes one author name, got %d arguments", c.NArg())
					}
					st, err := openLadder(c)
					if err != nil {
						return err
					}
					defer st.Close()
					a, err := st.RevokeAuthor(c.Context, c.Args().First())
					if err != nil {
						return err
					}
					fmt.Fprintf(c.App.Writer, "revoked the token of %s\n", a.Name)
					return nil
				},
			},
			tokenCommand("rotate", "give an author a new token, printed once; the old one and every session it opened stop working at once",
				"rotated the token of %s and ended their sessions; their new token (shown only now):\n",
				func(c *cli.Context, st ladderStore, hash string) (store.Author, error) {
					return st.RotateToken(c.Context, c.Args().First(), hash)
				}),
		),
	}
}

// tokenCommand is a subcommand of author that gives the author NAME a new token
// through keep (which stores its hash) and prints it, once, on stdout.
func tokenCommand(name, usage, done string, keep func(c *cli.Context, st ladderStore, hash string) (store.Author, error)) *cli.Command {
	return &cli.Command{
		Name:      name,
		Usage:     usage,
		ArgsUsage: "NAME",
		Flags:     []cli.Flag{dbFlag()},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 || c.Args().First() == "" {
				return fmt.Errorf("author %s takes one author name, got %d arguments", name, c.NArg())
			}
			st, err := openLadder(c)
			if err != nil {
				return err
			}
			defer st.Close()
			token, err := service.NewToken()
			if err != nil {
				return err
			}
			a, err := keep(c, st, service.HashToken(token))
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.ErrWriter, done, a.Name)
			fmt.Fprintln(c.App.Writer, token)
			return nil
		},
	}
}

func botSubmitCommand() *cli.Command {
	return &cli.Command{
		Name:      "submit",
		Usage:     "submit a bot program to a served ladder (arena ladder serve) with an author's token",
		ArgsUsage: "PATH",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "server", Required: true, Usage: "the ladder's address, e.g. http://127.0.0.1:8080"},
			&cli.StringFlag{Name: "token", Required: true, EnvVars: []string{"ARENA_TOKEN"}, Usage: "your author token"},
			&cli.StringFlag{Name: "name", Usage: "the bot's name on the ladder (default: the file's name)"},
		},
		Action: botSubmit,
	}
}

func botSubmit(c *cli.Context) error {
	if c.NArg() != 1 {
		return fmt.Errorf("bot submit takes one bot program, got %d arguments", c.NArg())
	}
	path := c.Args().First()
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("bot program: %w", err)
	}
	defer f.Close()
	name := c.String("name")
	if name == "" {
		name = f.Name()[strings.LastIndexByte(f.Name(), '/')+1:]
	}
	u, err := url.Parse(strings.TrimRight(c.String("server"), "/") + "/api/bots")
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("--server %q is not an http(s) address", c.String("server"))
	}
	// The program streams from the file into the request, never whole in memory.
	body, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		err := mw.WriteField("name", name)
		if err == nil {
			var part io.Writer
			if part, err = mw.CreateFormFile("program", name); err == nil {
				if _, err = io.Copy(part, f); err == nil {
					err = mw.Close()
				}
			}
		}
		pw.CloseWithError(err)
	}()
	req, err := http.NewRequestWithContext(c.Context, http.MethodPost, u.String(), body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+c.String("token"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("submitting to %s: %w", c.String("server"), err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusCreated {
		return errors.New(strings.TrimSpace(fmt.Sprintf("the ladder refused (%s): %s", resp.Status, msg)))
	}
	fmt.Fprintf(c.App.Writer, "submitted: %s", msg)
	return nil
}
