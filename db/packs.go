package db

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/brandpack/brandpack/app"
)

// Pack returns the cached pack of a domain, exactly as saved (logo URLs are
// whatever SavePack was given, normally file names), or ENOTFOUND.
func (d *DB) Pack(ctx context.Context, domain string) (*app.Pack, error) {
	var js string
	err := d.reader.QueryRowContext(ctx,
		`SELECT pack_json FROM packs WHERE domain = ?`, domain).Scan(&js)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, app.Errorf(app.ENOTFOUND, "No brand pack for %s.", domain)
	} else if err != nil {
		return nil, fmt.Errorf("db: pack: %w", err)
	}
	var p app.Pack
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		return nil, fmt.Errorf("db: pack %s: decode: %w", domain, err)
	}
	return &p, nil
}

// SavePack stores p under p.Domain, replacing any earlier pack, and replaces
// all of the domain's assets with the given ones, in one transaction.
// Defaults filled in place: a zero p.Metadata.ExtractedAt becomes now; an
// asset's empty Domain becomes p.Domain, empty SHA256 is computed, zero
// CreatedAt becomes now. An asset naming another domain is an error.
func (d *DB) SavePack(ctx context.Context, p *app.Pack, assets []app.Asset) error {
	if p == nil || p.Domain == "" {
		return errors.New("db: save pack: no domain")
	}
	if p.Metadata.ExtractedAt.IsZero() {
		p.Metadata.ExtractedAt = now()
	}
	p.Metadata.ExtractedAt = p.Metadata.ExtractedAt.UTC()
	at := now()
	for i := range assets {
		a := &assets[i]
		if a.Domain == "" {
			a.Domain = p.Domain
		} else if a.Domain != p.Domain {
			return fmt.Errorf("db: save pack %s: asset %s belongs to %s", p.Domain, a.File, a.Domain)
		}
		if a.File == "" {
			return fmt.Errorf("db: save pack %s: asset without a file name", p.Domain)
		}
		if a.Data == nil {
			a.Data = []byte{}
		}
		if a.SHA256 == "" {
			sum := sha256.Sum256(a.Data)
			a.SHA256 = hex.EncodeToString(sum[:])
		}
		if a.CreatedAt.IsZero() {
			a.CreatedAt = at
		}
	}
	js, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("db: save pack %s: encode: %w", p.Domain, err)
	}

	return d.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `
			INSERT INTO packs (domain, pack_json, extracted_at) VALUES (?, ?, ?)
			ON CONFLICT (domain) DO UPDATE
			SET pack_json = excluded.pack_json, extracted_at = excluded.extracted_at`,
			p.Domain, string(js), fmtTime(p.Metadata.ExtractedAt))
		if err != nil {
			return fmt.Errorf("db: save pack %s: %w", p.Domain, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM assets WHERE domain = ?`, p.Domain); err != nil {
			return fmt.Errorf("db: save pack %s: delete assets: %w", p.Domain, err)
		}
		if len(assets) == 0 {
			return nil
		}
		stmt, err := tx.PrepareContext(ctx, `
			INSERT INTO assets (domain, file, content_type, data, sha256, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("db: save pack %s: %w", p.Domain, err)
		}
		defer stmt.Close()
		for _, a := range assets {
			_, err := stmt.ExecContext(ctx, a.Domain, a.File, a.ContentType, a.Data, a.SHA256, fmtTime(a.CreatedAt))
			if err != nil {
				return fmt.Errorf("db: save pack %s: asset %s: %w", p.Domain, a.File, err)
			}
		}
		return nil
	})
}

// Asset returns one stored logo file, or ENOTFOUND.
func (d *DB) Asset(ctx context.Context, domain, file string) (*app.Asset, error) {
	var a app.Asset
	err := d.reader.QueryRowContext(ctx, `
		SELECT domain, file, content_type, data, sha256, created_at
		FROM assets WHERE domain = ? AND file = ?`, domain, file).
		Scan(&a.Domain, &a.File, &a.ContentType, &a.Data, &a.SHA256, timeCol{&a.CreatedAt})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, app.Errorf(app.ENOTFOUND, "Asset not found.")
	} else if err != nil {
		return nil, fmt.Errorf("db: asset: %w", err)
	}
	if a.Data == nil {
		a.Data = []byte{}
	}
	return &a, nil
}
