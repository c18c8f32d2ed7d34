package judge

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestGuessCopyLang: the language is the one whose function words the copy
// holds most; too little evidence or a tie gives none.
func TestGuessCopyLang(t *testing.T) {
	for text, want := range map[string]string{
		"The shop is open for you and your family, with all the bread we bake.":               "en",
		"Wir backen das Brot für dich und die ganze Familie, mit Liebe und auf Holz.":         "de",
		"Nous cuisons le pain pour vous et votre famille, avec des farines locales.":          "fr",
		"Horneamos el pan para ti y tu familia, con harina del pueblo y sin prisas.":          "es",
		"Cuociamo il pane per te e per la tua famiglia, con farine che non sono industriali.": "it",
		"Assamos o pão para você e a sua família, com farinha que não é industrial.":          "pt",
		"Brot.": "",
		"":      "",
	} {
		if got := guessCopyLang(voiceStems(text, 64)); got != want {
			t.Errorf("guessCopyLang(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestListCopyLang: copy too short for function words gets the language
// whose word list holds most of its words; too few or a tie gives none.
func TestListCopyLang(t *testing.T) {
	for text, want := range map[string]string{
		"Einfach guter Käse. Ehrlich und natürlich gereift, frische Heumilch.": "de",
		"Simply good cheese, honestly made.":                                   "en",
		"Käse.":                                                                "",
	} {
		w := voiceStems(text, 64)
		if guessCopyLang(w) != "" {
			t.Fatalf("%q has enough function words: pick a shorter case", text)
		}
		if got := listCopyLang(w); got != want {
			t.Errorf("listCopyLang(%q) = %q, want %q", text, got, want)
		}
	}
	if got := conceptStems(voiceStems("Einfach guter Käse. Ehrlich und natürlich gereift.", 64), 6); !slices.Contains(got, "honest") {
		t.Errorf("short German copy's concepts %v lack honest (ehrlich)", got)
	}
}

// TestConceptStems: a word of another language becomes the stem of its
// English word through that language's list, an English word on the
// lists' English side stays itself, and copy of no guessed language gives
// nothing.
func TestConceptStems(t *testing.T) {
	en := conceptStems(voiceStems("Discover the wild coast and the islands with all of your friends, for you.", 64), 6)
	if !slices.Contains(en, "discov") {
		t.Errorf("English concepts %v lack discov", en)
	}
	for _, l := range []string{"de", "fr", "es", "it", "pt"} {
		if len(voiceDict[l]) < 500 {
			t.Errorf("word list %s has %d forms", l, len(voiceDict[l]))
		}
	}
	de := conceptStems(voiceStems("Entdecken Sie die wilde Küste und die Inseln mit der ganzen Familie, und das ist für Sie.", 64), 6)
	if !slices.Contains(de, "discov") {
		t.Errorf("German concepts %v lack discov (entdecken)", de)
	}
	if got := conceptStems(voiceStems("Brot.", 64), 6); got != nil {
		t.Errorf("no language, concepts %v", got)
	}
}

// TestConceptsShareWeights: a model fitted to English copy only, with the
// concept block, reads the same stance in German copy that shares no word
// with it.
func TestConceptsShareWeights(t *testing.T) {
	var ss []VoiceSample
	for i := range 6 {
		id := string(rune('a' + i))
		ss = append(ss,
			VoiceSample{ID: "e" + id, Archetype: "Explorer", Text: "Discover the wild coast and the remote islands on a long journey, for you and your friends."},
			VoiceSample{ID: "c" + id, Archetype: "Caregiver", Text: "We protect and help your family with the care and the support they need, and we are here."})
	}
	de := "Wir helfen und schützen Ihre Familie, mit der Pflege und der Unterstützung, die sie braucht."
	care := slices.Index(ArchetypeOrder, "Caregiver")
	p := DefaultVoiceFit
	p.Iters = 150
	p.Options.Concepts = 0
	without := FitVoice(ss, p).Probabilities(de)
	p.Options.Concepts = 1
	with := FitVoice(ss, p).Probabilities(de)
	if got := ArchetypeOrder[slices.Index(with, slices.Max(with))]; got != "Caregiver" {
		t.Errorf("with concepts the German copy reads %s, want Caregiver", got)
	}
	if with[care] < without[care]+0.1 {
		t.Errorf("Caregiver probability %.2f with concepts, %.2f without: the lists carry nothing", with[care], without[care])
	}
}

// TestVoiceDictFiles: every line of every word list is "form<TAB>english",
// lower case, one English word, no form twice, so no line is silently
// skipped when the lists load.
func TestVoiceDictFiles(t *testing.T) {
	entries, err := voiceDictFS.ReadDir("voicedict")
	if err != nil || len(entries) == 0 {
		t.Fatalf("no word lists: %v", err)
	}
	for _, e := range entries {
		b, err := voiceDictFS.ReadFile("voicedict/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			form, en, ok := strings.Cut(line, "\t")
			switch {
			case !ok || strings.Contains(en, "\t"):
				t.Errorf("%s:%d: not two fields: %q", e.Name(), i+1, line)
			case form != strings.ToLower(form) || en != strings.ToLower(en) || strings.TrimSpace(form) != form:
				t.Errorf("%s:%d: not lower case or padded: %q", e.Name(), i+1, line)
			case strings.ContainsFunc(en, func(r rune) bool { return !unicode.IsLetter(r) }):
				t.Errorf("%s:%d: English side is not one word: %q", e.Name(), i+1, line)
			case seen[form]:
				t.Errorf("%s:%d: %q listed twice", e.Name(), i+1, form)
			}
			seen[form] = true
		}
	}
}
