import { beforeEach, describe, expect, it } from "vitest";
import { approveDeletionRequest } from "~db/repositories/deletion-requests.server";
import { approveSuggestionAsPlatform } from "~db/repositories/suggestions.server";
import { RowGoneError } from "~db/errors.server";
import { expiryFrom, setCodePermanent } from "~db/repositories/codes.server";
import { SlugTakenError } from "~db/repositories/platforms.server";
import { useFreshDatabase, type DB } from "../support/db";
import { createCode, createPlatform, failUpdatesOf } from "../support/fixtures";

/**
 * The two multi-step admin writes are one transaction each: when the second step fails, the
 * first is undone. The failure is forced inside the database (a trigger), so the real code runs.
 */
let db: DB;
beforeEach(async () => {
  ({ db } = await useFreshDatabase());
});

const now = () => new Date().toISOString();

async function arrangeDeletion() {
  const platform = await createPlatform(db);
  const code = await createCode(db, platform.id, { code: "DOOMED42" });
  const request = await db
    .insertInto("deletion_requests")
    .values({ code: "DOOMED42", platform_id: platform.id, reason: "doublon", created_at: now() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { codeId: code.id, requestId: request.id };
}

async function arrangeSuggestion(name = "Nouvelle Banque") {
  return db
    .insertInto("platform_suggestions")
    .values({ name, normalized_name: name.toLowerCase(), created_at: now() })
    .returning("id")
    .executeTakeFirstOrThrow();
}

const platformValues = (slug: string) => ({
  name: "Nouvelle Banque",
  slug,
  description: "",
  code_pattern: "^[A-Z0-9]{8,}$",
  gradient_from: "#ec4899",
  gradient_to: "#8b5cf6",
});

describe("deletion approval", () => {
  it("deletes the code and marks the request approved with resolved_at", async () => {
    const { codeId, requestId } = await arrangeDeletion();
    expect(await approveDeletionRequest(requestId, new Date(), db)).toEqual({ removedCodes: 1 });
    expect(await db.selectFrom("referral_codes").select("id").where("id", "=", codeId).executeTakeFirst()).toBeUndefined();
    const request = await db.selectFrom("deletion_requests").selectAll().where("id", "=", requestId).executeTakeFirstOrThrow();
    expect(request.status).toBe("approved");
    expect(request.resolved_at).not.toBeNull();
  });

  it("leaves the code in place when marking the request fails (one transaction)", async () => {
    const { codeId, requestId } = await arrangeDeletion();
    await failUpdatesOf(db, "deletion_requests", "status");
    await expect(approveDeletionRequest(requestId, new Date(), db)).rejects.toThrow(/forced failure/);
    expect(await db.selectFrom("referral_codes").select("code").where("id", "=", codeId).executeTakeFirst()).toEqual({
      code: "DOOMED42",
    });
    const request = await db.selectFrom("deletion_requests").selectAll().where("id", "=", requestId).executeTakeFirstOrThrow();
    expect(request).toMatchObject({ status: "pending", resolved_at: null });
  });

  it("refuses a request that is not pending", async () => {
    const { requestId } = await arrangeDeletion();
    await db.updateTable("deletion_requests").set({ status: "rejected" }).where("id", "=", requestId).execute();
    await expect(approveDeletionRequest(requestId, new Date(), db)).rejects.toBeInstanceOf(RowGoneError);
    await expect(approveDeletionRequest(987654, new Date(), db)).rejects.toBeInstanceOf(RowGoneError);
  });
});

describe("suggestion approval", () => {
  it("creates the platform inactive and marks the suggestion approved", async () => {
    const suggestion = await arrangeSuggestion();
    const platform = await approveSuggestionAsPlatform(suggestion.id, platformValues("nouvelle-banque"), db);
    const row = await db.selectFrom("platforms").selectAll().where("id", "=", platform.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ slug: "nouvelle-banque", is_active: 0 });
    expect(
      (await db.selectFrom("platform_suggestions").select("status").where("id", "=", suggestion.id).executeTakeFirstOrThrow())
        .status,
    ).toBe("approved");
  });

  it("creates no platform when marking the suggestion fails (one transaction)", async () => {
    const suggestion = await arrangeSuggestion();
    await failUpdatesOf(db, "platform_suggestions", "status");
    await expect(approveSuggestionAsPlatform(suggestion.id, platformValues("never-there"), db)).rejects.toThrow(/forced failure/);
    expect(await db.selectFrom("platforms").select("id").where("slug", "=", "never-there").executeTakeFirst()).toBeUndefined();
    expect(
      (await db.selectFrom("platform_suggestions").select("status").where("id", "=", suggestion.id).executeTakeFirstOrThrow())
        .status,
    ).toBe("pending");
  });

  it("leaves the suggestion pending when the platform's slug is taken", async () => {
    const suggestion = await arrangeSuggestion();
    await expect(approveSuggestionAsPlatform(suggestion.id, platformValues("tesla"), db)).rejects.toBeInstanceOf(SlugTakenError);
    expect(
      (await db.selectFrom("platform_suggestions").select("status").where("id", "=", suggestion.id).executeTakeFirstOrThrow())
        .status,
    ).toBe("pending");
  });

  it("refuses a suggestion already decided, creating nothing", async () => {
    const suggestion = await arrangeSuggestion();
    await db.updateTable("platform_suggestions").set({ status: "rejected" }).where("id", "=", suggestion.id).execute();
    await expect(approveSuggestionAsPlatform(suggestion.id, platformValues("late-one"), db)).rejects.toBeInstanceOf(RowGoneError);
    expect(await db.selectFrom("platforms").select("id").where("slug", "=", "late-one").executeTakeFirst()).toBeUndefined();
  });
});

describe("a code made temporary again", () => {
  it("gets the same six calendar months a visitor's code gets when it had no expiry", async () => {
    const platform = await createPlatform(db);
    const code = await createCode(db, platform.id, { is_permanent: 1, expires_at: null });
    // 15 January + 6 calendar months is 15 July; 183 days would give 17 July.
    const now = new Date("2026-01-15T10:00:00.000Z");
    expect(await setCodePermanent(code.id, false, now, db)).toBe(true);
    const row = await db.selectFrom("referral_codes").selectAll().where("id", "=", code.id).executeTakeFirstOrThrow();
    expect(row.expires_at).toBe(expiryFrom(now));
    expect(row.expires_at).toBe("2026-07-15T10:00:00.000Z");
    expect(row.expires_at).not.toBe(new Date(now.getTime() + 183 * 86_400_000).toISOString());
  });
});
