package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openegm/cabinet/internal/cabinettest"
)

// jsonlBlocks returns the lines of every ```jsonl block of a markdown
// file: the control-socket examples a reader pastes.
func jsonlBlocks(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks [][]string
	var cur []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in && strings.TrimSpace(line) == "```jsonl":
			in, cur = true, nil
		case in && strings.TrimSpace(line) == "```":
			in = false
			blocks = append(blocks, cur)
		case in && strings.TrimSpace(line) != "":
			cur = append(cur, line)
		}
	}
	if in {
		t.Fatalf("%s: a jsonl block is not closed", path)
	}
	return blocks
}

// Every control-socket example of the README and docs/, pasted as a reader
// would, line by line into a new cabinet's socket: each must be a command
// the cabinet understands (an error reply — a comment after the object, a
// misspelt field, an unknown command — fails; a refusal, such as a poker
// line without a table server, is the cabinet's answer to a valid command).
func TestDocsControlExamples(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	files, _ := filepath.Glob("../../docs/*.md")
	files = append([]string{"../../README.md"}, files...)
	total := 0
	for _, path := range files {
		for i, block := range jsonlBlocks(t, path) {
			c := startCabinet(t, t.TempDir(), "--spin-time", "5ms")
			for _, line := range block {
				total++
				if _, err := c.Conn.Write([]byte(line + "\n")); err != nil {
					t.Fatal(err)
				}
				raw, err := c.Rd.ReadBytes('\n')
				if err != nil {
					t.Fatalf("%s block %d: %s: %v", filepath.Base(path), i+1, line, err)
				}
				var r cabinettest.Reply
				if err := json.Unmarshal(raw, &r); err != nil {
					t.Fatalf("%s block %d: %s: reply %q: %v", filepath.Base(path), i+1, line, raw, err)
				}
				if r.Error != "" {
					t.Errorf("%s block %d: %s: %s", filepath.Base(path), i+1, line, r.Error)
				}
			}
			c.Stop()
		}
	}
	if total < 20 {
		t.Fatalf("only %d example lines found in the docs", total)
	}
}
