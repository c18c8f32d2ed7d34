package judge

import "slices"

// Stems in German, French, Spanish, Italian and Dutch for the archetypes
// and tone descriptors, so copy in those languages is classified by its
// words rather than falling back to a default. Single words match by
// prefix (at least four letters), like the English stems.
var archetypeLexiconIntl = map[string][]string{
	"Innocent":  {"einfach", "ehrlich", "natürlich", "reine", "frisch", "früher", "simple", "naturel", "pur", "honnête", "frais", "sencill", "natural", "honest", "fresco", "semplic", "genuin", "eenvoud", "eerlijk", "puur"},
	"Everyman":  {"jeder", "gemeinsam", "tous", "chacun", "todos", "tutti", "iedereen", "samen"},
	"Hero":      {"leistung", "gewinn", "stärk", "ziel", "performan", "gagner", "objectif", "ganar", "lograr", "vincer", "winnen", "doel"},
	"Outlaw":    {"rebell", "regeln", "laut", "règles", "rebelle", "bruit", "reglas", "rebeld", "ruido", "regole", "ribell", "regels", "lawaai"},
	"Explorer":  {"entdeck", "abenteuer", "reise", "wander", "freiheit", "découv", "aventure", "voyage", "liberté", "descubr", "aventura", "viaje", "libertad", "scopr", "avventur", "viaggi", "ontdek", "avontuur"},
	"Creator":   {"handwerk", "handgemacht", "gemacht", "werkstatt", "gestalt", "artisan", "atelier", "fait main", "créa", "artesan", "hecho a mano", "artigian", "fatto a mano", "ambacht", "handgemaakt"},
	"Ruler":     {"führend", "exklusiv", "qualität", "premium", "exclusi", "qualité", "calidad", "lider", "qualità", "kwaliteit"},
	"Magician":  {"zauber", "verwandel", "zukunft", "magie", "magique", "transform", "avenir", "magia", "futuro", "toekomst"},
	"Lover":     {"liebe", "leidenschaft", "schön", "genuss", "amour", "passion", "beauté", "plaisir", "amor", "pasión", "belleza", "amore", "bellezza", "liefde", "passie"},
	"Caregiver": {"pflege", "fürsorg", "familie", "geborgen", "schutz", "hilfe", "soin", "famille", "protég", "cuidado", "familia", "ayuda", "famiglia", "zorg", "gezin"},
	"Jester":    {"spaß", "lustig", "lachen", "amusant", "rire", "drôle", "divertid", "risa", "diverten", "ridere", "grappig", "lachen"},
	"Sage":      {"wissen", "forschung", "lernen", "erfahrung", "savoir", "recherche", "appren", "conocimiento", "investigación", "aprend", "conoscenz", "ricerca", "kennis", "onderzoek"},
}

var toneLexiconIntl = map[string][]string{
	"warm":        {"herzlich", "willkommen", "bienvenue", "chaleur", "bienvenid", "benvenut", "welkom"},
	"calm":        {"ruhe", "ruhig", "geduld", "gemütlich", "calme", "patience", "tranquil", "calma", "paciencia", "rustig", "geduld"},
	"plainspoken": {"einfach", "ehrlich", "klar", "simple", "honnête", "clair", "sencill", "honest", "claro", "semplic", "eerlijk", "duidelijk"},
	"crafted":     {"handwerk", "handgemacht", "gereift", "artisan", "fait main", "artesan", "artigian", "ambacht"},
	"caring":      {"pflege", "fürsorg", "soin", "cuidado", "zorg"},
	"bold":        {"laut", "mutig", "audac", "audaz", "coraggi", "durf"},
}

func init() {
	merge := func(into, from map[string][]string) {
		for k, v := range from {
			for _, stem := range v {
				if !slices.Contains(into[k], stem) { // a stem shared with English counts once
					into[k] = append(into[k], stem)
				}
			}
		}
	}
	merge(archetypeLexicon, archetypeLexiconIntl)
	merge(toneLexicon, toneLexiconIntl)
}
