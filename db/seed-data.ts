import type { UrlRule } from "./platform-links";

/**
 * The eight gradients an admin can pick; Rose/Violet is the default. Deep enough shades that white
 * text on them reaches 4.5:1 (AA) everywhere along the gradient.
 */
export const GRADIENTS = [
  { id: "blue-violet", label: "Bleu/Violet", from: "#1d4ed8", to: "#6d28d9" },
  { id: "red-orange", label: "Rouge/Orange", from: "#b91c1c", to: "#c2410c" },
  { id: "green-emerald", label: "Vert/Émeraude", from: "#15803d", to: "#047857" },
  { id: "pink-violet", label: "Rose/Violet", from: "#be185d", to: "#6d28d9" },
  { id: "cyan-blue", label: "Cyan/Bleu", from: "#0e7490", to: "#1d4ed8" },
  { id: "indigo-blue", label: "Indigo/Bleu", from: "#4338ca", to: "#1d4ed8" },
  { id: "orange-pink", label: "Orange/Rose", from: "#c2410c", to: "#be185d" },
  { id: "gray", label: "Gris", from: "#4b5563", to: "#374151" },
] as const;

/** Settings keys with their defaults, plus the price-tracker promo. */
export const DEFAULT_SETTINGS = {
  gtm_id: "",
  ga4_id: "",
  adsense_head: "",
  adsense_body: "",
  adsense_account_id: "",
  google_recaptcha_site_key: "",
  enable_theme_toggle: "true",
  enable_auto_cleanup: "false",
  default_ai_provider: "anthropic",
  /** Empty: the AI_DAILY_TOKEN_BUDGET variable decides. */
  ai_daily_token_budget: "",
  price_tracker_name: "Keepa",
  price_tracker_url: "https://keepa.com/",
  /** Who publishes the site and decides what is done with visitors' data (the privacy page and legal notice name them). */
  publisher_name: "",
  publisher_email: "",
  publisher_address: "",
  /** The host as the legal notice names it (name, address, site); the admin corrects it if it changes. */
  host_details: "Fly.io, Inc., 321 N Clark St, Suite 2550, Chicago, IL 60654, USA (fly.io)",
} as const satisfies Record<string, string>;
export type SettingKey = keyof typeof DEFAULT_SETTINGS;
export const SETTING_KEYS = Object.keys(DEFAULT_SETTINGS) as SettingKey[];

export interface SeedPlatform {
  name: string;
  slug: string;
  emoji_icon: string;
  gradient_from: string;
  gradient_to: string;
  display_order: number;
  code_pattern: string;
  hosts: string;
  referral_url_template: string;
  url_rules: UrlRule[];
  description: { fr: string; en: string; de: string; es: string };
}

const GENERIC_CODE = "^[A-Z0-9][A-Z0-9._-]{2,63}$";

/** The six known platforms and their link rules. */
export const SEED_PLATFORMS: SeedPlatform[] = [
  {
    name: "Tesla",
    slug: "tesla",
    emoji_icon: "🚗",
    gradient_from: "#e31937",
    gradient_to: "#5c0a16",
    display_order: 1,
    code_pattern: GENERIC_CODE,
    hosts: "tesla.com ts.la",
    referral_url_template: "https://ts.la/{code}",
    url_rules: [
      { type: "path", after: "referral" },
      { type: "path", hosts: ["ts.la"] },
    ],
    description: {
      fr: "Des avantages à l'achat d'une Tesla ou de produits Tesla grâce au parrainage.",
      en: "Perks on a Tesla vehicle or Tesla products through a referral.",
      de: "Vorteile beim Kauf eines Tesla oder von Tesla-Produkten durch eine Empfehlung.",
      es: "Ventajas al comprar un Tesla o productos Tesla gracias a una recomendación.",
    },
  },
  {
    name: "Revolut",
    slug: "revolut",
    emoji_icon: "💳",
    gradient_from: "#0666eb",
    // Not near-black: the gradient must stay visible on the dark theme's background.
    gradient_to: "#4338ca",
    display_order: 2,
    code_pattern: GENERIC_CODE,
    hosts: "revolut.com revolut.me",
    referral_url_template: "https://revolut.com/referral/?referral-code={code}",
    url_rules: [{ type: "query", param: "referral-code" }],
    description: {
      fr: "La banque en ligne aux cartes multi-devises : un bonus à l'ouverture de votre compte.",
      en: "The online bank with multi-currency cards: a bonus when you open your account.",
      de: "Die Online-Bank mit Mehrwährungskarten: ein Bonus bei der Kontoeröffnung.",
      es: "El banco online con tarjetas multidivisa: un bono al abrir tu cuenta.",
    },
  },
  {
    name: "Trade Republic",
    slug: "trade-republic",
    emoji_icon: "📈",
    gradient_from: "#1f2937",
    gradient_to: "#0f766e",
    display_order: 3,
    code_pattern: GENERIC_CODE,
    hosts: "trade.re traderepublic.com",
    referral_url_template: "https://trade.re/{code}",
    url_rules: [{ type: "path", hosts: ["trade.re"] }],
    description: {
      fr: "Investissez en actions et ETF à petits frais, avec une action offerte au parrainage.",
      en: "Invest in shares and ETFs at low cost, with a free share through a referral.",
      de: "Günstig in Aktien und ETFs investieren, mit einer Gratisaktie per Empfehlung.",
      es: "Invierte en acciones y ETF con comisiones bajas, con una acción gratis por recomendación.",
    },
  },
  {
    name: "iGraal",
    slug: "igraal",
    emoji_icon: "🛍️",
    gradient_from: "#e6007e",
    gradient_to: "#ff7a00",
    display_order: 4,
    code_pattern: GENERIC_CODE,
    hosts: "igraal.com",
    referral_url_template: "https://fr.igraal.com/parrainage?parrain={code}",
    url_rules: [{ type: "query", param: "parrain" }],
    description: {
      fr: "Le cashback sur vos achats en ligne, avec un bonus de bienvenue au parrainage.",
      en: "Cashback on your online shopping, with a welcome bonus through a referral.",
      de: "Cashback auf Online-Einkäufe, mit einem Willkommensbonus per Empfehlung.",
      es: "Reembolso en tus compras online, con un bono de bienvenida por recomendación.",
    },
  },
  {
    name: "N26",
    slug: "n26",
    emoji_icon: "🏦",
    gradient_from: "#36a18b",
    gradient_to: "#1b4d43",
    display_order: 5,
    code_pattern: GENERIC_CODE,
    hosts: "n26.com",
    referral_url_template: "https://n26.com/r/{code}",
    url_rules: [{ type: "path", after: "r" }],
    description: {
      fr: "Un compte bancaire 100 % mobile, ouvert en quelques minutes, avec une prime de parrainage.",
      en: "A fully mobile bank account, opened in minutes, with a referral reward.",
      de: "Ein komplett mobiles Bankkonto, in Minuten eröffnet, mit Empfehlungsprämie.",
      es: "Una cuenta bancaria 100 % móvil, abierta en minutos, con premio por recomendación.",
    },
  },
  {
    name: "Holy",
    slug: "holy",
    emoji_icon: "⚡",
    gradient_from: "#ff2d87",
    gradient_to: "#7b2ff7",
    display_order: 6,
    code_pattern: GENERIC_CODE,
    hosts: "prz.io weareholy.com holy.fr holy.com",
    referral_url_template: "https://prz.io/{code}",
    url_rules: [
      { type: "path", hosts: ["prz.io"] },
      { type: "path", after: "parrain" },
    ],
    description: {
      fr: "Des boissons énergisantes et hydratantes sans sucre, avec une réduction au parrainage.",
      en: "Sugar-free energy and hydration drinks, with a discount through a referral.",
      de: "Zuckerfreie Energie- und Hydrationsdrinks, mit Rabatt per Empfehlung.",
      es: "Bebidas energéticas e hidratantes sin azúcar, con descuento por recomendación.",
    },
  },
];
