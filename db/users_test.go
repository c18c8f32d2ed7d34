package db

import (
	"context"
	"testing"

	"github.com/brandpack/brandpack/app"
)

func TestUsers(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()

	u := &app.User{Email: "Ann@Example.com", PasswordHash: "$argon2id$x", CreatedAt: ts}
	if err := d.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if u.ID == 0 || u.Plan != app.DefaultPlan {
		t.Fatalf("after create: %+v", u)
	}
	got, err := d.UserByID(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if *got != *u {
		t.Errorf("UserByID = %+v, want %+v", got, u)
	}
	got, err = d.UserByEmail(ctx, "ann@example.COM")
	if err != nil || got.ID != u.ID || got.Email != "Ann@Example.com" {
		t.Fatalf("UserByEmail = %+v, %v", got, err)
	}

	wantCode(t, d.CreateUser(ctx, &app.User{Email: "ANN@example.com"}), app.ECONFLICT)
	wantCode(t, d.CreateUser(ctx, &app.User{Email: "bob@example.com", Plan: "gold"}), app.ENOTFOUND)
	_, err = d.UserByID(ctx, 999)
	wantCode(t, err, app.ENOTFOUND)
	_, err = d.UserByEmail(ctx, "nobody@example.com")
	wantCode(t, err, app.ENOTFOUND)

	b := mustUser(t, d, "bob@example.com")
	if b.CreatedAt.IsZero() {
		t.Error("CreatedAt not defaulted")
	}
	users, err := d.ListUsers(ctx)
	if err != nil || len(users) != 2 || users[0].ID != u.ID || users[1].ID != b.ID {
		t.Fatalf("ListUsers = %v, %v", users, err)
	}

	wantCode(t, d.SetUserPlan(ctx, b.ID, "gold"), app.ENOTFOUND)
	if err := d.UpsertPlan(ctx, app.Plan{Name: "gold", MonthlyLimit: 5000}); err != nil {
		t.Fatal(err)
	}
	if err := d.SetUserPlan(ctx, b.ID, "gold"); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.UserByID(ctx, b.ID); got.Plan != "gold" {
		t.Errorf("plan = %s", got.Plan)
	}
	wantCode(t, d.SetUserPlan(ctx, 999, "gold"), app.ENOTFOUND)
}

func TestListUsersEmpty(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	users, err := d.ListUsers(context.Background())
	if err != nil || users == nil || len(users) != 0 {
		t.Fatalf("ListUsers = %v, %v", users, err)
	}
}

func TestPlans(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()

	p, err := d.PlanByName(ctx, app.DefaultPlan)
	if err != nil || p.MonthlyLimit != app.DefaultMonthlyLimit {
		t.Fatalf("seeded plan = %+v, %v", p, err)
	}
	_, err = d.PlanByName(ctx, "gold")
	wantCode(t, err, app.ENOTFOUND)

	for _, p := range []app.Plan{{Name: "pro", MonthlyLimit: 1000}, {Name: "gold", MonthlyLimit: 5000}, {Name: "pro", MonthlyLimit: 2000}} {
		if err := d.UpsertPlan(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	plans, err := d.ListPlans(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []app.Plan{{Name: "free", MonthlyLimit: 100}, {Name: "pro", MonthlyLimit: 2000}, {Name: "gold", MonthlyLimit: 5000}}
	if len(plans) != len(want) {
		t.Fatalf("ListPlans = %v", plans)
	}
	for i := range want {
		if plans[i] != want[i] {
			t.Errorf("ListPlans = %v, want %v", plans, want)
		}
	}

	wantCode(t, d.UpsertPlan(ctx, app.Plan{Name: "", MonthlyLimit: 1}), app.EVALIDATION)
	wantCode(t, d.UpsertPlan(ctx, app.Plan{Name: "neg", MonthlyLimit: -1}), app.EVALIDATION)
	if err := d.UpsertPlan(ctx, app.Plan{Name: "zero", MonthlyLimit: 0}); err != nil {
		t.Fatal(err)
	}
}
