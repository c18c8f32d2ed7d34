package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

const testLLMKey = "sk-test-do-not-log-7f3a9c"

// fakeLLM stands in for a remote OpenAI-compatible endpoint on 127.0.0.1.
type fakeLLM struct {
	srv     *httptest.Server
	mu      sync.Mutex
	auth    []string
	reqs    []chatRequest
	status  int
	content string
	tokens  int
	hang    bool // answer only when the client gives up
}

func newFakeLLM(t *testing.T) *fakeLLM {
	f := &fakeLLM{status: 200, tokens: 400,
		content: `{"tone": "Irreverent, loud and proudly unpolished", "archetype": "outlaw", "descriptors": ["Irreverent", "loud", "raw", "defiant"]}`}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req chatRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		f.mu.Lock()
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.reqs = append(f.reqs, req)
		status, content, tokens, hang := f.status, f.content, f.tokens, f.hang
		f.mu.Unlock()
		if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		if hang {
			<-r.Context().Done()
			return
		}
		if status != 200 {
			http.Error(w, `{"error":"boom"}`, status)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]any{"prompt_tokens": tokens - 50, "completion_tokens": 50, "total_tokens": tokens},
		})
	}))
	t.Cleanup(f.srv.Close)
	return f
}

var deterministicVoice = app.Voice{Tone: "Warm, crafted and calm", Archetype: "Creator", Descriptors: []string{"warm", "crafted", "calm"}}

func TestLLMRefine(t *testing.T) {
	f := newFakeLLM(t)
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := newLLMClient(LLMConfig{URL: f.srv.URL + "/v1/", Key: testLLMKey, CostPer1KTokens: 0.0006, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	copyText := strings.Repeat("We break the rules and never apologise. ", 400)

	t.Run("valid answer is applied and costed", func(t *testing.T) {
		v, cost := c.refine(context.Background(), log, "voltmoth.test", copyText, deterministicVoice)
		want := app.Voice{Tone: "Irreverent, loud and proudly unpolished", Archetype: "Outlaw", Descriptors: []string{"irreverent", "loud", "raw", "defiant"}}
		if v.Tone != want.Tone || v.Archetype != want.Archetype || !slices.Equal(v.Descriptors, want.Descriptors) {
			t.Errorf("voice %+v, want %+v", v, want)
		}
		if cost != 400.0/1000*0.0006 {
			t.Errorf("cost %v, want %v", cost, 400.0/1000*0.0006)
		}
		f.mu.Lock()
		req, auth := f.reqs[len(f.reqs)-1], f.auth[len(f.auth)-1]
		f.mu.Unlock()
		if auth != "Bearer "+testLLMKey {
			t.Errorf("Authorization %q", auth)
		}
		if req.Model != DefaultLLMModel || len(req.Messages) != 2 || !strings.Contains(req.Messages[1].Content, "Creator") ||
			len(req.Messages[1].Content) > llmExcerpt+600 {
			t.Errorf("request %+v", req)
		}
	})

	paid := 400.0 / 1000 * 0.0006 // an answer that arrived was paid for, valid or not
	bad := []struct {
		name    string
		set     func()
		logHint string
		cost    float64
	}{
		{"invalid archetype", func() {
			f.content = `{"tone": "Bold", "archetype": "Trickster", "descriptors": ["bold", "loud", "raw"]}`
		}, "Trickster", paid},
		{"too few descriptors", func() {
			f.content = `{"tone": "Bold and loud", "archetype": "Hero", "descriptors": ["bold"]}`
		}, "descriptors", paid},
		{"garbage", func() { f.content = "Sure! The brand sounds edgy." }, "JSON", paid},
		{"HTTP 500", func() { f.status = 500 }, "HTTP 500", 0},
		{"timeout", func() { f.hang = true }, "deadline", 0},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			f.mu.Lock()
			f.status, f.hang = 200, false
			b.set()
			f.mu.Unlock()
			logs.Reset()
			v, cost := c.refine(context.Background(), log, "voltmoth.test", copyText, deterministicVoice)
			if v.Archetype != "Creator" || v.Tone != deterministicVoice.Tone || !slices.Equal(v.Descriptors, deterministicVoice.Descriptors) || cost != b.cost {
				t.Errorf("voice %+v cost %v: want the deterministic voice at cost %v", v, cost, b.cost)
			}
			if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), b.logHint) {
				t.Errorf("log lacks a warning mentioning %q:\n%s", b.logHint, logs.String())
			}
		})
	}
	if strings.Contains(logs.String(), testLLMKey) {
		t.Errorf("the key appears in the log")
	}
}

// TestLLMRefineInExtract: a full extraction with --llm-url set takes the
// endpoint's voice and adds its cost to total_cost_usd; the key stays out of
// every log line.
func TestLLMRefineInExtract(t *testing.T) {
	e := getEnv(t)
	f := newFakeLLM(t)
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	x, err := New(context.Background(), Config{Door: e.door, Browsers: 1, Logger: log,
		LLM: LLMConfig{URL: f.srv.URL + "/v1", Key: testLLMKey, CostPer1KTokens: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	host := "tidewater-coffee.co"
	got, err := x.Extract(context.Background(), host, host)
	if err != nil {
		t.Fatal(err)
	}
	if got.Pack.Voice.Archetype != "Outlaw" || got.Pack.Voice.Descriptors[0] != "irreverent" {
		t.Errorf("voice %+v: the endpoint's answer was not applied", got.Pack.Voice)
	}
	// 400 tokens at 1 USD per 1,000 = 0.4 USD, plus the browser seconds.
	if c := got.Pack.Metadata.TotalCostUSD; c <= 0.4 || c > 0.5 {
		t.Errorf("total_cost_usd %v, want 0.4 plus browser time", c)
	}
	if strings.Contains(logs.String(), testLLMKey) {
		t.Errorf("the key appears in the log")
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var _ io.Writer = (*syncBuffer)(nil)
