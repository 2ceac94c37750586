import type { Request } from "express";

/**
 * The few refusals Express answers before Remix runs, in the visitor's language. They live here
 * (not in app/locales) so that the server needs nothing from the app to refuse a request.
 */
const TEXTS = {
  fr: {
    notFound: "Page introuvable.",
    tooLarge: "Requête refusée : le contenu envoyé est trop volumineux.",
    overloaded: "Le site reçoit plus de visites qu'il ne peut en servir en ce moment. Réessayez dans quelques secondes.",
  },
  en: {
    notFound: "Page not found.",
    tooLarge: "Request refused: what was sent is too large.",
    overloaded: "The site is receiving more visits than it can serve right now. Please try again in a few seconds.",
  },
  de: {
    notFound: "Seite nicht gefunden.",
    tooLarge: "Anfrage abgelehnt: Der gesendete Inhalt ist zu groß.",
    overloaded:
      "Die Website erhält gerade mehr Besuche, als sie bedienen kann. Bitte versuchen Sie es in einigen Sekunden erneut.",
  },
  es: {
    notFound: "Página no encontrada.",
    tooLarge: "Solicitud rechazada: el contenido enviado es demasiado grande.",
    overloaded: "El sitio recibe ahora más visitas de las que puede atender. Inténtelo de nuevo en unos segundos.",
  },
} as const;

type Language = keyof typeof TEXTS;
export type RefusalText = keyof (typeof TEXTS)["fr"];

const isLanguage = (value: unknown): value is Language => typeof value === "string" && value in TEXTS;

/** The app's order: `?lng=`, cookie `language`, Accept-Language, then French. */
function languageOf(req: Request): Language {
  const asked = new URLSearchParams(req.originalUrl.split("?")[1] ?? "").get("lng");
  if (isLanguage(asked)) return asked;
  const cookie = /(?:^|;\s*)language=([a-z]{2})(?:;|$)/.exec(req.get("cookie") ?? "")?.[1];
  if (isLanguage(cookie)) return cookie;
  for (const part of (req.get("accept-language") ?? "").split(",")) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if (isLanguage(tag)) return tag;
  }
  return "fr";
}

export function refusalText(req: Request, key: RefusalText): string {
  return TEXTS[languageOf(req)][key];
}
