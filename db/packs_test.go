package db

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

func testPack(domain string) *app.Pack {
	return &app.Pack{
		Brand:  "Example",
		Domain: domain,
		Colors: app.Colors{ColorRoles: app.ColorRoles{Primary: "#112233", Secondary: "#445566", Accent: "#778899",
			Background: "#FFFFFF", Text: "#000000", Palette: []string{"#112233", "#445566"}}},
		Fonts: []app.Font{{Family: "Inter", Role: "primary", Weights: []int{400, 700}, Origin: "google"}},
		Logos: []app.Logo{{URL: "logo.svg", Role: "primary", Variants: []string{"light"},
			SourceURL: "https://" + domain + "/logo.svg", Format: "svg", Width: 100, Height: 40}},
		Voice: app.Voice{Tone: "friendly", Archetype: "sage", Descriptors: []string{"clear"}},
		Metadata: app.PackMetadata{ExtractedAt: ts, TotalCostUSD: 0.01,
			FinalURL: "https://" + domain + "/", DurationMS: 1234},
	}
}

func TestPackRoundTrip(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()

	_, err := d.Pack(ctx, "example.com")
	wantCode(t, err, app.ENOTFOUND)

	p := testPack("example.com")
	if err := d.SavePack(ctx, p, nil); err != nil {
		t.Fatal(err)
	}
	got, err := d.Pack(ctx, "example.com")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("Pack =\n%+v\nwant\n%+v", got, p)
	}

	// A zero ExtractedAt is filled in.
	q := &app.Pack{Domain: "zero.example"}
	if err := d.SavePack(ctx, q, nil); err != nil {
		t.Fatal(err)
	}
	if q.Metadata.ExtractedAt.IsZero() || time.Since(q.Metadata.ExtractedAt) > time.Minute {
		t.Errorf("ExtractedAt = %v", q.Metadata.ExtractedAt)
	}

	if err := d.SavePack(ctx, &app.Pack{}, nil); err == nil {
		t.Error("saved a pack without domain")
	}
}

func TestSavePackReplacesAssets(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()

	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)
	png := []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 0xff}
	first := []app.Asset{
		{File: "logo.svg", ContentType: "image/svg+xml", Data: svg, CreatedAt: ts},
		{File: "icon.png", ContentType: "image/png", Data: png, SHA256: "given"},
	}
	if err := d.SavePack(ctx, testPack("example.com"), first); err != nil {
		t.Fatal(err)
	}
	// Another domain's assets are not touched by a save of example.com.
	if err := d.SavePack(ctx, testPack("other.com"),
		[]app.Asset{{File: "logo.svg", ContentType: "image/svg+xml", Data: svg}}); err != nil {
		t.Fatal(err)
	}

	a, err := d.Asset(ctx, "example.com", "logo.svg")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(svg)
	want := app.Asset{Domain: "example.com", File: "logo.svg", ContentType: "image/svg+xml",
		Data: svg, SHA256: hex.EncodeToString(sum[:]), CreatedAt: ts}
	if !reflect.DeepEqual(*a, want) {
		t.Errorf("Asset = %+v, want %+v", a, want)
	}
	a, err = d.Asset(ctx, "example.com", "icon.png")
	if err != nil || !reflect.DeepEqual(a.Data, png) || a.SHA256 != "given" || a.CreatedAt.IsZero() {
		t.Fatalf("png = %+v, %v", a, err)
	}

	// Saving again replaces the set.
	p2 := testPack("example.com")
	p2.Brand = "Example 2"
	second := []app.Asset{{File: "logo-dark.svg", ContentType: "image/svg+xml", Data: svg}}
	if err := d.SavePack(ctx, p2, second); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"logo.svg", "icon.png"} {
		_, err := d.Asset(ctx, "example.com", f)
		wantCode(t, err, app.ENOTFOUND)
	}
	if _, err := d.Asset(ctx, "example.com", "logo-dark.svg"); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.Pack(ctx, "example.com"); got.Brand != "Example 2" {
		t.Errorf("brand = %s", got.Brand)
	}
	if _, err := d.Asset(ctx, "other.com", "logo.svg"); err != nil {
		t.Errorf("other domain's asset gone: %v", err)
	}

	// A failing save changes nothing: the pack and the assets stay as they were.
	p3 := testPack("example.com")
	p3.Brand = "Example 3"
	bad := []app.Asset{
		{File: "a.svg", ContentType: "image/svg+xml", Data: svg},
		{File: "a.svg", ContentType: "image/svg+xml", Data: svg}, // duplicate key
	}
	if err := d.SavePack(ctx, p3, bad); err == nil || app.ErrorCode(err) != app.EINTERNAL {
		t.Fatalf("duplicate files: %v", err)
	}
	if got, _ := d.Pack(ctx, "example.com"); got.Brand != "Example 2" {
		t.Errorf("brand after failed save = %s", got.Brand)
	}
	if _, err := d.Asset(ctx, "example.com", "logo-dark.svg"); err != nil {
		t.Errorf("asset after failed save: %v", err)
	}

	// Asset of another domain is refused; no assets clears the set.
	if err := d.SavePack(ctx, testPack("example.com"), []app.Asset{{Domain: "evil.com", File: "x"}}); err == nil {
		t.Error("saved another domain's asset")
	}
	if err := d.SavePack(ctx, testPack("example.com"), nil); err != nil {
		t.Fatal(err)
	}
	_, err = d.Asset(ctx, "example.com", "logo-dark.svg")
	wantCode(t, err, app.ENOTFOUND)
}

func TestEmptyAsset(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	if err := d.SavePack(ctx, testPack("example.com"),
		[]app.Asset{{File: "empty.svg", ContentType: "image/svg+xml"}}); err != nil {
		t.Fatal(err)
	}
	a, err := d.Asset(ctx, "example.com", "empty.svg")
	if err != nil || a.Data == nil || len(a.Data) != 0 {
		t.Fatalf("empty asset = %+v, %v", a, err)
	}
}
