package extract

import (
	"reflect"
	"strings"
	"testing"
)

func TestVoiceNeverEmpty(t *testing.T) {
	inputs := []string{
		"",
		"   \n\t ",
		"私たちは毎日、心を込めてパンを焼いています。どうぞお気軽にお立ち寄りください。",
		"نحن نصنع القهوة بحب منذ عام ١٩٩٠",
		"Мы печём хлеб каждый день.",
		"🚀🚀🚀 !!! ???",
		strings.Repeat("word ", 5000),
		"\xff\xfe invalid utf-8 \xc3\x28",
	}
	for _, in := range inputs {
		v := analyzeVoice(in)
		if v.Tone == "" || !contains(archetypeOrder, v.Archetype) || len(v.Descriptors) < 3 || len(v.Descriptors) > 6 {
			t.Errorf("analyzeVoice(%.30q) = %+v", in, v)
		}
		for _, d := range v.Descriptors {
			if d == "" {
				t.Errorf("empty descriptor for %.30q", in)
			}
		}
		if again := analyzeVoice(in); !reflect.DeepEqual(again, v) {
			t.Errorf("not deterministic for %.30q", in)
		}
	}
}

func TestVoiceArchetypes(t *testing.T) {
	cases := map[string]string{
		"Explore remote islands on a week-long expedition. Paddle beyond the last harbour and discover wild coastlines on every journey.": "Explorer",
		"We break the rules. Loud, raw and unruly: our noise is a riot and we never apologise for the chaos.":                             "Outlaw",
		"Handmade in our workshop: we design, sketch and craft every piece at the bench, stitch by stitch.":                               "Creator",
		"We look after you and your family with gentle care, comfort and support. Stay as long as you like; nobody will hurry you.":       "Caregiver",
		"Push harder, climb further and beat your goal. No excuses: the summit is the challenge.":                                         "Hero",
	}
	for text, want := range cases {
		if got := analyzeVoice(text); got.Archetype != want {
			t.Errorf("archetype(%.40q) = %s, want %s (%+v)", text, got.Archetype, want, got)
		}
	}
}

func TestVoiceOtherLanguages(t *testing.T) {
	cases := map[string]string{
		"Einfach guter Käse. Ehrlich und natürlich gereift, frische Heumilch, reine Zutaten, so einfach wie früher.":    "Innocent",
		"Partez à l'aventure : découvrez les sentiers, voyagez librement, l'aventure commence ici. Découvrir, voyager.": "Explorer",
		"Cuidado para toda la familia. Te ayudamos con cuidado y protegemos a tu familia cada día.":                     "Caregiver",
	}
	for text, want := range cases {
		v := analyzeVoice(text)
		if v.Archetype != want || len(v.Descriptors) < 3 || len(v.Descriptors) > 6 || v.Tone == "" {
			t.Errorf("%.30q: got %+v, want archetype %s", text, v, want)
		}
	}
	// Scripts without lexicons still give a complete, default voice.
	for _, text := range []string{"東京の小さなパン屋です。毎朝焼きたてのパンをお届けします。", "Добро пожаловать в нашу пекарню!", "", "!!! ??? ..."} {
		v := analyzeVoice(text)
		if v.Archetype == "" || len(v.Descriptors) < 3 || len(v.Descriptors) > 6 || v.Tone == "" {
			t.Errorf("%q: incomplete voice %+v", text, v)
		}
	}
}
