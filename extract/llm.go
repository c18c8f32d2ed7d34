package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/judge"
)

// Voice refinement with an LLM (optional). The deterministic voice and a
// bounded excerpt of the copy go to an OpenAI-compatible chat endpoint,
// which answers strict JSON {tone, archetype, descriptors}. The answer is
// used only when it validates (archetype one of the twelve, 3–6 short
// descriptors, a one-line tone); any error, timeout or invalid answer keeps
// the deterministic voice, logged at warn, never shown to the client; an
// answer that arrived but did not validate still counts its tokens in
// total_cost_usd (it was paid for), a failed call counts nothing.
//
// The endpoint is the operator's own infrastructure (often a local model on
// 127.0.0.1 or a private network), named in brandpack's configuration, not
// an address taken from a website. So it is reached with a plain
// http.Client, not through the egress door, which exists to refuse exactly
// such addresses for everything a site makes brandpack fetch.

// LLMConfig configures voice refinement.
type LLMConfig struct {
	URL             string        // base URL of an OpenAI-compatible API: POST {URL}/chat/completions
	Model           string        // default DefaultLLMModel
	Key             string        // sent as "Authorization: Bearer …" when set; never logged
	CostPer1KTokens float64       // USD per 1,000 total tokens; 0 counts the calls as free
	Timeout         time.Duration // one call's budget (default 15 s, within the scrape budget)
}

const (
	DefaultLLMModel           = "gpt-4o-mini"
	DefaultLLMCostPer1KTokens = 0.0006
	defaultLLMTimeout         = 15 * time.Second
	llmExcerpt                = 3000 // characters of copy sent
	maxLLMAnswer              = 1 << 20
)

type llmClient struct {
	cfg      LLMConfig
	endpoint string
	http     *http.Client
}

func newLLMClient(cfg LLMConfig) (*llmClient, error) {
	u, err := url.Parse(strings.TrimSpace(cfg.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("extract: the LLM URL must be an http(s) URL like http://127.0.0.1:11434/v1")
	}
	endpoint := strings.TrimRight(u.String(), "/")
	if !strings.HasSuffix(endpoint, "/chat/completions") {
		endpoint += "/chat/completions"
	}
	if cfg.Model == "" {
		cfg.Model = DefaultLLMModel
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = defaultLLMTimeout
	}
	if cfg.CostPer1KTokens < 0 {
		cfg.CostPer1KTokens = 0
	}
	return &llmClient{cfg: cfg, endpoint: endpoint, http: &http.Client{}}, nil
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model          string            `json:"model"`
	Messages       []chatMessage     `json:"messages"`
	Temperature    float64           `json:"temperature"`
	MaxTokens      int               `json:"max_tokens"`
	ResponseFormat map[string]string `json:"response_format"`
}

type chatResponse struct {
	Choices []struct {
		Message chatMessage `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
}

const llmSystemPrompt = `You judge the written voice of a brand from its website copy. ` +
	`Answer with one JSON object and nothing else: {"tone": "...", "archetype": "...", "descriptors": ["...", ...]}. ` +
	`tone: one short English phrase (at most 12 words) describing how the brand sounds. ` +
	`archetype: exactly one of Innocent, Everyman, Hero, Outlaw, Explorer, Creator, Ruler, Magician, Lover, Caregiver, Jester, Sage. ` +
	`descriptors: 3 to 6 single English adjectives, lower case.`

// refine returns the refined voice and the call's cost in USD, or v and 0.
func (c *llmClient) refine(ctx context.Context, log *slog.Logger, domain, copyText string, v app.Voice) (app.Voice, float64) {
	start := time.Now()
	got, tokens, err := c.call(ctx, domain, copyText, v)
	cost := math.Round(float64(tokens)/1000*c.cfg.CostPer1KTokens*1e9) / 1e9
	if err != nil {
		// An answer that came back but did not validate was still paid for:
		// its tokens count; a failed call has none.
		log.Warn("LLM voice refinement failed; keeping the deterministic voice", "err", err,
			"ms", time.Since(start).Milliseconds(), "tokens", tokens)
		return v, cost
	}
	log.Debug("voice refined by LLM", "archetype", got.Archetype, "tokens", tokens, "ms", time.Since(start).Milliseconds())
	// The confidence stays the classifier's: its probability of the
	// archetype the LLM chose (low when the two disagree).
	got.ArchetypeConfidence = judge.ArchetypeConfidence(copyText, got.Archetype)
	return got, cost
}

func (c *llmClient) call(ctx context.Context, domain, copyText string, v app.Voice) (app.Voice, int, error) {
	ctx, cancel := phaseContext(ctx, c.cfg.Timeout, 500*time.Millisecond)
	defer cancel()
	user := fmt.Sprintf("Website: %s\nA keyword-based first judgement: archetype %s; descriptors %s; tone %q.\n"+
		"Refine it from the site's own copy below (it may be in any language; answer in English).\n---\n%s\n---",
		domain, v.Archetype, strings.Join(v.Descriptors, ", "), v.Tone, excerpt(copyText, llmExcerpt))
	body, err := json.Marshal(chatRequest{
		Model:          c.cfg.Model,
		Messages:       []chatMessage{{Role: "system", Content: llmSystemPrompt}, {Role: "user", Content: user}},
		MaxTokens:      300,
		ResponseFormat: map[string]string{"type": "json_object"},
	})
	if err != nil {
		return v, 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return v, 0, errors.New("bad request")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.cfg.Key != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.Key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var ue *url.Error // its text repeats the URL; the cause is enough
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return v, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return v, 0, fmt.Errorf("endpoint answered HTTP %d", resp.StatusCode)
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxLLMAnswer))
	if err != nil {
		return v, 0, fmt.Errorf("read answer: %w", err)
	}
	var cr chatResponse
	if err := json.Unmarshal(raw, &cr); err != nil || len(cr.Choices) == 0 {
		return v, 0, errors.New("answer is not a chat completion")
	}
	tokens := cr.Usage.TotalTokens
	if tokens <= 0 {
		tokens = cr.Usage.PromptTokens + cr.Usage.CompletionTokens
	}
	got, err := parseVoiceAnswer(cr.Choices[0].Message.Content)
	if err != nil {
		return v, tokens, err
	}
	return got, tokens, nil
}

var descriptorWord = regexp.MustCompile(`^\p{L}[\p{L}-]{1,23}$`)

// parseVoiceAnswer validates the model's JSON: the archetype one of the
// twelve, 3–6 distinct one-word descriptors, a one-line tone.
func parseVoiceAnswer(content string) (app.Voice, error) {
	s := strings.TrimSpace(content)
	i, j := strings.Index(s, "{"), strings.LastIndex(s, "}")
	if i < 0 || j < i {
		return app.Voice{}, errors.New("answer holds no JSON object")
	}
	var a struct {
		Tone        string   `json:"tone"`
		Archetype   string   `json:"archetype"`
		Descriptors []string `json:"descriptors"`
	}
	if err := json.Unmarshal([]byte(s[i:j+1]), &a); err != nil {
		return app.Voice{}, errors.New("answer is not the JSON asked for")
	}
	var v app.Voice
	for _, name := range judge.ArchetypeOrder {
		if strings.EqualFold(strings.TrimSpace(a.Archetype), name) {
			v.Archetype = name
		}
	}
	if v.Archetype == "" {
		return app.Voice{}, fmt.Errorf("archetype %q is not one of the twelve", judge.TrimURL(a.Archetype))
	}
	for _, d := range a.Descriptors {
		d = strings.ToLower(strings.TrimSpace(d))
		if !descriptorWord.MatchString(d) {
			return app.Voice{}, fmt.Errorf("descriptor %q is not a short word", judge.TrimURL(d))
		}
		if !slices.Contains(v.Descriptors, d) {
			v.Descriptors = append(v.Descriptors, d)
		}
	}
	if n := len(v.Descriptors); n < 3 || n > 6 {
		return app.Voice{}, fmt.Errorf("%d descriptors, want 3–6", n)
	}
	v.Tone = strings.Join(strings.Fields(a.Tone), " ")
	if n := utf8.RuneCountInString(v.Tone); n < 3 || n > 120 {
		return app.Voice{}, errors.New("tone missing or too long")
	}
	v.Tone = judge.Capitalize(v.Tone)
	return v, nil
}

// excerpt is the first n characters of text, whitespace collapsed.
func excerpt(text string, n int) string {
	s := strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}
