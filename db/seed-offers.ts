import type { DB } from "./client.server";
import { SEED_PLATFORMS } from "./seed-data";

/**
 * The claim steps the base data ships: only what is a stable fact of every seeded platform's
 * programme (each one credits a referral through the link, or the code asked at sign-up). Rewards,
 * conditions and the checked-on date are left to the admin: an amount written here would be
 * invented, and would go stale.
 */
const SEED_CLAIM_STEPS = {
  offer_steps: [
    "Ouvrez le lien de parrainage (bouton « Ouvrir le lien ») sur l'appareil où vous créerez votre compte.",
    "Créez votre compte à partir de la page ouverte par ce lien, sans la quitter.",
    "Si un code de parrainage vous est demandé, saisissez le code affiché ici.",
  ].join("\n"),
  offer_steps_en: [
    "Open the referral link (the “Open the link” button) on the device you will sign up on.",
    "Create your account from the page that link opens, without leaving it.",
    "If you are asked for a referral code, enter the code shown here.",
  ].join("\n"),
  offer_steps_de: [
    "Öffnen Sie den Empfehlungslink (Schaltfläche „Link öffnen“) auf dem Gerät, auf dem Sie sich registrieren.",
    "Erstellen Sie Ihr Konto auf der Seite, die dieser Link öffnet, ohne sie zu verlassen.",
    "Wenn nach einem Empfehlungscode gefragt wird, geben Sie den hier angezeigten Code ein.",
  ].join("\n"),
  offer_steps_es: [
    "Abre el enlace de referido (botón «Abrir el enlace») en el dispositivo con el que te registrarás.",
    "Crea tu cuenta desde la página que abre ese enlace, sin salir de ella.",
    "Si te piden un código de referido, introduce el código que se muestra aquí.",
  ].join("\n"),
} as const;

/** Gives each seeded platform that has no offer yet its claim steps. Idempotent: an existing offer is left alone. */
export async function seedClaimSteps(trx: DB, now: string): Promise<number> {
  const platforms = await trx
    .selectFrom("platforms")
    .select("id")
    .where(
      "slug",
      "in",
      SEED_PLATFORMS.map((p) => p.slug),
    )
    .execute();
  let added = 0;
  for (const { id } of platforms) {
    const result = await trx
      .insertInto("platform_offers")
      .values({ platform_id: id, ...SEED_CLAIM_STEPS, updated_at: now })
      .onConflict((oc) => oc.column("platform_id").doNothing())
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}
